import Foundation
import RetroSwift
import RetroSwiftProtobuf

// The generated messages of the main package's protobuf tests (retroswift_test.pb.swift, linked here) as responses
// RetroSwift decodes.
extension Retroswift_Test_Item: ProtobufCodable {}

/// A protobuf response of 700 bytes, decoded by hand and through RetroSwift with a `ProtobufConverter` (issue 47):
/// the converters' cost beside the JSON and property-list rows. The generated types stay inside this module, so the
/// benchmarks get the two calls as closures.
public enum ProtobufFixture {
    /// An item with 12 labels, 24 tags and 256 bytes of blob: 700 bytes serialized.
    static let item: Retroswift_Test_Item = {
        var item = Retroswift_Test_Item()
        item.name = "Quarterly review"
        item.count = 12
        item.big = 9_007_199_254_740_993
        item.labels = (0..<12).map { "label-\($0)" }
        item.primary = .with {
            $0.name = "primary"
            $0.weight = 7
        }
        item.tags = (0..<24).map { index in
            .with {
                $0.name = "tag-\(index)"
                $0.weight = Int32(index)
            }
        }
        item.kind = .book
        item.blob = Data((0..<256).map { UInt8($0) })
        item.active = true
        item.price = 12.5
        return item
    }()

    /// The item's binary serialization, what the server sends.
    public static let bytes: Data = (try? item.serializedData()) ?? Data()

    /// Decodes ``bytes`` with swift-protobuf by hand, checking the result.
    public static func decodeByHand() throws {
        let decoded = try Retroswift_Test_Item(serializedBytes: bytes)
        guard decoded.tags.count == 24 else { throw CocoaError(.coderReadCorrupt) }
    }

    /// A call whose canned response is ``bytes`` as `application/x-protobuf`, through a domain whose converter is a
    /// `ProtobufConverter`; checks the result.
    public static func retroSwiftCall() -> @Sendable () async throws -> Void {
        let api = ProtobufApi(
            transport: CannedTransport(
                response: HttpOperationResult(
                    statusCode: 200, headers: ["Content-Type": "application/x-protobuf"], body: bytes)))
        api.converter = ProtobufConverter()
        return {
            let decoded = try await api.item()
            guard decoded.tags.count == 24 else { throw CocoaError(.coderReadCorrupt) }
        }
    }

    // @unchecked Sendable: endpoint wrappers only, set up in init and never reassigned.
    final class ProtobufApi: Domain, @unchecked Sendable {
        @Get("/item") var item: () async throws -> Retroswift_Test_Item
    }
}
