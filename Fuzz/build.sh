#!/usr/bin/env bash
# Builds the libFuzzer binary .build-fuzz/retroswift-fuzz: every Swift file of Sources/RetroSwift (not the .docc
# catalogue), NIOTransport's obs-fold unfolder (plain Swift, no SwiftNIO) and Fuzz/Targets compiled as one module
# named RetroSwift, so the targets reach the internal parsers.
# Same language settings as Package.swift's RetroSwift target: Swift 6 mode, strict memory safety; -package-name for
# its `package` declarations.
#
#   bash Fuzz/build.sh            # optimized (-O), as CI runs it
#   FUZZ_OPT=-Onone bash Fuzz/build.sh   # quicker to build, slower to run
set -euo pipefail
cd "$(dirname "$0")/.."

swiftc=${SWIFTC:-$(command -v swiftc || echo /opt/swift/usr/bin/swiftc)}
out=.build-fuzz
mkdir -p "$out"

sources=()
while IFS= read -r -d '' file; do sources+=("$file"); done < <(find "$PWD/Sources/RetroSwift" -name '*.swift' -not -path '*.docc/*' -print0 | sort -z)
sources+=("$PWD/Sources/RetroSwiftNIO/ObsFoldUnfolder.swift")
targets=()
while IFS= read -r -d '' file; do targets+=("$file"); done < <(find "$PWD/Fuzz/Targets" -name '*.swift' -print0 | sort -z)

# -sanitize=fuzzer links libclang_rt.fuzzer from the toolchain (usr/lib/clang/*/lib/linux) and instruments the code
# for coverage; lld, because gold warns about every AddressSanitizer helper symbol.
# From inside the build folder: with -g the driver leaves intermediate module files in the working directory.
cd "$out"
set -x
"$swiftc" -module-name RetroSwift -package-name retroswift -parse-as-library -swift-version 6 -strict-memory-safety \
    -sanitize=fuzzer,address "${FUZZ_OPT:--O}" -wmo -g -use-ld=lld \
    -module-cache-path module-cache \
    "${sources[@]}" "${targets[@]}" -o retroswift-fuzz
