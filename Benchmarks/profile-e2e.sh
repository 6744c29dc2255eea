#!/usr/bin/env bash
# The client's side of section 3's calls, counted rather than timed: instructions per call (callgrind) and heap
# allocations per call (DHAT's block count) of `call-loop e2e-<client>-<get|post|bytes>` against nginx (nginx.sh), for
# async-http-client by hand (raw-ahc), through AsyncHTTPClientTransport (ahc) and through NIOTransport (nio). Each
# count is taken at two iteration counts and the difference divided by the extra calls, which cancels start-up,
# connecting and warm-up. Deterministic enough to compare on a shared machine; needs valgrind. Not run by CI.
#
#   Benchmarks/profile-e2e.sh [clients...]          # default: raw-ahc ahc nio
#   ANNOTATE=nio-get Benchmarks/profile-e2e.sh nio   # also the top functions of that mode's larger run
set -euo pipefail
cd "$(dirname "$0")"
source ./nginx.sh
swift build -c release --product call-loop >/dev/null
serve_catalog
# valgrind 3.19 gives up on this binary's DWARF (something among the NIO dependencies); symbols are enough here.
loop=$work/call-loop
strip --strip-debug -o "$loop" .build/release/call-loop
export RETROSWIFT_BENCH_URL="http://127.0.0.1:$nginx_port"
low=200
high=1200

# Per-call figure of one tool ("callgrind" or "dhat") and mode.
per_call() {
    local tool=$1 mode=$2 counts=()
    for n in $low $high; do
        if [ "$tool" = callgrind ]; then
            counts+=("$(SWIFT_DETERMINISTIC_HASHING=1 valgrind --tool=callgrind --callgrind-out-file="$work/$mode.$n" \
                "$loop" "e2e-$mode" "$n" 2>&1 >/dev/null | sed -n 's/.*Collected : \([0-9]*\).*/\1/p')")
        else
            counts+=("$(SWIFT_DETERMINISTIC_HASHING=1 valgrind --tool=dhat --dhat-out-file=/dev/null \
                "$loop" "e2e-$mode" "$n" 2>&1 >/dev/null | sed -n 's/.*Total: *[0-9,]* bytes in \([0-9,]*\) blocks.*/\1/p' | tr -d ,)")
        fi
    done
    echo $(((counts[1] - counts[0]) / (high - low)))
}

# bytes: the GET's document as bytes, decoded by neither side (what the client alone costs, without JSONDecoder).
echo "| client | GET instructions per call | GET allocations per call | POST instructions per call | POST allocations per call | GET bytes instructions | GET bytes allocations |"
echo "| --- | --- | --- | --- | --- | --- | --- |"
for client in "${@:-raw-ahc ahc nio}"; do
    for c in $client; do
        row="| $c"
        for op in get post bytes; do
            row="$row | $(per_call callgrind "$c-$op") | $(per_call dhat "$c-$op")"
        done
        echo "$row |"
    done
done

if [ -n "${ANNOTATE:-}" ]; then
    echo
    echo "Top functions (exclusive instructions, whole $high-call run) of $ANNOTATE:"
    callgrind_annotate --auto=no "$work/$ANNOTATE.$high" | sed -n '/^Ir/,$p' | head -45 | swift demangle --simplified
fi
