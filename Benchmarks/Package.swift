// swift-tools-version: 6.2
import PackageDescription

// A separate package so the library never depends on benchmarking tools. Run from the repository root:
//   swift package --package-path Benchmarks benchmark
let package = Package(
    name: "Benchmarks",
    platforms: [.macOS(.v13)],
    dependencies: [
        .package(name: "RetroSwift", path: "..", traits: ["AsyncHTTPClient", "NIO", "Protobuf"]),
        .package(url: "https://github.com/apple/swift-protobuf", from: "1.39.0"),
        .package(url: "https://github.com/swift-server/async-http-client", from: "1.37.0"),
        // Only the MallocInterposer trait: the default RuntimeInterposer needs a package this mirror lacks.
        .package(url: "https://github.com/ordo-one/package-benchmark", from: "1.38.0", traits: ["MallocInterposer"]),
        .package(url: "https://github.com/apple/swift-nio", from: "2.100.0"),
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
        .package(url: "https://github.com/apple/swift-nio-ssl", from: "2.30.0"),
        // package-benchmark's own allocation counter, used directly where a run is not a package-benchmark one.
        .package(url: "https://github.com/ordo-one/malloc-interposer", from: "1.6.0"),
    ],
    targets: [
        // The end-to-end tests' server, linked (not copied) from the main package, where it is not a product; the
        // define compiles it, as the main package's own target does. The conformance cases beside it are left out.
        .target(
            name: "RetroSwiftTestServer",
            dependencies: [
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
            ],
            exclude: [
                "BodyCases.swift", "CacheCases.swift", "ConformanceApi.swift", "ConformanceContext.swift", "ConnectionCases.swift",
                "ConnectionReuseCases.swift", "FramingCases.swift", "ProgressCases.swift", "RedirectCases.swift", "RequestCases.swift",
                "ResponseFieldCases.swift", "StatusCases.swift", "StreamCases.swift", "TimingCases.swift", "TimeoutCases.swift",
                "URLCases.swift", "HTTP2Cases.swift", "HTTP2ConnectionCases.swift", "HTTP2FrameCases.swift", "HTTP1OnlyCases.swift",
                "TestServer+HTTP2.swift", "TestServer+HTTP2Script.swift",
                "TransportConformance.swift", "TransportConformanceCase.swift", "TransportConformanceFailure.swift",
                "TransportLimitation.swift", "TLSCases.swift", "TestCertificateAuthority.swift",
                // The shipped transports' known limitations, a folder of the main package's test server only.
                "Limitations",
            ],
            swiftSettings: [.define("TransportConformance")]
        ),
        // What the benchmarks share: fixtures, the hand-written baselines and the end-to-end harness.
        .target(
            name: "BenchmarkSupport",
            dependencies: [
                .product(name: "RetroSwift", package: "RetroSwift"),
                .product(name: "RetroSwiftURLSession", package: "RetroSwift"),
                .product(name: "RetroSwiftAsyncHTTPClient", package: "RetroSwift"),
                .product(name: "RetroSwiftNIO", package: "RetroSwift"),
                .product(name: "RetroSwiftProtobuf", package: "RetroSwift"),
                .product(name: "SwiftProtobuf", package: "swift-protobuf"),
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "NIOCore", package: "swift-nio"),
                "RetroSwiftTestServer",
            ],
            // Protobuf: compiles the generated messages linked from the main package's tests (ProtobufFixture).
            swiftSettings: [.treatAllWarnings(as: .error), .define("Protobuf")]
        ),
        // Paired end-to-end ratios, steadier than separate benchmarks on a shared machine.
        .executableTarget(
            name: "e2e-ratios",
            dependencies: ["BenchmarkSupport", .product(name: "ArgumentParser", package: "swift-argument-parser")],
            path: "Sources/E2ERatios",
            swiftSettings: [.treatAllWarnings(as: .error)]
        ),
        // Paired streaming throughput (section 6), against e2e-ratios --serve.
        .executableTarget(
            name: "stream-ratios",
            dependencies: ["BenchmarkSupport", .product(name: "ArgumentParser", package: "swift-argument-parser")],
            path: "Sources/StreamRatios",
            swiftSettings: [.treatAllWarnings(as: .error)]
        ),
        // Calls per second and latency by concurrency against nginx, for the scale plot; run by scale-curve.sh.
        .executableTarget(
            name: "scale-curve",
            dependencies: ["BenchmarkSupport", .product(name: "ArgumentParser", package: "swift-argument-parser")],
            path: "Sources/ScaleCurve",
            swiftSettings: [.treatAllWarnings(as: .error)]
        ),
        // HTTP/2 against nginx over TLS: async-http-client by hand against RetroSwift; run by h2-nginx.sh.
        .executableTarget(
            name: "h2-ratios",
            dependencies: [
                "BenchmarkSupport",
                .product(name: "RetroSwift", package: "RetroSwift"),
                .product(name: "RetroSwiftAsyncHTTPClient", package: "RetroSwift"),
                .product(name: "RetroSwiftNIO", package: "RetroSwift"),
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "MallocInterposerSwift", package: "malloc-interposer"),
            ],
            path: "Sources/HTTP2Ratios",
            swiftSettings: [.treatAllWarnings(as: .error)]
        ),
        // Paired ratios of request building and response decoding (sections 1 and 2), steadier than separate benchmarks.
        .executableTarget(
            name: "inprocess-ratios",
            dependencies: [
                "BenchmarkSupport",
                .product(name: "RetroSwift", package: "RetroSwift"),
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ],
            path: "Sources/InProcessRatios",
            swiftSettings: [.treatAllWarnings(as: .error)]
        ),
        // Section 4: first-call cost by API size, and validateEndpoints() time.
        .executableTarget(
            name: "cold-start",
            dependencies: [
                "BenchmarkSupport",
                .product(name: "RetroSwift", package: "RetroSwift"),
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ],
            path: "Sources/ColdStart",
            swiftSettings: [.treatAllWarnings(as: .error)]
        ),
        // One side of a section 1 or 2 comparison in a plain loop, for callgrind; run by profile.sh.
        .executableTarget(
            name: "call-loop",
            dependencies: ["BenchmarkSupport", .product(name: "RetroSwift", package: "RetroSwift")],
            path: "Sources/CallLoop",
            swiftSettings: [.treatAllWarnings(as: .error)]
        ),
        // The soak of every transport against nginx closing connections under the pool (issue 41) and against a
        // fault-injecting server of its own (issue 48); run by soak.sh.
        .executableTarget(
            name: "soak",
            dependencies: [
                .product(name: "RetroSwift", package: "RetroSwift"),
                .product(name: "RetroSwiftURLSession", package: "RetroSwift"),
                .product(name: "RetroSwiftAsyncHTTPClient", package: "RetroSwift"),
                .product(name: "RetroSwiftNIO", package: "RetroSwift"),
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ],
            path: "Sources/Soak",
            swiftSettings: [.treatAllWarnings(as: .error)]
        ),
        // Peak memory of large transfers, one process per transfer; run by measure-memory.sh.
        .executableTarget(
            name: "memory-probe",
            dependencies: [
                .product(name: "RetroSwift", package: "RetroSwift"),
                .product(name: "RetroSwiftURLSession", package: "RetroSwift"),
                .product(name: "RetroSwiftAsyncHTTPClient", package: "RetroSwift"),
                .product(name: "RetroSwiftNIO", package: "RetroSwift"),
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                "RetroSwiftTestServer",
            ],
            path: "Sources/MemoryProbe",
            swiftSettings: [.treatAllWarnings(as: .error)]
        ),
        .executableTarget(
            name: "RetroSwiftBenchmarks",
            dependencies: [
                .product(name: "RetroSwift", package: "RetroSwift"),
                .product(name: "Benchmark", package: "package-benchmark"),
                "BenchmarkSupport",
            ],
            path: "Benchmarks/RetroSwiftBenchmarks",
            swiftSettings: [.treatAllWarnings(as: .error)],
            plugins: [.plugin(name: "BenchmarkPlugin", package: "package-benchmark")]
        ),
    ],
    swiftLanguageModes: [.v6]
)
