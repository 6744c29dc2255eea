#if NIO && TransportConformance
    import Foundation
    import RetroSwift
    import RetroSwiftNIO
    import RetroSwiftTestServer
    import Testing

    /// The conformance suite's protocol dimension: every case on NIOTransport over HTTP/2, over TLS (every scripted
    /// server gets TLS and offers `h2` by ALPN) and with prior knowledge (h2c), as ``TransportConformanceTests`` runs it
    /// over HTTP/1.1, and the cases of HTTP/2 itself. The cases that read or write HTTP/1.1's own bytes cannot apply and
    /// are skipped, each with its reason (``TransportConformance/http1OnlyCases``), as are, over TLS, the two that spell
    /// their server's URL `http://`. Serialized, as the suite over HTTP/1.1 is.
    @Suite("Transport conformance over HTTP/2", .timeLimit(.minutes(6)), .serialized)
    struct HTTP2TransportConformanceTests {
        /// Cases that spell their server's address with `http://` themselves, which a server of the h2 dimension (TLS
        /// only) does not answer; they run over h2c.
        static let plainURLCases: [String: String] = [
            "url/scheme-in-capitals": "calls HTTP://127.0.0.1, spelled by the case; the h2 dimension's servers speak TLS only",
            "url/host-in-capitals-one-origin": "calls http://LOCALHOST and other spellings; the h2 dimension's servers speak TLS only",
        ]

        /// Every case that applies, with the protocol it runs over.
        static let runs: [(TestServerProtocol, TransportConformanceCase)] = [TestServerProtocol.h2, .h2c].flatMap { over in
            (TransportConformance.cases + TransportConformance.http2Cases).filter {
                TransportConformance.http1OnlyCases[$0.id] == nil && (over != .h2 || plainURLCases[$0.id] == nil)
            }.map { (over, $0) }
        }

        @Test("a case of the suite on NIOTransport over HTTP/2", arguments: runs)
        func conformance(over httpProtocol: TestServerProtocol, conformanceCase: TransportConformanceCase) async throws {
            // A debugging aid: RETROSWIFT_CONFORMANCE=framing/ runs only the cases whose id contains it.
            if let only = ProcessInfo.processInfo.environment["RETROSWIFT_CONFORMANCE"], !conformanceCase.id.contains(only) { return }
            let version: NIOTransport.HTTPVersion = httpProtocol == .h2c ? .http2PriorKnowledge : .automatic
            try await TestServer.$protocolUnderTest.withValue(httpProtocol) {
                try await conformanceCase.run(
                    { NIOTransport(NIOTransport.Configuration(httpVersion: version)) },
                    knownLimitation: ShippedTransport.nio.knownLimitations[conformanceCase.id])
            }
        }

        @Test("every case skipped over HTTP/2 exists and says why")
        func skippedCasesAreNamed() {
            // Given
            let ids = Set(TransportConformance.cases.map(\.id))
            let skipped = TransportConformance.http1OnlyCases.merging(Self.plainURLCases) { first, _ in first }

            // Then
            for (id, reason) in skipped {
                #expect(ids.contains(id), "\(id) is skipped over HTTP/2 but names no case")
                #expect(!reason.isEmpty, "\(id) is skipped over HTTP/2 without a reason")
            }
        }
    }
#endif
