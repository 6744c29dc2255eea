#!/usr/bin/env bash
# Sourced by scale-curve.sh, e2e-nginx.sh, soak.sh and profile-e2e.sh: starts nginx (Debian's package, not ours) on
# 127.0.0.1 serving the benchmarks' 1 KB JSON document at /catalog, and answering a POST to /catalog with
# {"ok":true} after reading its body, so that the server is not one of ours and never the limit. Not run by CI.
#
#   start_nginx WORK_DIR DOCUMENT [KEEPALIVE_REQUESTS] [ACCESS_LOG]
#
# WORK_DIR is a fresh directory (nginx's prefix) whose parents nginx's workers may enter; DOCUMENT the file to
# serve. KEEPALIVE_REQUESTS (default 1000000)
# is how many requests one connection serves before nginx closes it; ACCESS_LOG "on" writes
# WORK_DIR/logs/access.log, one line per request: method, URI, status. Sets nginx_pid and nginx_port; stop_nginx
# ends it.
#
#   serve_catalog [KEEPALIVE_REQUESTS] [ACCESS_LOG]
#
# What each script around it needs: a scratch directory in `work` (deleted, and nginx stopped, when the script
# exits), the 1 KB document written there by scale-curve, and nginx serving it (start_nginx's options).

start_nginx() {
    local work=$1 document=$2 keepalive=${3:-1000000} access=${4:-off}
    command -v nginx >/dev/null || { echo "needs nginx: apt-get install nginx-light" >&2; return 1; }
    mkdir -p "$work"
    chmod 755 "$work"  # nginx workers run as another user
    mkdir -p "$work/root" "$work/logs"
    cp "$document" "$work/root/catalog"
    chmod 644 "$work/root/catalog"
    chmod 777 "$work/logs"
    nginx_port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1]); s.close()')
    local log="access_log off;"
    if [ "$access" = "on" ]; then log="access_log $work/logs/access.log calls;"; fi
    # One worker per core, nothing logged unless asked: the server should never be the limit.
    cat > "$work/nginx.conf" <<CONF
worker_processes auto;
daemon off;
pid $work/nginx.pid;
error_log $work/logs/error.log warn;
events { worker_connections 4096; }
http {
    log_format calls '\$request_method \$request_uri \$status';
    $log
    keepalive_requests $keepalive;
    keepalive_timeout 60s;
    client_body_temp_path $work/logs;
    proxy_temp_path $work/logs;
    fastcgi_temp_path $work/logs;
    uwsgi_temp_path $work/logs;
    scgi_temp_path $work/logs;
    server {
        listen 127.0.0.1:$nginx_port;
        root $work/root;
        location = /catalog {
            default_type application/json;
            if (\$request_method = POST) { return 200 '{"ok":true}'; }
        }
    }
}
CONF
    nginx -c "$work/nginx.conf" -p "$work" &
    nginx_pid=$!
    for _ in $(seq 1 50); do
        if python3 -c "import urllib.request, sys; urllib.request.urlopen(sys.argv[1], timeout=1)" "http://127.0.0.1:$nginx_port/catalog" 2>/dev/null; then
            echo "nginx $(nginx -v 2>&1 | sed 's/.*nginx\///') is serving on http://127.0.0.1:$nginx_port" >&2
            return 0
        fi
        sleep 0.1
    done
    echo "nginx did not start; see $work/logs/error.log" >&2
    return 1
}

serve_catalog() {
    swift build -c release --product scale-curve >/dev/null
    work=$(mktemp -d)
    chmod 755 "$work"  # nginx workers run as another user and serve from inside it
    trap 'stop_nginx; rm -rf "$work"' EXIT
    .build/release/scale-curve --write-document "$work/catalog"
    start_nginx "$work/nginx" "$work/catalog" "$@"
}

stop_nginx() {
    if [ -n "${nginx_pid:-}" ]; then
        kill "$nginx_pid" 2>/dev/null || true
        wait "$nginx_pid" 2>/dev/null || true
        nginx_pid=""
    fi
}
