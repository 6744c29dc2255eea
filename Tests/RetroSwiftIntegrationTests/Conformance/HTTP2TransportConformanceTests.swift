#if NIO && TransportConformance
    import Foundation
    import RetroSwift
    import RetroSwiftNIO
    import RetroSwiftTestServer
    import Testing

    #if AsyncHTTPClient
        import RetroSwiftAsyncHTTPClient
    #endif

    /// The conformance suite's protocol dimension: every case on NIOTransport over HTTP/2, over TLS (every scripted
    /// server gets TLS and offers `h2` by ALPN) and with prior knowledge (h2c), as ``TransportConformanceTests`` runs it
    /// over HTTP/1.1, and the cases of HTTP/2 itself; and the same over TLS on AsyncHTTPClientTransport, whose client
    /// negotiates `h2` by ALPN as an app's does (it has no prior knowledge), with what async-http-client's HTTP/2 does
    /// not do in its known limitations. The cases that read or write HTTP/1.1's own bytes cannot apply and are skipped,
    /// each with its reason (``TransportConformance/http1OnlyCases``), as are, over TLS, the two that spell their
    /// server's URL `http://`. Serialized, as the suite over HTTP/1.1 is.
    @Suite("Transport conformance over HTTP/2", .timeLimit(.minutes(6)), .serialized)
    struct HTTP2TransportConformanceTests {
        /// Cases that spell their server's address with `http://` themselves, which a server of the h2 dimension (TLS
        /// only) does not answer; they run over h2c.
        static let plainURLCases: [String: String] = [
            "url/scheme-in-capitals": "calls HTTP://127.0.0.1, spelled by the case; the h2 dimension's servers speak TLS only",
            "url/host-in-capitals-one-origin": "calls http://LOCALHOST and other spellings; the h2 dimension's servers speak TLS only",
        ]

        /// A transport and the protocol it speaks HTTP/2 by.
        enum Run: String, CustomStringConvertible, Sendable {
            case nioOverTLS = "NIOTransport over h2"
            case nioWithPriorKnowledge = "NIOTransport over h2c"
            #if AsyncHTTPClient
                case asyncHTTPClientOverTLS = "AsyncHTTPClientTransport over h2"
            #endif

            var description: String { rawValue }

            var httpProtocol: TestServerProtocol { self == .nioWithPriorKnowledge ? .h2c : .h2 }

            var shipped: ShippedTransport {
                #if AsyncHTTPClient
                    if self == .asyncHTTPClientOverTLS { return .asyncHTTPClient }
                #endif
                return .nio
            }

            func makeTransport() -> any HttpTransport {
                switch self {
                case .nioOverTLS: NIOTransport(NIOTransport.Configuration(httpVersion: .automatic))
                case .nioWithPriorKnowledge: NIOTransport(NIOTransport.Configuration(httpVersion: .http2PriorKnowledge))
                #if AsyncHTTPClient
                    // The suite's client, as an app configures one (HTTP/2 whenever the server offers it by ALPN),
                    // alone: over HTTP/2 an open stream holds no connection, so streams need no client of their own.
                    case .asyncHTTPClientOverTLS: try! AsyncHTTPClientTransport(client: TransportKind.client)
                #endif
                }
            }
        }

        /// Every case that applies, with the transport and protocol it runs over.
        static let runs: [(Run, TransportConformanceCase)] = {
            var over: [Run] = [.nioOverTLS, .nioWithPriorKnowledge]
            #if AsyncHTTPClient
                over.append(.asyncHTTPClientOverTLS)
            #endif
            return over.flatMap { run in
                (TransportConformance.cases + TransportConformance.http2Cases).filter {
                    TransportConformance.http1OnlyCases[$0.id] == nil
                        && (run.httpProtocol != .h2 || plainURLCases[$0.id] == nil)
                }.map { (run, $0) }
            }
        }()

        @Test("a case of the suite over HTTP/2", arguments: runs)
        func conformance(over run: Run, conformanceCase: TransportConformanceCase) async throws {
            // A debugging aid: RETROSWIFT_CONFORMANCE=framing/ runs only the cases whose id contains it.
            if let only = ProcessInfo.processInfo.environment["RETROSWIFT_CONFORMANCE"], !conformanceCase.id.contains(only) { return }
            try await TestServer.$protocolUnderTest.withValue(run.httpProtocol) {
                try await conformanceCase.run(
                    { run.makeTransport() }, knownLimitation: run.shipped.knownLimitations[conformanceCase.id])
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
