#if Protobuf
    import Foundation
    import RetroSwiftProtobuf

    // The generated messages (retroswift_test.pb.swift) become bodies and responses RetroSwift accepts.
    extension Retroswift_Test_Item: ProtobufCodable {}
    extension Retroswift_Test_Receipt: ProtobufCodable {}
    extension Retroswift_Test_Problem: ProtobufCodable {}

    /// The Python server of PyPI's `protobuf` (Tests/Servers/protobuf_server.py), which `.ci/run` starts and names in
    /// `RETROSWIFT_PROTOBUF_URL`. Without it the end-to-end suite is skipped, saying so, unless
    /// `RETROSWIFT_REQUIRE_PROTOBUF=1` (set by `.ci/run`) makes its absence a failure.
    enum ProtobufServer {
        static let url: URL? = ProcessInfo.processInfo.environment["RETROSWIFT_PROTOBUF_URL"].flatMap(URL.init(string:))

        static var isRequired: Bool { ProcessInfo.processInfo.environment["RETROSWIFT_REQUIRE_PROTOBUF"] == "1" }

        /// Runs the suite when the server is configured, or when it is required (where a missing server must fail).
        static var enabled: Bool { url != nil || isRequired }

        static func baseURL() throws -> URL {
            guard let url else {
                throw MissingServer(
                    description: "the protobuf server is not running: .ci/run starts it and sets RETROSWIFT_PROTOBUF_URL")
            }
            return url
        }

        struct MissingServer: Error, CustomStringConvertible {
            let description: String
        }
    }

    extension Retroswift_Test_Item {
        /// An item with a field of every kind set, non-ASCII text and bytes of every value included.
        static let sample: Self = {
            var item = Retroswift_Test_Item()
            item.name = "héllo ✓ & more"
            item.count = -42
            item.big = 9_007_199_254_740_993  // above 2^53: lost if anything on the way went through a Double
            item.labels = ["a", "", "ü"]
            item.primary.name = "first"
            item.primary.weight = 7
            item.tags = [.with { $0.name = "x" }, .with { $0.weight = 2 }]
            item.kind = .book
            item.blob = Data((0...255).map { UInt8($0) })
            item.active = true
            item.price = 12.5
            return item
        }()
    }
#endif
