#!/usr/bin/env bash
# The scale curve of BENCHMARKS.md: calls per second and p50/p99 latency at 1, 4, 16, 64 and 256 concurrent tasks,
# for URLSession and async-http-client by hand and through RetroSwift, against nginx (Debian's package, not ours)
# serving the 1 KB JSON document on 127.0.0.1. Starts and stops nginx itself; writes scale-curve.csv and
# scale-curve.svg (BENCHMARKS.md links the plot). Not run by CI.
#
#   Benchmarks/scale-curve.sh [scale-curve options, such as --rounds 5 --seconds 2]
set -euo pipefail
cd "$(dirname "$0")"
command -v nginx >/dev/null || { echo "scale-curve.sh needs nginx: apt-get install nginx-light" >&2; exit 1; }

swift build -c release --product scale-curve
work=$(mktemp -d)
nginx_pid=""
cleanup() {
    if [ -n "$nginx_pid" ]; then kill "$nginx_pid" 2>/dev/null || true; fi
    rm -rf "$work"
}
trap cleanup EXIT

chmod 755 "$work"  # nginx workers run as another user
mkdir -p "$work/root" "$work/logs"
.build/release/scale-curve --write-document "$work/root/catalog"
port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1]); s.close()')
# One worker per core, keep-alive without a request cap, nothing logged: the server should never be the limit.
cat > "$work/nginx.conf" <<CONF
worker_processes auto;
daemon off;
pid $work/nginx.pid;
error_log $work/logs/error.log warn;
events { worker_connections 4096; }
http {
    access_log off;
    keepalive_requests 1000000;
    keepalive_timeout 60s;
    client_body_temp_path $work/logs;
    proxy_temp_path $work/logs;
    fastcgi_temp_path $work/logs;
    uwsgi_temp_path $work/logs;
    scgi_temp_path $work/logs;
    server {
        listen 127.0.0.1:$port;
        root $work/root;
        location = /catalog { default_type application/json; }
    }
}
CONF
nginx -c "$work/nginx.conf" -p "$work" &
nginx_pid=$!
for _ in $(seq 1 50); do
    if python3 -c "import urllib.request, sys; urllib.request.urlopen(sys.argv[1], timeout=1)" "http://127.0.0.1:$port/catalog" 2>/dev/null; then
        break
    fi
    sleep 0.1
done
echo "nginx $(nginx -v 2>&1 | sed 's/.*nginx\///') is serving on http://127.0.0.1:$port"

.build/release/scale-curve --base-url "http://127.0.0.1:$port" "$@" | tee scale-curve.csv
python3 plot-scale-curve.py scale-curve.csv scale-curve.svg
echo "wrote Benchmarks/scale-curve.csv and Benchmarks/scale-curve.svg"
