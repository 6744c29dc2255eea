// swift-tools-version: 6.2
import PackageDescription

/// Our own targets fail the build on any warning; dependencies are not affected.
let strict: [SwiftSetting] = [.treatAllWarnings(as: .error)]

let package = Package(
    name: "RetroSwift",
    platforms: [.macOS(.v13), .iOS(.v16), .tvOS(.v16), .watchOS(.v9)],
    products: [
        .library(name: "RetroSwift", targets: ["RetroSwift"]),
        .library(name: "RetroSwiftTesting", targets: ["RetroSwiftTesting"]),
    ],
    targets: [
        .target(name: "RetroSwift", swiftSettings: strict),
        .target(name: "RetroSwiftTesting", dependencies: ["RetroSwift"], swiftSettings: strict),
        .testTarget(
            name: "RetroSwiftTests",
            dependencies: ["RetroSwift", "RetroSwiftTesting"],
            swiftSettings: strict
        ),
    ],
    swiftLanguageModes: [.v6]
)
