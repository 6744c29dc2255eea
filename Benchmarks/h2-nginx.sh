#!/usr/bin/env bash
# HTTP/2 against nginx (Debian's nginx-light, which has the http2 module) over TLS on 127.0.0.1: async-http-client by
# hand over HTTP/2 against RetroSwift on NIOTransport over HTTP/2, on AsyncHTTPClientTransport over the same client,
# and on NIOTransport held to HTTP/1.1, GET and POST of the 1 KB JSON, paired rounds (h2-ratios). The certificate
# authority and the server's certificate are made here with openssl, for this run only. Not run by CI.
#
#   Benchmarks/h2-nginx.sh [h2-ratios options, such as --levels 1,32,256 --rounds 5]
#   Benchmarks/h2-nginx.sh --allocations --calls 2000   # allocations per call of each client instead
set -euo pipefail
cd "$(dirname "$0")"
source ./nginx.sh

serve_catalog_h2

.build/release/h2-ratios --base-url "https://127.0.0.1:$nginx_port" --ca-file "$work/tls/ca.pem" "$@"
