#!/usr/bin/env bash
# The client's side of an HTTP/2 call, counted rather than timed by the wall clock: the client process's CPU time per
# call (perf stat's task-clock, all threads) of `h2-ratios --loop <client>-<get|post>` against nginx over TLS and
# HTTP/2 (nginx.sh's serve_catalog_h2), for async-http-client by hand (raw), RetroSwift on NIOTransport (nio), on
# AsyncHTTPClientTransport (ahc) and on NIOTransport held to HTTP/1.1 over the same TLS (nio1). Each is taken at two
# call counts and the difference divided by the extra calls, which cancels start-up, connecting, the TLS handshakes
# and warm-up. Not instructions: valgrind 3.19 crashes on this binary (BoringSSL), and a VM without hardware counters
# gives perf no instruction count. Median of three. Not run by CI.
#
#   Benchmarks/profile-h2.sh [clients...]          # default: raw nio ahc nio1
set -euo pipefail
cd "$(dirname "$0")"
source ./nginx.sh
serve_catalog_h2
low=500
high=3000

# Microseconds of CPU per call of one mode: the median of three differences.
per_call() {
    local mode=$1 samples=()
    for _ in 1 2 3; do
        local ms=()
        for n in $low $high; do
            ms+=("$(perf stat -x, -e task-clock .build/release/h2-ratios --base-url "https://127.0.0.1:$nginx_port" \
                --ca-file "$work/tls/ca.pem" --loop "$mode" --calls "$n" 2>&1 >/dev/null | tail -1 | cut -d, -f1)")
        done
        samples+=("$(python3 -c 'import sys; a, b, n = map(float, sys.argv[1:]); print(round((b - a) * 1000 / n))' \
            "${ms[0]}" "${ms[1]}" "$((high - low))")")
    done
    printf '%s\n' "${samples[@]}" | sort -n | sed -n 2p
}

echo "| client | GET: µs of CPU per call | POST: µs of CPU per call |"
echo "| --- | --- | --- |"
for client in "${@:-raw nio ahc nio1}"; do
    for c in $client; do
        echo "| $c | $(per_call "$c-get") | $(per_call "$c-post") |"
    done
done
