#!/usr/bin/env bash
# Instructions per call of each side of sections 1 and 2 (converters included), and per 64 KiB block of section 6's events parsed in
# memory (as Server-Sent Events and as JSON Lines), counted by callgrind (deterministic, unlike time on a shared
# machine): each mode runs at two iteration counts and the difference is divided by the extra calls, which cancels
# start-up and warm-up. Needs valgrind (apt-get install valgrind).
#   Benchmarks/profile.sh              # the table
#   Benchmarks/profile.sh --annotate   # also the top functions of the RetroSwift request-building run
set -euo pipefail
cd "$(dirname "$0")"
swift build -c release --product call-loop >/dev/null
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
# valgrind 3.19 gives up on this binary's DWARF (something among the NIO dependencies); symbols are enough here.
loop=$out/call-loop
strip --strip-debug -o "$loop" .build/release/call-loop
low=300
high=1300

# Per-call instruction count of one mode; keeps the high run's profile in $out/<mode>.high. A third and fourth
# argument replace the two iteration counts (a streamed block is ~170 times the work of a call).
instructions() {
    local mode=$1 low=${2:-$low} high=${3:-$high} counts=()
    for n in $low $high; do
        # Swift seeds its hashes per process unless told otherwise, which moves counts by a few thousand.
        counts+=("$(SWIFT_DETERMINISTIC_HASHING=1 valgrind --tool=callgrind --callgrind-out-file="$out/$mode.$n" \
            "$loop" "$mode" "$n" 2>&1 >/dev/null | sed -n 's/.*Collected : \([0-9]*\).*/\1/p')")
    done
    mv "$out/$mode.$high" "$out/$mode.high"
    echo $(( (counts[1] - counts[0]) / (high - low) ))
}

hand=$(instructions hand)
retro=$(instructions retroswift)
bare=$(instructions bare-1k)
retro1k=$(instructions retroswift-1k)
converter1k=$(instructions converter-1k)
plistHand=$(instructions plist-hand)
plistRetro=$(instructions plist-retroswift)
protobufHand=$(instructions protobuf-hand)
protobufRetro=$(instructions protobuf-retroswift)
sseHand=$(instructions sse-hand 20 120)
sseRetro=$(instructions sse-retroswift 20 120)
linesHand=$(instructions jsonl-hand 20 120)
linesRetro=$(instructions jsonl-retroswift 20 120)
echo "| comparison | baseline instructions per call | RetroSwift instructions per call | ratio |"
echo "| --- | --- | --- | --- |"
awk -v h="$hand" -v r="$retro" 'BEGIN { printf "| request building (6 fields) | %d | %d | %.3f |\n", h, r, r / h }'
awk -v b="$bare" -v r="$retro1k" 'BEGIN { printf "| response decoding 1 KB | %d | %d | %.3f |\n", b, r, r / b }'
awk -v b="$bare" -v r="$converter1k" 'BEGIN { printf "| 1 KB through a JSONConverter the domain sets | %d | %d | %.3f |\n", b, r, r / b }'
awk -v h="$plistHand" -v r="$plistRetro" 'BEGIN { printf "| the same catalog as a property list, PropertyListConverter | %d | %d | %.3f |\n", h, r, r / h }'
awk -v h="$protobufHand" -v r="$protobufRetro" 'BEGIN { printf "| a 700 B protobuf message, ProtobufConverter | %d | %d | %.3f |\n", h, r, r / h }'
awk -v h="$sseHand" -v r="$sseRetro" 'BEGIN { printf "| Server-Sent Events, a 64 KiB block (900 events) | %d | %d | %.3f |\n", h, r, r / h }'
awk -v h="$linesHand" -v r="$linesRetro" 'BEGIN { printf "| JSON Lines, a 64 KiB block (the same events) | %d | %d | %.3f |\n", h, r, r / h }'

if [[ "${1:-}" == "--annotate" ]]; then
    echo
    echo "Top functions (exclusive instructions, whole $high-call run) of RetroSwift request building:"
    callgrind_annotate --auto=no "$out/retroswift.high" | sed -n '/^Ir/,$p' | head -40 | swift demangle --simplified
fi
