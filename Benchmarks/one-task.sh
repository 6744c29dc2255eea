#!/usr/bin/env bash
# One task's calls one after another over HTTP/1.1 (issue 45): time per call of `call-loop e2e-nio-<bytes|get>` against
# nginx (nginx.sh) as a server app makes them, and inside NIOTransport.withCallsOnEventLoop (ON_EVENT_LOOP=1), beside
# wrk on one connection (`wrk -t1 -c1`) against the same nginx in the same round, in an order that turns from round to
# round. Prints each round, then the medians and their ratios to wrk. Then, with --callgrind, instructions per call of
# both ways (callgrind, the difference between 1,200 and 200 calls divided by 1,000). Needs wrk (apt-get install wrk).
#
#   Benchmarks/one-task.sh [--rounds N] [--calls N] [--callgrind]
set -euo pipefail
cd "$(dirname "$0")"
rounds=5 calls=20000 callgrind=0
while [ $# -gt 0 ]; do
    case $1 in
    --rounds) rounds=$2; shift 2 ;;
    --calls) calls=$2; shift 2 ;;
    --callgrind) callgrind=1; shift ;;
    *) echo "usage: $0 [--rounds N] [--calls N] [--callgrind]" >&2; exit 2 ;;
    esac
done
command -v wrk >/dev/null || { echo "needs wrk: apt-get install wrk" >&2; exit 1; }
source ./nginx.sh
swift build -c release --product call-loop >/dev/null
serve_catalog
export RETROSWIFT_BENCH_URL="http://127.0.0.1:$nginx_port"
loop=.build/release/call-loop
results=$work/results

# Microseconds a call of `call-loop e2e-nio-$1` takes, ON_EVENT_LOOP=$2 (its 20 warm-up calls counted in).
per_call() {
    local start end
    start=$(date +%s%N)
    ON_EVENT_LOOP=$2 "$loop" "e2e-nio-$1" "$calls"
    end=$(date +%s%N)
    python3 -c "print(round(($end - $start) / 1000 / ($calls + 20), 1))"
}

# Microseconds a request of wrk takes on one connection for 5 s.
wrk_call() {
    wrk -t1 -c1 -d5s "$RETROSWIFT_BENCH_URL/catalog" | awk '/Requests\/sec/ { printf "%.1f\n", 1000000 / $2 }'
}

for round in $(seq "$rounds"); do
    order=(wrk default loop)
    [ $((round % 2)) -eq 0 ] && order=(loop default wrk)
    for who in "${order[@]}"; do
        case $who in
        wrk) echo "$round wrk - $(wrk_call)" ;;
        default) for op in bytes get; do echo "$round default $op $(per_call $op 0)"; done ;;
        loop) for op in bytes get; do echo "$round on-event-loop $op $(per_call $op 1)"; done ;;
        esac
    done
done | tee "$results"

python3 - "$results" <<'PY'
import statistics, sys
rows = [line.split() for line in open(sys.argv[1])]
def median(who, op):
    return statistics.median(float(r[3]) for r in rows if r[1] == who and r[2] == op)
wrk = median("wrk", "-")
print(f"\nmedians of {len(set(r[0] for r in rows))} rounds: wrk {wrk} µs a request")
print("| call | as an app makes it (µs) | on the event loop (µs) | as made / wrk | on the loop / wrk |")
print("| --- | --- | --- | --- | --- |")
for op, name in (("bytes", "GET as bytes"), ("get", "GET, decoded")):
    made, loop = median("default", op), median("on-event-loop", op)
    print(f"| {name} | {made} | {loop} | {made / wrk:.2f} | {loop / wrk:.2f} |")
PY

if [ "$callgrind" = 1 ]; then
    command -v valgrind >/dev/null || { echo "needs valgrind" >&2; exit 1; }
    stripped=$work/call-loop
    strip --strip-debug -o "$stripped" "$loop"
    echo
    echo "| call | instructions a call, as made | on the event loop |"
    echo "| --- | --- | --- |"
    for op in bytes get; do
        line="| $op"
        for on in 0 1; do
            counts=()
            for n in 200 1200; do
                counts+=("$(ON_EVENT_LOOP=$on SWIFT_DETERMINISTIC_HASHING=1 valgrind --tool=callgrind --callgrind-out-file=/dev/null \
                    "$stripped" "e2e-nio-$op" "$n" 2>&1 >/dev/null | sed -n 's/.*Collected : \([0-9]*\).*/\1/p')")
            done
            line="$line | $(((counts[1] - counts[0]) / 1000))"
        done
        echo "$line |"
    done
fi
