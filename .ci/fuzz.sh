#!/usr/bin/env bash
# Fuzzes every parser of untrusted bytes for a bounded time (Fuzz/README.md): builds .build-fuzz/retroswift-fuzz once,
# then runs each target the binary lists from a copy of its seed corpus Fuzz/Corpus/<target>/, in a temporary
# directory, so nothing is written into the repository. Fails when any target crashes, times out, runs out of memory
# or leaks, and prints the input that did it as hex.
#
#   FUZZ_SECONDS   seconds per target (default 20)
#   FUZZ_JOBS      targets run at once (default 2, one per core)
#   FUZZ_TARGETS   space-separated targets to run (default: all)
#   FUZZ_NO_BUILD  set to 1 to reuse an existing binary
set -euo pipefail
cd "$(dirname "$0")/.."

seconds=${FUZZ_SECONDS:-20}
jobs=${FUZZ_JOBS:-2}
binary=.build-fuzz/retroswift-fuzz
started=$(date +%s)

if [ "${FUZZ_NO_BUILD:-0}" != 1 ]; then
    echo "==> building $binary"
    bash Fuzz/build.sh
    echo "built in $(($(date +%s) - started)) s"
fi

# Swift's backtracer would read the crashed process's memory under AddressSanitizer and wedge; libFuzzer prints the
# stack itself.
export SWIFT_BACKTRACE=enable=no
targets=${FUZZ_TARGETS:-$(RETROSWIFT_FUZZ_TARGET=list "$binary")}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

run_target() {
    local target=$1 dir="$work/$1"
    mkdir -p "$dir/corpus" "$dir/artifacts"
    if [ -d "Fuzz/Corpus/$target" ]; then cp -R "Fuzz/Corpus/$target/." "$dir/corpus/"; fi
    local status=0
    RETROSWIFT_FUZZ_TARGET=$target "$binary" -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 \
        -print_final_stats=1 -artifact_prefix="$dir/artifacts/" "$dir/corpus" > "$dir/log" 2>&1 || status=$?
    echo "$status" > "$dir/status"
}

echo "==> fuzzing $(echo $targets | wc -w) targets for $seconds s each, $jobs at a time"
lane_pids=()
for ((lane = 0; lane < jobs; lane++)); do
    (
        index=0
        for target in $targets; do
            if [ $((index % jobs)) -eq "$lane" ]; then run_target "$target"; fi
            index=$((index + 1))
        done
    ) &
    lane_pids+=($!)
done
for pid in "${lane_pids[@]}"; do wait "$pid"; done

failed=0
for target in $targets; do
    dir="$work/$target"
    status=$(cat "$dir/status" 2>/dev/null || echo "not run")
    execs=$(grep -oE 'stat::number_of_executed_units: [0-9]+' "$dir/log" | awk '{ print $2 }' | tail -n 1)
    cov=$(grep -oE 'cov: [0-9]+ ft: [0-9]+' "$dir/log" | tail -n 1)
    corpus=$(grep -oE 'corp: [0-9]+/[0-9]+[a-zA-Z]+' "$dir/log" | tail -n 1)
    if [ "$status" = 0 ]; then
        printf '%-14s ok      %10s execs  %s  %s\n' "$target" "${execs:-?}" "${cov:-cov: ?}" "$corpus"
    else
        failed=1
        printf '%-14s FAILED  %10s execs  %s  (exit %s)\n' "$target" "${execs:-?}" "${cov:-cov: ?}" "$status"
    fi
done

if [ $failed -ne 0 ]; then
    for target in $targets; do
        dir="$work/$target"
        [ "$(cat "$dir/status" 2>/dev/null || echo 1)" = 0 ] && continue
        echo
        echo "==> $target failed; its report:"
        # The invariant's message, the sanitizer's or libFuzzer's report, and the first frames of the stack.
        grep -E 'Fatal error|^==[0-9]+==|ERROR: libFuzzer|SUMMARY|^    #[0-9]+ ' "$dir/log" > "$dir/report" || true
        if [ -s "$dir/report" ]; then head -n 40 "$dir/report"; else tail -n 40 "$dir/log"; fi
        for artifact in "$dir"/artifacts/*; do
            [ -f "$artifact" ] || continue
            echo "input $(basename "$artifact") ($(wc -c < "$artifact") bytes), as hex:"
            od -An -tx1 -v "$artifact" | head -n 256
            echo "replay: RETROSWIFT_FUZZ_TARGET=$target $binary <file with these bytes>"
        done
    done
fi
echo "fuzzing took $(($(date +%s) - started)) s in all"
exit $failed
