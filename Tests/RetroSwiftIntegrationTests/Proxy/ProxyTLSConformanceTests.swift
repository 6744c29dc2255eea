#if NIO && TransportConformance
    import Foundation
    import RetroSwift
    import RetroSwiftTestServer
    import Testing

    @testable import RetroSwiftNIO

    /// Part of the transport conformance suite on `NIOTransport` through an `https://` proxy (``LocalTLSProxy``), `http`
    /// origins tunnelled too: the groups where the TLS to the proxy changes what runs beneath the exchange, the
    /// origin's TLS inside the proxy's (trust, pins, host names, client certificates) and the bytes of bodies and
    /// framing inside it. The rest of the suite runs through plain proxies (``ProxyConformanceTests``), and the TLS
    /// to the proxy changes nothing else of it; the same limitations as the plain `CONNECT` route apply.
    @Suite(
        "Transport conformance through an https:// proxy (NIOTransport)", .serialized,
        .enabled(if: LocalTLSProxy.installed, LocalTLSProxy.skipReason))
    struct ProxyTLSConformanceTests {
        /// The groups of cases run, by the start of their id.
        static let groups = ["tls/", "framing/", "body/", "response-fields/", "redirects/"]

        @Test("the TLS, framing, body, field and redirect cases through an https:// proxy", .timeLimit(.minutes(5)))
        func groupsThroughTLSProxy() async throws {
            // Given
            let only = ProcessInfo.processInfo.environment["RETROSWIFT_CONFORMANCE"]
            let authority = try TestCertificateAuthority(name: "RetroSwift TLS proxy CA")
            let proxyServer = try await LocalTLSProxy.start(presenting: try authority.issue(for: .loopback))
            try await stopping(proxyServer) { proxyServer in
                let proxies = NIOTransport.ProxySettings.all(try proxyServer.proxy(trusting: authority, tunnelsPlainHTTP: true))
                let limitations = ProxyConformanceTests.limitations(.connect)
                let notRun = ProxyConformanceTests.notRun(.connect)
                var ran = 0
                for conformanceCase in TransportConformance.cases {
                    let id = conformanceCase.id
                    guard Self.groups.contains(where: { id.hasPrefix($0) }), notRun[id] == nil else { continue }
                    if let only, !id.contains(only) { continue }
                    ran += 1

                    // When / Then
                    do {
                        try await conformanceCase.run(
                            { NIOTransport(.init(proxies: proxies)) },
                            knownLimitation: limitations[id] ?? ShippedTransport.nio.knownLimitations[id])
                    } catch {
                        Issue.record("through the https:// proxy: \(error)")
                    }
                }
                #expect(ran > 0)
            }
        }
    }
#endif
