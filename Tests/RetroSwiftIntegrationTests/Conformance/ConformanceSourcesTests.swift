import Foundation
import Testing

/// The conformance suite is compiled twice: by the product `RetroSwiftTransportConformance` (behind its trait) and,
/// through symlinks, by the `RetroSwiftTestServer` target these tests use. A file added to one and not linked into the
/// other would be tested without shipping, or ship untested. The test server's own `Limitations/` folder, the shipped
/// transports' table of known limitations, is the one thing there that the product does not ship.
@Suite("The conformance suite's sources")
struct ConformanceSourcesTests {
    private static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()

    @Test("every Swift file of the product is linked into RetroSwiftTestServer, and nothing else is there but Limitations/")
    func everyFileIsLinked() throws {
        // Given
        let product = Self.root.appendingPathComponent("Sources/RetroSwiftTransportConformance")
        let testServer = Self.root.appendingPathComponent("Sources/RetroSwiftTestServer")
        let enumerator = try #require(FileManager.default.enumerator(atPath: product.path))
        let shipped = enumerator.compactMap { $0 as? String }.filter { $0.hasSuffix(".swift") }.sorted()

        // When
        let entries = try FileManager.default.contentsOfDirectory(atPath: testServer.path).filter { $0 != "Limitations" }
        let linked = try entries.sorted().map { name in
            (name, try FileManager.default.destinationOfSymbolicLink(atPath: testServer.appendingPathComponent(name).path))
        }

        // Then
        let expected = shipped.map { (URL(fileURLWithPath: $0).lastPathComponent, "../RetroSwiftTransportConformance/" + $0) }
            .sorted { $0.0 < $1.0 }
        #expect(linked.map { "\($0.0) -> \($0.1)" } == expected.map { "\($0.0) -> \($0.1)" })
    }
}
