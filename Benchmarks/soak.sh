#!/usr/bin/env bash
# Issue 41's soak of NIOTransport: a few hundred thousand calls from 64 tasks (every other one a POST with an id of
# its own, every 50th cancelled after a random delay of up to 0.4 ms) against nginx (nginx.sh) closing each
# connection after KEEPALIVE requests, so that connections close under the pool all the time. Checks that every call
# was answered or failed with a clear error (soak's own exit status), that nginx saw no POST id twice and every
# answered POST once (its access log), and prints open descriptors and resident memory before and after. Not run by CI.
#
#   Benchmarks/soak.sh [soak options, such as --calls 300000 --tasks 64]     KEEPALIVE=50 by default
set -euo pipefail
cd "$(dirname "$0")"
source ./nginx.sh

swift build -c release --product soak
serve_catalog "${KEEPALIVE:-50}" on
status=0
.build/release/soak --base-url "http://127.0.0.1:$nginx_port" --posted-ids "$work/answered" "$@" || status=$?
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
