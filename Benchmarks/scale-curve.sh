#!/usr/bin/env bash
# The scale curve of BENCHMARKS.md: calls per second and p50/p99 latency at 1, 4, 16, 64 and 256 concurrent tasks,
# for URLSession and async-http-client by hand and through RetroSwift, and NIOTransport through RetroSwift, against
# nginx (Debian's package, not ours) serving the 1 KB JSON document on 127.0.0.1. Starts and stops nginx itself
# (nginx.sh); writes scale-curve.csv and scale-curve.svg (BENCHMARKS.md links the plot). Not run by CI.
#
#   Benchmarks/scale-curve.sh [scale-curve options, such as --rounds 5 --seconds 2]
set -euo pipefail
cd "$(dirname "$0")"
source ./nginx.sh

serve_catalog

.build/release/scale-curve --base-url "http://127.0.0.1:$nginx_port" "$@" | tee scale-curve.csv
python3 plot-scale-curve.py scale-curve.csv scale-curve.svg
echo "wrote Benchmarks/scale-curve.csv and Benchmarks/scale-curve.svg"
