#if NIO && TransportConformance
    import Foundation
    import RetroSwift
    import RetroSwiftTestServer
    import Testing

    @testable import RetroSwiftNIO

    /// HTTP/2 through proxies: inside a `CONNECT` or SOCKS5 tunnel the connection is the origin's, so it speaks HTTP/2
    /// as it would direct (by ALPN over TLS, with prior knowledge when asked); a forward proxy takes HTTP/1.1 only.
    @Suite(
        "End to end: NIOTransport over HTTP/2 through proxies", .timeLimit(.minutes(3)),
        .enabled(if: LocalProxy.installed, LocalProxy.skipReason))
    struct ProxyHTTP2EndToEndTests {
        typealias Api = NIOTransportHTTP2Tests.Api
        typealias ItemRequest = NIOTransportHTTP2Tests.ItemRequest

        @Test(
            "20 calls at once through a tunnel share one HTTP/2 connection to the origin",
            arguments: [ProxyEndToEndTests.Route.connect, .socks5], [TestServerProtocol.h2, .h2c])
        func multiplexedThroughTunnel(route: ProxyEndToEndTests.Route, over httpProtocol: TestServerProtocol) async throws {
            // Given: answers held back, so that the calls overlap; over HTTP/1.1 they would take eight connections
            let proxyServer = try await LocalProxy.start(route.program)
            try await stopping(proxyServer) { proxyServer in
                let origin = try await TestServer.$protocolUnderTest.withValue(httpProtocol) {
                    try await TestServer.start { request in
                        ScriptedResponse(body: Data(request.target.utf8), behavior: .delayed(0.3))
                    }
                }
                try await stopping(origin) { origin in
                    let api = try Self.api(origin, over: httpProtocol, through: route.proxy(proxyServer))
                    _ = try await api.item(ItemRequest(id: "first"))

                    // When
                    let answers = try await withThrowingTaskGroup(of: Bool.self) { group in
                        for id in 0..<20 {
                            group.addTask { try await api.item(ItemRequest(id: "\(id)")).body == Data("/items/\(id)".utf8) }
                        }
                        return try await group.reduce(into: [Bool]()) { $0.append($1) }
                    }

                    // Then: one tunnel, so one connection from the proxy to the origin
                    #expect(answers.count == 20 && answers.allSatisfy { $0 })
                    #expect(origin.acceptedConnectionCount == 1)
                    #expect(origin.requests.allSatisfy { $0.header("Proxy-Authorization") == nil })
                }
            }
        }

        @Test(
            "over HTTP/2 too, a proxy nobody listens at fails the call as the proxy's, and the origin sees nothing",
            arguments: [NIOTransport.Proxy.Kind.http, .socks5], [TestServerProtocol.h2, .h2c])
        func proxyDown(kind: NIOTransport.Proxy.Kind, over httpProtocol: TestServerProtocol) async throws {
            // Given: an origin that would answer a call that went around the proxy
            var proxy = NIOTransport.Proxy(kind, host: "127.0.0.1", port: LocalProxy.deadPort)
            proxy.tunnelsPlainHTTP = true
            let origin = try await TestServer.$protocolUnderTest.withValue(httpProtocol) {
                try await TestServer.start { request in ScriptedResponse(body: Data(request.target.utf8)) }
            }
            try await stopping(origin) { origin in
                let api = try Self.api(origin, over: httpProtocol, through: proxy)

                // When
                let error = await #expect(throws: TransportError.self) { _ = try await api.item(ItemRequest(id: "1")) }

                // Then
                #expect(ProxyEndToEndTests.proxyError(error)?.kind == .unreachable, "\(String(describing: error))")
                #expect(origin.requests.isEmpty)
                #expect(origin.acceptedConnectionCount == 0)
            }
        }

        @Test("asked for HTTP/2 with prior knowledge, a call through a forward proxy goes as HTTP/1.1 and is answered")
        func forwardProxyTakesHTTP1() async throws {
            // Given: an origin that speaks HTTP/1.1 only, as the forward proxy does
            let proxyServer = try await LocalProxy.start(.tinyproxy)
            try await stopping(proxyServer) { proxyServer in
                let origin = try await TestServer.start { request in ScriptedResponse(body: Data(request.target.utf8)) }
                try await stopping(origin) { origin in
                    let api = try Self.api(origin, over: .h2c, through: ProxyEndToEndTests.Route.forward.proxy(proxyServer))

                    // When
                    let response = try await api.item(ItemRequest(id: "forwarded"))

                    // Then
                    #expect(response.body == Data("/items/forwarded".utf8))
                    #expect(origin.requests.map(\.target) == ["/items/forwarded"])
                }
            }
        }

        /// An API on a NIOTransport speaking HTTP/2 (as `httpProtocol` says) to `server` through `proxy`.
        static func api(_ server: TestServer, over httpProtocol: TestServerProtocol, through proxy: NIOTransport.Proxy) throws -> Api {
            let transport = NIOTransport(
                NIOTransport.Configuration(
                    connectTimeout: .seconds(5), httpVersion: httpProtocol == .h2c ? .http2PriorKnowledge : .automatic,
                    proxies: .all(proxy)),
                defaultTimeout: 20)
            transport.setConfiguration(baseURL: server.baseURL, sharedHeaders: nil)
            let api = Api(transport: transport)
            if httpProtocol == .h2 {
                api.serverTrust = try ServerTrust(certificateAuthorities: [try TestServer.http2Authority.get().authority.der])
            }
            return api
        }
    }
#endif
