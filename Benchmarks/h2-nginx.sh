#!/usr/bin/env bash
# HTTP/2 against nginx (Debian's nginx-light, which has the http2 module) over TLS on 127.0.0.1: async-http-client by
# hand over HTTP/2 against RetroSwift on NIOTransport over HTTP/2, on AsyncHTTPClientTransport over the same client,
# and on NIOTransport held to HTTP/1.1, GET and POST of the 1 KB JSON, paired rounds (h2-ratios). The certificate
# authority and the server's certificate are made here with openssl, for this run only. Not run by CI.
#
#   Benchmarks/h2-nginx.sh [h2-ratios options, such as --levels 1,32,256 --rounds 5]
set -euo pipefail
cd "$(dirname "$0")"
source ./nginx.sh

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
NGINX_TLS_DIR="$tls" start_nginx "$work/nginx" "$work/catalog"

.build/release/h2-ratios --base-url "https://127.0.0.1:$nginx_port" --ca-file "$tls/ca.pem" "$@"
