#!/usr/bin/env bash
# Section 3's NIOTransport ratios against nginx (nginx.sh) instead of e2e-ratios --serve: GET and POST of the 1 KB
# JSON document, 1 and 32 tasks, NIOTransport against async-http-client by hand and through AsyncHTTPClientTransport,
# the three in every round. Not run by CI.
#
#   Benchmarks/e2e-nginx.sh [e2e-ratios options, such as --rounds 300]
set -euo pipefail
cd "$(dirname "$0")"
source ./nginx.sh

swift build -c release --product e2e-ratios
serve_catalog
.build/release/e2e-ratios --nio --base-url "http://127.0.0.1:$nginx_port" "$@"
