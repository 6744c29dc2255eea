#!/usr/bin/env bash
# Checks the README's front door the way a newcomer meets it: a new package that depends on RetroSwift by the
# README's install line (its exact requirement, `branch: "main"`, on a clone of this repository), with the README's
# first example pasted as its main.swift and the README's test pasted as its test. It must resolve without
# fetching anything else (no trait is enabled), build, and pass its test. The example itself calls
# api.github.com, so it is built, not run: CI has no network beyond 127.0.0.1.
#
#   bash .ci/consumer.sh        # from anywhere in the repository; leaves nothing behind
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# The commit under test, as the `main` branch of a repository the consumer can reach by URL.
git clone --quiet --bare . "$work/RetroSwift.git"
git -C "$work/RetroSwift.git" update-ref refs/heads/main "$(git rev-parse HEAD)"

python3 - "$work" <<'PY'
import re, sys
work = sys.argv[1]
readme = open("README.md").read()
install = re.search(r'^\.package\(url: "https://github\.com/level-two/RetroSwift", branch: "main"\),$', readme, re.M)
if not install:
    sys.exit("consumer.sh: README.md has no install line of the form .package(url: \"https://github.com/level-two/RetroSwift\", branch: \"main\"),")
line = install.group(0).replace("https://github.com/level-two/RetroSwift", f"file://{work}/RetroSwift.git")
blocks = re.findall(r'<!-- snippet: main -->\n```swift\n(.*?)\n```.*?```swift\n(.*?)\n```', readme, re.S)
if not blocks:
    sys.exit("consumer.sh: README.md has no <!-- snippet: main --> example followed by its test")
example, test = blocks[0]
import os
os.makedirs(f"{work}/MyApp/Sources/MyApp")
os.makedirs(f"{work}/MyApp/Tests/MyAppTests")
open(f"{work}/MyApp/Sources/MyApp/main.swift", "w").write(example + "\n")
open(f"{work}/MyApp/Tests/MyAppTests/MyAppTests.swift", "w").write(test + "\n")
open(f"{work}/MyApp/Package.swift", "w").write(f'''// swift-tools-version: 6.2
import PackageDescription

let package = Package(
    name: "MyApp",
    platforms: [.macOS(.v13), .iOS(.v16)],
    dependencies: [
        {line}
    ],
    targets: [
        .executableTarget(
            name: "MyApp",
            dependencies: [
                .product(name: "RetroSwift", package: "RetroSwift"),
                .product(name: "RetroSwiftURLSession", package: "RetroSwift"),
            ]
        ),
        .testTarget(
            name: "MyAppTests",
            dependencies: ["MyApp", .product(name: "RetroSwiftTesting", package: "RetroSwift")]
        ),
    ]
)
''')
print("consumer.sh: README install line:", install.group(0))
PY

cd "$work/MyApp"
swift package resolve
checkouts=$(ls .build/checkouts)
if [[ "$checkouts" != "RetroSwift" ]]; then
    echo "consumer.sh: expected only RetroSwift to be fetched, found: $checkouts" >&2
    exit 1
fi
echo "consumer.sh: resolved branch main; fetched only RetroSwift"
swift build --build-tests
swift test 2>&1 | tail -n 5
echo "consumer.sh: the README's example builds and its test passes in a new package"
