#!/usr/bin/env bash
# The benchmarks' CI check: builds them in release mode and runs request building and response decoding briefly,
# so they cannot rot. It never judges times (this machine is shared and noisy); BENCHMARKS.md has real figures.
set -euo pipefail
cd "$(dirname "$0")"
RETROSWIFT_BENCH_QUICK=1 swift package benchmark --no-progress --filter "Request building.*" --filter "Response decoding.*"
# The paired ratios of the same comparisons, a few rounds only: proves the tool runs, says nothing about speed.
swift run -c release inprocess-ratios --rounds 4 --batch 10
# Section 4, briefly: first calls by API size and validateEndpoints() (times not judged).
swift run -c release cold-start --warm-calls 3
swift run -c release cold-start --validate
