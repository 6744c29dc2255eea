#!/usr/bin/env bash
# The soak of every transport (issues 41 and 48). Not run by CI; loopback only; bounded by --seconds (60) and --calls.
#
# nginx mode (the default): calls from 64 tasks (every other one a POST with an id of its own, every 50th cancelled
# after a random delay of up to 0.4 ms) against nginx (nginx.sh) closing each connection after KEEPALIVE requests, so
# that connections close under the pool all the time. Checks that every call was answered with the right body or
# cancelled (soak's own exit status), that nginx saw no POST id twice and every answered POST once (its access log),
# and prints open descriptors and resident memory before and after.
#
# Fault mode (--faults): the same against the soak's own fault-injecting server (a process of its own on 127.0.0.1)
# that, call by call, answers, cuts the body, resets after reading the request, stalls past the timeout, dribbles the
# body, fragments the head or sends a 103 Early Hints first; every 9th call cancelled. The soak checks each outcome
# against what the server did, and the server's count of POST ids.
#
# With H2=1 nginx speaks TLS and HTTP/2 (nginx.sh's serve_catalog_h2): ending each connection after KEEPALIVE streams
# is then a GOAWAY, and the soak trusts the run's authority (--ca-file); nio and asynchttpclient only.
#
#   Benchmarks/soak.sh [--transport urlsession|asynchttpclient|nio] [--seconds 60] [--tasks 64] [...]   KEEPALIVE=50 H2=1
#   Benchmarks/soak.sh --faults [--transport ...] [--timeout 1] [...]
#
# Latency mode (--latency): how late a 0.5 s timeout fires and how long a cancelled call takes to end, alone and then
# beside --tasks tasks moving 8 MiB downloads and uploads on the same transport (--load downloads|uploads|both), against
# the fault server; prints the percentiles of both phases and their ratio.
#   Benchmarks/soak.sh --latency [--transport ...] [--tasks 8] [--probes 40] [--load both]
set -euo pipefail
cd "$(dirname "$0")"
source ./nginx.sh

swift build -c release --product soak
for arg in "$@"; do
    if [ "$arg" = "--faults" ] || [ "$arg" = "--latency" ]; then exec .build/release/soak "$@"; fi
done
status=0
if [ -n "${H2:-}" ]; then
    serve_catalog_h2 "${KEEPALIVE:-50}" on
    .build/release/soak --base-url "https://127.0.0.1:$nginx_port" --ca-file "$work/tls/ca.pem" --posted-ids "$work/answered" "$@" \
        || status=$?
else
    serve_catalog "${KEEPALIVE:-50}" on
    .build/release/soak --base-url "http://127.0.0.1:$nginx_port" --posted-ids "$work/answered" "$@" || status=$?
fi
stop_nginx

# The server's side: POSTs of the soak carry ids >= 0 (the warm-up's are negative).
log=$work/nginx/logs/access.log
awk '$1 == "POST" { split($2, q, "id="); if (q[2] + 0 >= 0 && q[2] != "") print q[2] + 0 }' "$log" | sort > "$work/received"
sort -o "$work/answered" "$work/answered"  # comm compares lines in the shell's order
twice=$(uniq -d "$work/received" | wc -l)
missing=$(comm -23 "$work/answered" <(uniq "$work/received") | wc -l)
echo "nginx: $(wc -l < "$log") requests, $(wc -l < "$work/received") POSTs of the soak received, $twice ids received twice, $missing answered POSTs it never saw"
if [ "$twice" -ne 0 ] || [ "$missing" -ne 0 ]; then status=1; fi
exit "$status"
