// swift-tools-version: 6.2
import PackageDescription

/// Our own targets fail the build on any warning; dependencies are not affected.
let strict: [SwiftSetting] = [.treatAllWarnings(as: .error)]

let package = Package(
    name: "RetroSwift",
    platforms: [.macOS(.v13), .iOS(.v16), .tvOS(.v16), .watchOS(.v9)],
    products: [
        .library(name: "RetroSwift", targets: ["RetroSwift"]),
        .library(name: "RetroSwiftURLSession", targets: ["RetroSwiftURLSession"]),
        .library(name: "RetroSwiftTesting", targets: ["RetroSwiftTesting"]),
        .library(name: "RetroSwiftAsyncHTTPClient", targets: ["RetroSwiftAsyncHTTPClient"]),
        .library(name: "RetroSwiftNIO", targets: ["RetroSwiftNIO"]),
        .library(name: "RetroSwiftLogging", targets: ["RetroSwiftLogging"]),
        .library(name: "RetroSwiftTracing", targets: ["RetroSwiftTracing"]),
        .library(name: "RetroSwiftMetrics", targets: ["RetroSwiftMetrics"]),
        .library(name: "RetroSwiftProtobuf", targets: ["RetroSwiftProtobuf"]),
        // For transport authors, behind the trait `TransportConformance`: its scripted server needs SwiftNIO.
        .library(name: "RetroSwiftTransportConformance", targets: ["RetroSwiftTransportConformance"]),
    ],
    traits: [
        .trait(
            name: "AsyncHTTPClient",
            description:
                "Builds RetroSwiftAsyncHTTPClient on swift-server/async-http-client (SwiftNIO); off by default so other users never fetch it."
        ),
        .trait(
            name: "NIO",
            description:
                "Builds RetroSwiftNIO's NIOTransport, RetroSwift's own transport on SwiftNIO; off by default so other users never fetch SwiftNIO."
        ),
        .trait(
            name: "SwiftLog",
            description: "Builds RetroSwiftLogging's SwiftLogInterceptor on apple/swift-log; off by default so other users never fetch it."
        ),
        .trait(
            name: "Tracing",
            description:
                "Builds RetroSwiftTracing's TracingInterceptor on apple/swift-distributed-tracing; off by default so other users never fetch it."
        ),
        .trait(
            name: "Metrics",
            description:
                "Builds RetroSwiftMetrics' MetricsInterceptor on apple/swift-metrics; off by default so other users never fetch it."
        ),
        .trait(
            name: "Protobuf",
            description:
                "Builds RetroSwiftProtobuf's Protocol Buffers converters on apple/swift-protobuf; off by default so other users never fetch it."
        ),
        .trait(
            name: "TransportConformance",
            description:
                "Builds RetroSwiftTransportConformance, the transport conformance suite, with its scripted server on SwiftNIO; off by default so other users never fetch it."
        ),
        .default(enabledTraits: []),
    ],
    dependencies: [
        .package(url: "https://github.com/swift-server/async-http-client", from: "1.37.0"),
        .package(url: "https://github.com/apple/swift-nio", from: "2.100.0"),
        .package(url: "https://github.com/apple/swift-nio-extras", from: "1.26.0"),
        // NIOTransport's HTTP/2 (its inline stream multiplexer), behind NIO; the scripted server's h2, behind
        // TransportConformance.
        .package(url: "https://github.com/apple/swift-nio-http2", from: "1.46.0"),
        // 2.34 or newer: NIOTransport verifies chains itself and reports the verified one
        // (`NIOSSLClientHandler(context:serverHostname:customVerificationCallbackWithMetadata:)`).
        .package(url: "https://github.com/apple/swift-nio-ssl", from: "2.34.0"),
        // The certificate authority and server certificates the TLS conformance cases and tests make when they run
        // (Sources/RetroSwiftTransportConformance/Server/TestCertificateAuthority.swift), behind TransportConformance;
        // and NIOTransport's verification of server chains against a domain's own authorities, behind NIO.
        .package(url: "https://github.com/apple/swift-certificates", from: "1.0.0"),
        .package(url: "https://github.com/apple/swift-crypto", "3.12.3"..<"5.0.0"),
        .package(url: "https://github.com/apple/swift-asn1", from: "1.0.0"),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.0"),
        .package(url: "https://github.com/apple/swift-distributed-tracing", from: "1.2.0"),
        .package(url: "https://github.com/apple/swift-metrics", from: "2.5.0"),
        .package(url: "https://github.com/apple/swift-protobuf", from: "1.39.0"),
        // Test-only: property-based tests of every field kind (Tests/RetroSwiftTests/Building/FieldPropertyTests.swift).
        .package(url: "https://github.com/x-sheep/swift-property-based", from: "2.0.1"),
    ],
    targets: [
        // The core reads request structs by offset; strict memory safety makes every unsafe expression visible
        // (all of them live in Reflection/UnsafeStructMemory.swift).
        .target(name: "RetroSwift", swiftSettings: strict + [.strictMemorySafety()]),
        .target(name: "RetroSwiftURLSession", dependencies: ["RetroSwift"], swiftSettings: strict),
        .target(name: "RetroSwiftTesting", dependencies: ["RetroSwift"], swiftSettings: strict),
        .target(
            name: "RetroSwiftAsyncHTTPClient",
            dependencies: [
                "RetroSwift",
                .product(name: "AsyncHTTPClient", package: "async-http-client", condition: .when(traits: ["AsyncHTTPClient"])),
                .product(name: "NIOCore", package: "swift-nio", condition: .when(traits: ["AsyncHTTPClient"])),
                .product(name: "NIOConcurrencyHelpers", package: "swift-nio", condition: .when(traits: ["AsyncHTTPClient"])),
                .product(name: "NIOPosix", package: "swift-nio", condition: .when(traits: ["AsyncHTTPClient"])),
                .product(name: "NIOHTTP1", package: "swift-nio", condition: .when(traits: ["AsyncHTTPClient"])),
                .product(name: "NIOHTTPCompression", package: "swift-nio-extras", condition: .when(traits: ["AsyncHTTPClient"])),
                .product(name: "NIOSSL", package: "swift-nio-ssl", condition: .when(traits: ["AsyncHTTPClient"])),
            ],
            swiftSettings: strict
        ),
        // RetroSwift's own transport on SwiftNIO: without the trait its sources compile to nothing and nothing is fetched.
        .target(
            name: "RetroSwiftNIO",
            dependencies: [
                "RetroSwift",
                .product(name: "NIOCore", package: "swift-nio", condition: .when(traits: ["NIO"])),
                .product(name: "NIOConcurrencyHelpers", package: "swift-nio", condition: .when(traits: ["NIO"])),
                .product(name: "NIOPosix", package: "swift-nio", condition: .when(traits: ["NIO"])),
                .product(name: "NIOHTTP1", package: "swift-nio", condition: .when(traits: ["NIO"])),
                .product(name: "NIOTLS", package: "swift-nio", condition: .when(traits: ["NIO"])),
                .product(name: "NIOHTTP2", package: "swift-nio-http2", condition: .when(traits: ["NIO"])),
                .product(name: "NIOHTTPCompression", package: "swift-nio-extras", condition: .when(traits: ["NIO"])),
                .product(name: "NIOSSL", package: "swift-nio-ssl", condition: .when(traits: ["NIO"])),
                .product(name: "X509", package: "swift-certificates", condition: .when(traits: ["NIO"])),
                .product(name: "SwiftASN1", package: "swift-asn1", condition: .when(traits: ["NIO"])),
            ],
            swiftSettings: strict
        ),
        .target(
            name: "RetroSwiftLogging",
            dependencies: ["RetroSwift", .product(name: "Logging", package: "swift-log", condition: .when(traits: ["SwiftLog"]))],
            swiftSettings: strict
        ),
        .target(
            name: "RetroSwiftTracing",
            dependencies: [
                "RetroSwift", .product(name: "Tracing", package: "swift-distributed-tracing", condition: .when(traits: ["Tracing"])),
            ],
            swiftSettings: strict
        ),
        .target(
            name: "RetroSwiftMetrics",
            dependencies: ["RetroSwift", .product(name: "Metrics", package: "swift-metrics", condition: .when(traits: ["Metrics"]))],
            swiftSettings: strict
        ),
        .target(
            name: "RetroSwiftProtobuf",
            dependencies: [
                "RetroSwift", .product(name: "SwiftProtobuf", package: "swift-protobuf", condition: .when(traits: ["Protobuf"])),
            ],
            swiftSettings: strict
        ),
        // The transport conformance suite: every case a transport must pass, run through RetroSwift against its
        // scripted HTTP server on SwiftNIO (Server/). Without the trait its sources compile to nothing and SwiftPM never
        // fetches SwiftNIO for packages that depend on RetroSwift.
        .target(
            name: "RetroSwiftTransportConformance",
            dependencies: [
                "RetroSwift",
                .product(name: "NIOCore", package: "swift-nio", condition: .when(traits: ["TransportConformance"])),
                .product(name: "NIOPosix", package: "swift-nio", condition: .when(traits: ["TransportConformance"])),
                .product(name: "NIOHTTP1", package: "swift-nio", condition: .when(traits: ["TransportConformance"])),
                .product(name: "NIOConcurrencyHelpers", package: "swift-nio", condition: .when(traits: ["TransportConformance"])),
                .product(name: "NIOSSL", package: "swift-nio-ssl", condition: .when(traits: ["TransportConformance"])),
                .product(name: "NIOHTTP2", package: "swift-nio-http2", condition: .when(traits: ["TransportConformance"])),
                .product(name: "NIOTLS", package: "swift-nio", condition: .when(traits: ["TransportConformance"])),
                .product(name: "X509", package: "swift-certificates", condition: .when(traits: ["TransportConformance"])),
                .product(name: "Crypto", package: "swift-crypto", condition: .when(traits: ["TransportConformance"])),
                .product(name: "SwiftASN1", package: "swift-asn1", condition: .when(traits: ["TransportConformance"])),
            ],
            swiftSettings: strict + [
                .define("ConformanceTLS", .when(traits: ["TransportConformance"])),
                // Its scripted server speaks HTTP/2 too (Server/TestServer+HTTP2.swift).
                .define("ConformanceHTTP2", .when(traits: ["TransportConformance"])),
            ]
        ),
        // The same sources (symlinked) compiled whatever the traits, for RetroSwift's own tests: the scripted server of
        // the end-to-end suites and the conformance suite, which a plain `swift test` then runs too. Not a product, so
        // its unconditional SwiftNIO dependency is never fetched for packages that depend on RetroSwift.
        .target(
            name: "RetroSwiftTestServer",
            dependencies: [
                "RetroSwift",
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
                // The TLS cases and their certificate authority, only in builds with the trait: builds without it (the
                // plain run, the address sanitizer's) compile no BoringSSL, of which SwiftNIO SSL and swift-crypto each
                // have a copy.
                .product(name: "NIOSSL", package: "swift-nio-ssl", condition: .when(traits: ["TransportConformance"])),
                .product(name: "NIOHTTP2", package: "swift-nio-http2", condition: .when(traits: ["TransportConformance"])),
                .product(name: "NIOTLS", package: "swift-nio", condition: .when(traits: ["TransportConformance"])),
                .product(name: "X509", package: "swift-certificates", condition: .when(traits: ["TransportConformance"])),
                .product(name: "Crypto", package: "swift-crypto", condition: .when(traits: ["TransportConformance"])),
                .product(name: "SwiftASN1", package: "swift-asn1", condition: .when(traits: ["TransportConformance"])),
            ],
            swiftSettings: strict + [
                .define("TransportConformance"), .define("ConformanceTLS", .when(traits: ["TransportConformance"])),
                .define("ConformanceHTTP2", .when(traits: ["TransportConformance"])),
            ]
        ),
        .testTarget(
            name: "RetroSwiftIntegrationTests",
            dependencies: [
                "RetroSwift", "RetroSwiftURLSession", "RetroSwiftTesting", "RetroSwiftTestServer",
                .target(name: "RetroSwiftAsyncHTTPClient", condition: .when(traits: ["AsyncHTTPClient"])),
                .product(name: "AsyncHTTPClient", package: "async-http-client", condition: .when(traits: ["AsyncHTTPClient"])),
                .target(name: "RetroSwiftNIO", condition: .when(traits: ["NIO"])),
                // NIOTransport's own tests run a server of their own (NIOTransportTests.swift).
                .product(name: "NIOCore", package: "swift-nio", condition: .when(traits: ["NIO"])),
                .product(name: "NIOPosix", package: "swift-nio", condition: .when(traits: ["NIO"])),
                .product(name: "NIOConcurrencyHelpers", package: "swift-nio", condition: .when(traits: ["NIO"])),
                .target(name: "RetroSwiftMetrics", condition: .when(traits: ["Metrics"])),
                .product(name: "MetricsTestKit", package: "swift-metrics", condition: .when(traits: ["Metrics"])),
                // The Protocol Buffers converters' tests (Protobuf/), against a Python server of PyPI's protobuf.
                .target(name: "RetroSwiftProtobuf", condition: .when(traits: ["Protobuf"])),
                .product(name: "SwiftProtobuf", package: "swift-protobuf", condition: .when(traits: ["Protobuf"])),
            ],
            swiftSettings: strict
        ),
        // Proof that the conformance suite can fail: shipped transports with one rule broken each ("mutants"), run
        // through the cases that must catch them. `@testable` RetroSwift, to break rules through request fields that are
        // `internal(set)`.
        .testTarget(
            name: "TransportConformanceMutantTests",
            dependencies: [
                "RetroSwift", "RetroSwiftURLSession", "RetroSwiftTestServer",
                // The HTTP/2 cases' mutants wrap NIOTransport (HTTP2MutantTests.swift).
                .target(name: "RetroSwiftNIO", condition: .when(traits: ["NIO"])),
                .target(name: "RetroSwiftAsyncHTTPClient", condition: .when(traits: ["AsyncHTTPClient"])),
                .product(name: "AsyncHTTPClient", package: "async-http-client", condition: .when(traits: ["AsyncHTTPClient"])),
            ],
            swiftSettings: strict
        ),
        .testTarget(
            name: "RetroSwiftTests",
            dependencies: [
                // RetroSwiftTestServer for `eventually`, the one way tests wait for another task.
                "RetroSwift", "RetroSwiftTesting", "RetroSwiftTestServer",
                .product(name: "PropertyBased", package: "swift-property-based"),
                .target(name: "RetroSwiftLogging", condition: .when(traits: ["SwiftLog"])),
                .product(name: "Logging", package: "swift-log", condition: .when(traits: ["SwiftLog"])),
                .target(name: "RetroSwiftTracing", condition: .when(traits: ["Tracing"])),
                .product(name: "Tracing", package: "swift-distributed-tracing", condition: .when(traits: ["Tracing"])),
                .product(name: "InMemoryTracing", package: "swift-distributed-tracing", condition: .when(traits: ["Tracing"])),
                .target(name: "RetroSwiftMetrics", condition: .when(traits: ["Metrics"])),
                .product(name: "Metrics", package: "swift-metrics", condition: .when(traits: ["Metrics"])),
                .product(name: "MetricsTestKit", package: "swift-metrics", condition: .when(traits: ["Metrics"])),
            ],
            // Recordings a test replays, read from the source tree by path (`.replaying("Fixtures/…")`).
            exclude: ["Mocking/Fixtures"],
            swiftSettings: strict
        ),
        // Every Swift code block of README.md and of the DocC articles, extracted from the Markdown by the
        // MarkdownSnippets plugin and compiled in each compiler configuration users write them in (CONTRIBUTING.md
        // explains the markers a fragment needs). A block that does not compile fails the build with its file and
        // line; a block that declares a `@Test` runs with `swift test`.
        snippetTarget("DocSnippetsSwift6Tests", "Swift6", [.define("SNIPPETS_SWIFT6")]),
        // Xcode 26's defaults for a new app target ("approachable concurrency").
        snippetTarget(
            "DocSnippetsMainActorDefaultTests",
            "MainActorDefault",
            [
                .define("SNIPPETS_MAIN_ACTOR_DEFAULT"),
                .defaultIsolation(MainActor.self),
                .enableUpcomingFeature("NonisolatedNonsendingByDefault"),
                .enableUpcomingFeature("InferIsolatedConformances"),
            ]
        ),
        snippetTarget(
            "DocSnippetsNonsendingTests",
            "Nonsending",
            [.define("SNIPPETS_NONSENDING"), .enableUpcomingFeature("NonisolatedNonsendingByDefault")]
        ),
        snippetTarget("DocSnippetsSwift5Tests", "Swift5", [.define("SNIPPETS_SWIFT5"), .swiftLanguageMode(.v5)]),
        .executableTarget(name: "MarkdownSnippetsTool", path: "Tools/MarkdownSnippets", swiftSettings: strict),
        .plugin(name: "MarkdownSnippets", capability: .buildTool(), dependencies: ["MarkdownSnippetsTool"]),
        .testTarget(
            // Compiles the tool's parsing file itself (a link in its folder): a test target that depends on an
            // executable a plugin also runs links the executable twice.
            name: "MarkdownSnippetsToolTests", path: "Tests/MarkdownSnippetsTool", swiftSettings: strict
        ),
    ],
    swiftLanguageModes: [.v6]
)

/// A test target that compiles the documentation's code blocks with the given settings (see the targets above).
func snippetTarget(_ name: String, _ folder: String, _ settings: [SwiftSetting]) -> Target {
    .testTarget(
        name: name,
        dependencies: [
            "RetroSwift", "RetroSwiftURLSession", "RetroSwiftTesting",
            .target(name: "RetroSwiftAsyncHTTPClient", condition: .when(traits: ["AsyncHTTPClient"])),
            .product(name: "AsyncHTTPClient", package: "async-http-client", condition: .when(traits: ["AsyncHTTPClient"])),
            .product(name: "NIOCore", package: "swift-nio", condition: .when(traits: ["AsyncHTTPClient"])),
            .product(name: "NIOPosix", package: "swift-nio", condition: .when(traits: ["AsyncHTTPClient"])),
            .target(name: "RetroSwiftNIO", condition: .when(traits: ["NIO"])),
            .target(name: "RetroSwiftLogging", condition: .when(traits: ["SwiftLog"])),
            .product(name: "Logging", package: "swift-log", condition: .when(traits: ["SwiftLog"])),
            .target(name: "RetroSwiftTracing", condition: .when(traits: ["Tracing"])),
            .product(name: "Tracing", package: "swift-distributed-tracing", condition: .when(traits: ["Tracing"])),
            .target(name: "RetroSwiftMetrics", condition: .when(traits: ["Metrics"])),
            .product(name: "Metrics", package: "swift-metrics", condition: .when(traits: ["Metrics"])),
            .target(name: "RetroSwiftTransportConformance", condition: .when(traits: ["TransportConformance"])),
        ],
        path: "Tests/DocSnippets/\(folder)",
        swiftSettings: settings,
        plugins: ["MarkdownSnippets"]
    )
}
