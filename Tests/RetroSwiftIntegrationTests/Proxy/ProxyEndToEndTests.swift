#if NIO
    import Foundation
    import RetroSwift
    import RetroSwiftTestServer
    import Testing

    @testable import RetroSwiftNIO

    #if canImport(FoundationNetworking)
        import FoundationNetworking
    #endif

    /// `NIOTransport` through real proxies on 127.0.0.1 (``LocalProxy``: tinyproxy, microsocks): every route works, the
    /// proxy's own failures say they are the proxy's, and its credentials never reach the origin.
    @Suite("End to end: NIOTransport through proxies", .timeLimit(.minutes(3)))
    struct ProxyEndToEndTests {
        // NIOTransport's own end-to-end fixtures: an item by id, fetched and created.
        typealias Item = NIOTransportTests.Item
        typealias ItemRequest = NIOTransportTests.ItemRequest
        typealias Api = NIOTransportTests.Api

        /// The ways a call goes through a proxy.
        enum Route: String, CaseIterable, CustomStringConvertible, Sendable {
            /// tinyproxy, `http` origins through a `CONNECT` tunnel.
            case connect
            /// tinyproxy, `http` origins forwarded (absolute-form request target).
            case forward
            /// microsocks.
            case socks5

            var description: String { rawValue }
            var program: LocalProxy.Program { self == .socks5 ? .microsocks : .tinyproxy }

            func proxy(_ server: LocalProxy, username: String? = LocalProxy.username, password: String? = LocalProxy.password)
                -> NIOTransport.Proxy
            {
                var proxy = server.proxy(username: username, password: password)
                proxy.tunnelsPlainHTTP = self == .connect
                return proxy
            }
        }

        static func respond(_ request: RecordedRequest) -> ScriptedResponse {
            ScriptedResponse(
                status: 200, headers: [("Content-Type", "application/json")],
                body: Data(#"{"id":"\#(request.pathSegments.last ?? "")"}"#.utf8))
        }

        /// An API on a new `NIOTransport` with `proxies`, pointed at `baseURL`.
        static func api(_ proxies: NIOTransport.ProxySettings, _ baseURL: URL, sharedHeaders: [String: String]? = nil) -> Api {
            let transport = NIOTransport(.init(connectTimeout: .seconds(5), proxies: proxies), defaultTimeout: 20)
            transport.setConfiguration(baseURL: baseURL, sharedHeaders: sharedHeaders)
            return Api(transport: transport)
        }

        /// The proxy's error beneath a call's `TransportError`.
        static func proxyError(_ error: TransportError?) -> NIOProxyError? {
            error?.underlyingError as? NIOProxyError
        }

        @Test("under CI (RETROSWIFT_REQUIRE_PROXIES) tinyproxy and microsocks are installed, so no proxy suite is skipped")
        func installedUnderCI() {
            // Given
            let required = ProcessInfo.processInfo.environment["RETROSWIFT_REQUIRE_PROXIES"] != nil

            // Then
            #expect(!required || LocalProxy.installed, LocalProxy.skipReason)
        }

        @Test(
            "calls go through each route, and no Proxy-Authorization reaches the origin, not even one the app declared",
            .enabled(if: LocalProxy.installed, LocalProxy.skipReason), arguments: Route.allCases)
        func throughEachRoute(route: Route) async throws {
            // Given
            let proxyServer = try await LocalProxy.start(route.program)
            try await stopping(proxyServer) { proxyServer in
                let origin = try await TestServer.start(Self.respond)
                try await stopping(origin) { origin in
                    let api = Self.api(
                        .all(route.proxy(proxyServer)), origin.baseURL,
                        sharedHeaders: ["Proxy-Authorization": "Basic bGVhazpsZWFr"])

                    // When
                    let fetched = try await api.item(ItemRequest(id: "1"))
                    let created = try await api.create(ItemRequest(id: "2"))

                    // Then
                    #expect(fetched == Item(id: "1"))
                    #expect(created == Item(id: "2"))
                    #expect(origin.requests.map(\.target) == ["/items/1", "/items/2"])
                    #expect(origin.requests.allSatisfy { $0.header("Proxy-Authorization") == nil })
                }
            }
        }

        @Test(
            "no proxy credentials: the proxy's 407 or refusal, never the origin's answer",
            .enabled(if: LocalProxy.installed, LocalProxy.skipReason), arguments: Route.allCases)
        func noCredentials(route: Route) async throws {
            try await expectAuthenticationRequired(route, username: nil, password: nil)
        }

        // Not through the forward route: tinyproxy answers a forwarded request with wrong credentials by a 401 of its
        // own, which nothing tells from the origin's 401 (a forward proxy's other answers reach the app as responses).
        @Test(
            "wrong proxy credentials: the proxy's refusal, never the origin's answer, the password redacted",
            .enabled(if: LocalProxy.installed, LocalProxy.skipReason), arguments: [Route.connect, .socks5])
        func wrongCredentials(route: Route) async throws {
            try await expectAuthenticationRequired(route, username: LocalProxy.username, password: "wrong-pw-42")
        }

        func expectAuthenticationRequired(_ route: Route, username: String?, password: String?) async throws {
            // Given
            let proxyServer = try await LocalProxy.start(route.program)
            try await stopping(proxyServer) { proxyServer in
                let origin = try await TestServer.start(Self.respond)
                try await stopping(origin) { origin in
                    let api = Self.api(.all(route.proxy(proxyServer, username: username, password: password)), origin.baseURL)

                    // When
                    let error = await #expect(throws: TransportError.self) { _ = try await api.item(ItemRequest(id: "1")) }

                    // Then
                    let proxyError = try #require(Self.proxyError(error), "\(String(describing: error))")
                    #expect(proxyError.kind == .authenticationRequired)
                    if route != .socks5 { #expect(proxyError.status == (username == nil ? 407 : 401)) }
                    let scheme = route.program == .tinyproxy ? "http" : "socks5"
                    let user = username.map { "\($0):<redacted>@" } ?? ""
                    #expect(proxyError.proxy == "\(scheme)://\(user)127.0.0.1:\(proxyServer.port)")
                    #expect(error?.description.contains("wrong-pw-42") == false)
                    #expect(error?.description.contains("the proxy \(scheme)://") == true)
                    #expect(origin.requests.isEmpty)
                }
            }
        }

        @Test(
            "a proxy that cannot reach the origin refuses the tunnel, which the error says was the proxy",
            .enabled(if: LocalProxy.installed, LocalProxy.skipReason), arguments: [Route.connect, .socks5])
        func tunnelRefused(route: Route) async throws {
            // Given: an origin port nobody listens on
            let proxyServer = try await LocalProxy.start(route.program)
            try await stopping(proxyServer) { proxyServer in
                let closedPort = LocalProxy.deadPort
                let api = Self.api(.all(route.proxy(proxyServer)), URL(string: "http://127.0.0.1:\(closedPort)")!)

                // When
                let error = await #expect(throws: TransportError.self) { _ = try await api.item(ItemRequest(id: "1")) }

                // Then
                let proxyError = try #require(Self.proxyError(error), "\(String(describing: error))")
                #expect(proxyError.kind == .tunnelRefused)
                #expect(proxyError.status != nil)
                #expect(proxyError.reason.contains("127.0.0.1:\(closedPort)"))
            }
        }

        @Test("a proxy nobody listens at is unreachable, named with its password redacted", arguments: [Route.connect, .socks5])
        func proxyDown(route: Route) async throws {
            // Given
            let deadPort = LocalProxy.deadPort
            let proxy = NIOTransport.Proxy(
                route == .socks5 ? .socks5 : .http, host: "127.0.0.1", port: deadPort, username: "u", password: "hunter2")
            let origin = try await TestServer.start(Self.respond)
            try await stopping(origin) { origin in
                let api = Self.api(.all(proxy), origin.baseURL)

                // When
                let error = await #expect(throws: TransportError.self) { _ = try await api.item(ItemRequest(id: "1")) }

                // Then
                let proxyError = try #require(Self.proxyError(error), "\(String(describing: error))")
                #expect(proxyError.kind == .unreachable)
                #expect(
                    error?.description.contains("the proxy \(route == .socks5 ? "socks5" : "http")://u:<redacted>@127.0.0.1:\(deadPort)")
                        == true)
                #expect(error?.description.contains("hunter2") == false)
                #expect(origin.requests.isEmpty)
            }
        }

        @Test("NO_PROXY from the environment sends a matching host direct, and only a matching one")
        func noProxyFromEnvironment() async throws {
            // Given: a proxy that is down, so any call that goes through it fails
            let deadPort = LocalProxy.deadPort
            let origin = try await TestServer.start(Self.respond)
            try await stopping(origin) { origin in
                let direct = Self.api(
                    try .fromEnvironment(["http_proxy": "http://127.0.0.1:\(deadPort)", "NO_PROXY": "localhost, 127.0.0.0/8"]),
                    origin.baseURL)
                let proxied = Self.api(
                    try .fromEnvironment(["HTTP_PROXY": "http://127.0.0.1:\(deadPort)", "no_proxy": "localhost,127.0.0.1:1"]),
                    origin.baseURL)

                // When
                let item = try await direct.item(ItemRequest(id: "direct"))
                let error = await #expect(throws: TransportError.self) { _ = try await proxied.item(ItemRequest(id: "proxied")) }

                // Then
                #expect(item == Item(id: "direct"))
                #expect(Self.proxyError(error)?.kind == .unreachable)
                #expect(origin.requests.map(\.target) == ["/items/direct"])
            }
        }
    }
#endif
