// swift-tools-version: 6.2
import PackageDescription

let package = Package(
    name: "DemoProject",
    platforms: [.macOS(.v13)],
    products: [
        .executable(name: "retroswift-demo", targets: ["RetroSwiftDemo"]),
    ],
    dependencies: [
        .package(name: "RetroSwift", path: ".."),
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
        // The embedded server: FlyingFox builds in seconds, which matters more for a demo than raw speed.
        .package(url: "https://github.com/swhitty/FlyingFox", from: "0.27.0"),
    ],
    targets: [
        .executableTarget(
            name: "RetroSwiftDemo",
            dependencies: [
                .product(name: "RetroSwift", package: "RetroSwift"),
                .product(name: "RetroSwiftURLSession", package: "RetroSwift"),
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "FlyingFox", package: "FlyingFox"),
                .product(name: "FlyingSocks", package: "FlyingFox"),
            ],
            swiftSettings: [.treatAllWarnings(as: .error)]
        ),
    ],
    swiftLanguageModes: [.v6]
)
