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
# With NGINX_TLS_DIR set (h2-nginx.sh sets it), nginx listens with TLS and HTTP/2 (ALPN h2, then http/1.1), with
# NGINX_TLS_DIR/server.pem and server.key, and names the protocol each answer went over in X-Protocol. A POST is then
# answered by a second server block behind proxy_pass, so that nginx reads the whole body first: answered unread, an
# HTTP/2 POST gets RST_STREAM NO_ERROR after its answer (RFC 9113 §8.1), and async-http-client, held to
# swift-nio-http2's default of 200 such frames in 30 s, loses its connection and leaves a call hanging after 200 POSTs.
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
    local log="access_log off;" listen="listen 127.0.0.1:$nginx_port;" scheme=http tls="" post="return 200 '{\"ok\":true}';" inner=""
    if [ -n "${NGINX_TLS_DIR:-}" ]; then
        local inner_port
        inner_port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1]); s.close()')
        listen="listen 127.0.0.1:$nginx_port ssl http2;"
        scheme=https
        tls="ssl_certificate $NGINX_TLS_DIR/server.pem; ssl_certificate_key $NGINX_TLS_DIR/server.key; http2_max_concurrent_streams 128; add_header X-Protocol \$server_protocol always; proxy_http_version 1.1; proxy_set_header Connection \"\";"
        post="proxy_pass http://ack;"
        inner="upstream ack { server 127.0.0.1:$inner_port; keepalive 64; }
    server { listen 127.0.0.1:$inner_port; access_log off; location / { default_type application/json; return 200 '{\"ok\":true}'; } }"
    fi
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
        $listen
        $tls
        root $work/root;
        location = /catalog {
            default_type application/json;
            if (\$request_method = POST) { $post }
        }
    }
    $inner
}
CONF
    nginx -c "$work/nginx.conf" -p "$work" &
    nginx_pid=$!
    for _ in $(seq 1 50); do
        if python3 -c "import urllib.request, ssl, sys; urllib.request.urlopen(sys.argv[1], timeout=1, context=ssl._create_unverified_context())" "$scheme://127.0.0.1:$nginx_port/catalog" 2>/dev/null; then
            echo "nginx $(nginx -v 2>&1 | sed 's/.*nginx\///') is serving on $scheme://127.0.0.1:$nginx_port" >&2
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

# serve_catalog over TLS and HTTP/2 (h2-nginx.sh, profile-h2.sh): the certificate authority (work/tls/ca.pem) and the
# server's certificate for 127.0.0.1 are made with openssl, for this run only.
serve_catalog_h2() {  # [KEEPALIVE_REQUESTS] [ACCESS_LOG], as serve_catalog
    swift build -c release --product h2-ratios >/dev/null
    swift build -c release --product scale-curve >/dev/null
    work=$(mktemp -d)
    chmod 755 "$work"  # nginx workers run as another user and serve from inside it
    trap 'stop_nginx; rm -rf "$work"' EXIT
    tls="$work/tls"
    mkdir -p "$tls"
    openssl req -x509 -newkey rsa:2048 -nodes -days 2 -subj "/CN=RetroSwift benchmark CA" \
        -keyout "$tls/ca.key" -out "$tls/ca.pem" 2>/dev/null
    openssl req -newkey rsa:2048 -nodes -subj "/CN=127.0.0.1" -keyout "$tls/server.key" -out "$tls/server.csr" 2>/dev/null
    printf 'subjectAltName=IP:127.0.0.1\nbasicConstraints=CA:FALSE\nkeyUsage=digitalSignature,keyEncipherment\nextendedKeyUsage=serverAuth\n' > "$tls/ext"
    openssl x509 -req -in "$tls/server.csr" -CA "$tls/ca.pem" -CAkey "$tls/ca.key" -CAcreateserial -days 2 \
        -extfile "$tls/ext" -out "$tls/server.pem" 2>/dev/null
    chmod 755 "$tls"
    chmod 644 "$tls"/*
    .build/release/scale-curve --write-document "$work/catalog"
    NGINX_TLS_DIR="$tls" start_nginx "$work/nginx" "$work/catalog" "$@"
}

stop_nginx() {
    if [ -n "${nginx_pid:-}" ]; then
        kill "$nginx_pid" 2>/dev/null || true
        wait "$nginx_pid" 2>/dev/null || true
        nginx_pid=""
    fi
}
