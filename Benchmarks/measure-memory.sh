#!/usr/bin/env bash
# Peak resident memory of a 200 MB @FormFile upload from a file URL, a 1 GB DownloadedFile download (and the same
# body asked for in memory, which must be refused, plain and as a gzip bomb), a walk of
# 1,000 and of 100,000 paginated items (pages of 100), and a 1 GB Server-Sent Events stream, through each transport, against a local server in its own
# process. Usage: Benchmarks/measure-memory.sh [upload MB] [download MB]
set -euo pipefail
cd "$(dirname "$0")"
upload_mb=${1:-200}
download_mb=${2:-1024}
swift build -c release --product memory-probe 2>&1 | grep -E 'error|Compiling|Build' || true
probe=$(swift build -c release --show-bin-path)/memory-probe
"$probe" serve > .memory-probe-port &
server=$!
trap 'kill $server 2>/dev/null || true; rm -f .memory-probe-port' EXIT
for _ in $(seq 50); do [ -s .memory-probe-port ] && break; sleep 0.1; done
port=$(cat .memory-probe-port)
for transport in urlsession nio asynchttpclient; do
    "$probe" upload --port "$port" --megabytes "$upload_mb" --transport "$transport"
    "$probe" download --port "$port" --megabytes "$download_mb" --transport "$transport"
    # The same body asked for in memory: refused at its Content-Length, before it is read (ResponseLimits).
    "$probe" oversized --port "$port" --megabytes "$download_mb" --transport "$transport"
    # A gzip body inflating to the same size, asked for in memory: refused at ResponseLimits.maxBodyBytes (64 MiB)
    # counted after decompression, while it arrives.
    "$probe" bomb --port "$port" --megabytes "$download_mb" --transport "$transport"
    # The same walk at two lengths: one page held at a time means the same peak for both.
    "$probe" walk --port "$port" --items 1000 --transport "$transport"
    "$probe" walk --port "$port" --items 100000 --transport "$transport"
    # A 1 GB Server-Sent Events stream, every event decoded.
    "$probe" events --port "$port" --megabytes "$download_mb" --transport "$transport"
done
