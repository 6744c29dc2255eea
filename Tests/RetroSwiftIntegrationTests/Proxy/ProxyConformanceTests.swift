#if NIO
    import Foundation
    import RetroSwift
    import RetroSwiftTestServer
    import Testing

    @testable import RetroSwiftNIO

    /// The whole transport conformance suite on `NIOTransport` through each kind of proxy, started for the test: every
    /// case must pass as it does direct (NIOTransport's own known limitations apply), but those listed in
    /// ``limitations`` with the reason the proxy changes them. One test per route, the cases in turn, so one proxy
    /// process serves them all.
    ///
    /// `RETROSWIFT_PROXY_CONFORMANCE=subset` leaves out the cases whose id starts with one of ``leftOutOfSubset``, which
    /// move megabytes at a set pace or hold servers silent: what the sanitized CI run asks for, to keep its time.
    @Suite("Transport conformance through proxies (NIOTransport)", .serialized, .enabled(if: LocalProxy.installed, LocalProxy.skipReason))
    struct ProxyConformanceTests {
        /// The cases a proxy cannot pass as a direct connection does, by route, with the failure they give.
        static func limitations(_ route: ProxyEndToEndTests.Route) -> [String: TransportLimitation] {
            switch route {
            case .connect, .socks5:
                return [
                    "connection/refused": .differs(
                        "the proxy, not the transport, connects to the origin: its refusal is a NIOProxyError naming the "
                            + "proxy (as it must be), not URLError(.cannotConnectToHost)",
                        failure: "refused to open a tunnel to 127.0.0.1:")
                ]
            case .forward:
                // tinyproxy forwards a response as it reads it, not byte for byte: it keeps one of repeated fields,
                // re-frames bodies, and closes its connection to the client after each exchange.
                let rewrites = "tinyproxy rewrites the response head it forwards"
                return [
                    "connection/refused": .differs(
                        "a forward proxy answers for an origin it cannot reach with a response of its own (tinyproxy's 500 "
                            + "page), which nothing tells from the origin's",
                        failure: "got HTTPError 500"),
                    "response-fields/repeats-combined": .differs(rewrites, failure: #"headers["X-Foo"] is Optional("a")"#),
                    "response-fields/repeats-kept-apart": .differs(rewrites, failure: #"values(for: "x-foo") is ["a"]"#),
                    "response-fields/names-differing-in-case": .differs(rewrites, failure: #"headers["X-Foo"] is Optional("0")"#),
                    "response-fields/set-cookie-never-combined": .differs(rewrites, failure: #"values(for: "Set-Cookie") is ["#),
                    "framing/conflicting-content-length": .differs(rewrites, failure: "expected an error, but the call returned"),
                    "framing/lf-line-ends": .differs(rewrites, failure: "expected an error, but the call returned"),
                    "connection/keep-alive-reused": .differs(
                        "tinyproxy closes its connection to the client after each exchange", failure: "300 sequential calls opened 300"),
                    "url/host-in-capitals-one-origin": .differs(
                        "tinyproxy closes its connection to the client after each exchange", failure: "took 9 connections"),
                ]
            }
        }

        /// Cases not run through a route, with why: their outcome depends on a race the proxy brings.
        static func notRun(_ route: ProxyEndToEndTests.Route) -> [String: String] {
            // A relay reads the upload into its own buffers, so the pace the server reads at is not the transport's
            // (it failed once through microsocks, at 3.9 s of its 2 s silence).
            let paced = "the proxy reads the upload into its own buffers, so its pace is not the server's"
            guard route == .forward else { return ["timeout/steady-upload-completes": paced] }
            let closes =
                "tinyproxy closes its connection to the client after each exchange without saying so, so a POST sent on it "
                + "as it closes is lost (and, rightly, never sent again)"
            return [
                "connection/keep-alive-after-uploads": closes,
                "connection/post-on-reused-connection-not-resent": closes,
                "redirects/temporary-keeps-method-and-body": closes,
                "redirects/permanent-keeps-method-and-body": closes,
                "timeout/steady-upload-completes": paced,
            ]
        }

        /// The groups of cases the sanitized run does not send through proxies.
        static let leftOutOfSubset = ["timeout/", "timing/"]

        @Test("every case of the suite through a proxy", .timeLimit(.minutes(10)), arguments: ProxyEndToEndTests.Route.allCases)
        func wholeSuite(route: ProxyEndToEndTests.Route) async throws {
            // Given
            let environment = ProcessInfo.processInfo.environment
            let only = environment["RETROSWIFT_CONFORMANCE"]
            let onlySubset = environment["RETROSWIFT_PROXY_CONFORMANCE"] == "subset"
            let proxyServer = try await LocalProxy.start(route.program)
            try await stopping(proxyServer) { proxyServer in
                let proxies = NIOTransport.ProxySettings.all(route.proxy(proxyServer))
                let limitations = Self.limitations(route)
                var ran = 0
                for conformanceCase in TransportConformance.cases {
                    if let only, !conformanceCase.id.contains(only) { continue }
                    if onlySubset, Self.leftOutOfSubset.contains(where: { conformanceCase.id.hasPrefix($0) }) { continue }
                    if Self.notRun(route)[conformanceCase.id] != nil { continue }
                    ran += 1

                    // When / Then
                    do {
                        try await conformanceCase.run(
                            { NIOTransport(.init(proxies: proxies)) },
                            knownLimitation: limitations[conformanceCase.id] ?? ShippedTransport.nio.knownLimitations[conformanceCase.id])
                    } catch {
                        Issue.record("through \(route): \(error)")
                    }
                }
                #expect(ran > 0)
            }
        }
    }
#endif
