#if NIO && TransportConformance
    import Foundation
    import NIOConcurrencyHelpers
    import RetroSwift
    import RetroSwiftTestServer
    import Testing

    @testable import RetroSwiftNIO

    /// `NIOTransport` through an `https://` proxy (``LocalTLSProxy``: stunnel in front of tinyproxy): TLS to the proxy,
    /// verified against the proxy's own trust for its host, `CONNECT` inside it, and an `https` origin's TLS inside the
    /// tunnel (TLS in TLS), verified against the origin's chain with the domain's trust and client certificate.
    // Serialized: each test makes TLS inside TLS through stunnel, four handshakes a call; side by side under the thread
    // sanitizer they starved each other until a call passed its 20 s timeout (every test took 28–36 s in a cold CI run).
    @Suite("End to end: NIOTransport through an https:// proxy", .serialized, .timeLimit(.minutes(3)))
    struct ProxyTLSEndToEndTests {
        typealias Item = ProxyEndToEndTests.Item
        typealias ItemRequest = ProxyEndToEndTests.ItemRequest

        /// The proxy's authority, the certificate stunnel presents (for 127.0.0.1), and the origin's authority and
        /// certificate: two authorities, so that checking one's chain with the other's trust fails.
        struct Authorities {
            let proxy: TestCertificateAuthority
            let proxyCertificate: TestCertificateAuthority.IssuedCertificate
            let origin: TestCertificateAuthority
            let originCertificate: TestCertificateAuthority.IssuedCertificate

            init() throws {
                proxy = try TestCertificateAuthority(name: "RetroSwift TLS proxy CA")
                proxyCertificate = try proxy.issue(for: .loopback)
                origin = try TestCertificateAuthority(name: "RetroSwift origin CA")
                originCertificate = try origin.issue(for: .loopback)
            }

            /// An origin answering items, over TLS with ``originCertificate`` when `tls`.
            func startOrigin(tls: Bool) async throws -> TestServer {
                guard tls else { return try await TestServer.start(ProxyEndToEndTests.respond) }
                return try await TestServer.start(tls: try originCertificate.serverTLS(), ProxyEndToEndTests.respond)
            }
        }

        @Test("under CI (RETROSWIFT_REQUIRE_PROXIES) stunnel4 is installed, so the https:// proxy suite is not skipped")
        func installedUnderCI() {
            // Given
            let required = ProcessInfo.processInfo.environment["RETROSWIFT_REQUIRE_PROXIES"] != nil

            // Then
            #expect(!required || LocalTLSProxy.installed, LocalTLSProxy.skipReason)
        }

        @Test(
            "an https origin through the https:// proxy: its TLS inside the proxy's, its own chain trusted, no proxy credentials reach it",
            .enabled(if: LocalTLSProxy.installed, LocalTLSProxy.skipReason))
        func httpsOrigin() async throws {
            // Given
            let authorities = try Authorities()
            let proxyServer = try await LocalTLSProxy.start(presenting: authorities.proxyCertificate)
            try await stopping(proxyServer) { proxyServer in
                let origin = try await TestServer.start(tls: try authorities.originCertificate.serverTLS(), ProxyEndToEndTests.respond)
                try await stopping(origin) { origin in
                    let api = ProxyEndToEndTests.api(
                        .all(try proxyServer.proxy(trusting: authorities.proxy)), origin.baseURL,
                        sharedHeaders: ["Proxy-Authorization": "Basic bGVhazpsZWFr"])
                    api.serverTrust = try ServerTrust(
                        certificateAuthorities: [authorities.origin.der], pinnedPublicKeys: [authorities.originCertificate.pin])

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
            "HTTP/2 by ALPN inside the tunnel of an https:// proxy: 20 calls at once share one connection to the origin",
            .enabled(if: LocalTLSProxy.installed, LocalTLSProxy.skipReason))
        func http2InsideTLSProxy() async throws {
            // Given: answers held back, so that the calls overlap; over HTTP/1.1 they would take eight connections
            let authorities = try Authorities()
            let proxyServer = try await LocalTLSProxy.start(presenting: authorities.proxyCertificate)
            try await stopping(proxyServer) { proxyServer in
                let origin = try await TestServer.$protocolUnderTest.withValue(.h2) {
                    try await TestServer.start { request in
                        ScriptedResponse(body: Data(request.target.utf8), behavior: .delayed(0.3))
                    }
                }
                try await stopping(origin) { origin in
                    let api = try ProxyHTTP2EndToEndTests.api(
                        origin, over: .h2, through: try proxyServer.proxy(trusting: authorities.proxy))
                    _ = try await api.item(NIOTransportHTTP2Tests.ItemRequest(id: "first"))

                    // When
                    let answers = try await withThrowingTaskGroup(of: Bool.self) { group in
                        for id in 0..<20 {
                            group.addTask {
                                try await api.item(NIOTransportHTTP2Tests.ItemRequest(id: "\(id)")).body == Data("/items/\(id)".utf8)
                            }
                        }
                        return try await group.reduce(into: [Bool]()) { $0.append($1) }
                    }

                    // Then
                    #expect(answers.count == 20 && answers.allSatisfy { $0 })
                    #expect(origin.acceptedConnectionCount == 1)
                    #expect(origin.requests.allSatisfy { $0.header("Proxy-Authorization") == nil })
                }
            }
        }

        @Test(
            "an http origin through the https:// proxy, forwarded or tunnelled, inside the TLS to the proxy",
            .enabled(if: LocalTLSProxy.installed, LocalTLSProxy.skipReason), arguments: [false, true])
        func httpOrigin(tunnelled: Bool) async throws {
            // Given
            let authorities = try Authorities()
            let proxyServer = try await LocalTLSProxy.start(presenting: authorities.proxyCertificate)
            try await stopping(proxyServer) { proxyServer in
                let origin = try await TestServer.start(ProxyEndToEndTests.respond)
                try await stopping(origin) { origin in
                    let proxy = try proxyServer.proxy(trusting: authorities.proxy, tunnelsPlainHTTP: tunnelled)
                    let api = ProxyEndToEndTests.api(.all(proxy), origin.baseURL)

                    // When
                    let fetched = try await api.item(ItemRequest(id: "plain"))

                    // Then
                    #expect(fetched == Item(id: "plain"))
                    #expect(origin.requests.map(\.target) == ["/items/plain"])
                    #expect(origin.requests.allSatisfy { $0.header("Proxy-Authorization") == nil })
                }
            }
        }

        @Test(
            "no proxy credentials: the https:// proxy's 407, for a tunnel or a forwarded request, never the origin's answer",
            .enabled(if: LocalTLSProxy.installed, LocalTLSProxy.skipReason), arguments: [false, true])
        func noCredentials(httpsOrigin: Bool) async throws {
            // Given
            let authorities = try Authorities()
            let proxyServer = try await LocalTLSProxy.start(presenting: authorities.proxyCertificate)
            try await stopping(proxyServer) { proxyServer in
                let origin = try await authorities.startOrigin(tls: httpsOrigin)
                try await stopping(origin) { origin in
                    let api = ProxyEndToEndTests.api(
                        .all(try proxyServer.proxy(trusting: authorities.proxy, username: nil, password: nil)), origin.baseURL)
                    api.serverTrust = try ServerTrust(certificateAuthorities: [authorities.origin.der])

                    // When
                    let error = await #expect(throws: TransportError.self) { _ = try await api.item(ItemRequest(id: "1")) }

                    // Then
                    let proxyError = try #require(ProxyEndToEndTests.proxyError(error), "\(String(describing: error))")
                    #expect(proxyError.kind == .authenticationRequired)
                    #expect(proxyError.status == 407)
                    #expect(proxyError.proxy == "https://127.0.0.1:\(proxyServer.port)")
                    #expect(origin.requests.isEmpty)
                }
            }
        }

        @Test(
            "wrong proxy credentials through an https:// proxy: its refusal, the password redacted",
            .enabled(if: LocalTLSProxy.installed, LocalTLSProxy.skipReason))
        func wrongCredentials() async throws {
            // Given
            let authorities = try Authorities()
            let proxyServer = try await LocalTLSProxy.start(presenting: authorities.proxyCertificate)
            try await stopping(proxyServer) { proxyServer in
                let origin = try await TestServer.start(tls: try authorities.originCertificate.serverTLS(), ProxyEndToEndTests.respond)
                try await stopping(origin) { origin in
                    let proxy = try proxyServer.proxy(trusting: authorities.proxy, password: "wrong-pw-42")
                    let api = ProxyEndToEndTests.api(.all(proxy), origin.baseURL)
                    api.serverTrust = try ServerTrust(certificateAuthorities: [authorities.origin.der])

                    // When
                    let error = await #expect(throws: TransportError.self) { _ = try await api.item(ItemRequest(id: "1")) }

                    // Then
                    let proxyError = try #require(ProxyEndToEndTests.proxyError(error), "\(String(describing: error))")
                    #expect(proxyError.kind == .authenticationRequired)
                    #expect(error?.description.contains("the proxy https://retro:<redacted>@127.0.0.1:\(proxyServer.port)") == true)
                    #expect(error?.description.contains("wrong-pw-42") == false)
                    #expect(origin.requests.isEmpty)
                }
            }
        }

        /// How the proxy's certificate is wrong.
        enum WrongProxyCertificate: String, CaseIterable, CustomStringConvertible {
            /// Issued by an authority the proxy's trust does not hold.
            case unknownAuthority
            /// Issued by the trusted authority, for another host than the proxy's.
            case otherHost
            var description: String { rawValue }
        }

        @Test(
            "a proxy certificate not trusted fails the call as the proxy's certificate, not the origin's, before anything is sent",
            .enabled(if: LocalTLSProxy.installed, LocalTLSProxy.skipReason),
            arguments: WrongProxyCertificate.allCases, [false, true])
        func untrustedProxyCertificate(wrong: WrongProxyCertificate, httpsOrigin: Bool) async throws {
            // Given: an origin the domain trusts, reached through a proxy whose certificate is wrong
            let authorities = try Authorities()
            let presented =
                switch wrong {
                case .unknownAuthority: try TestCertificateAuthority(name: "RetroSwift unrelated CA").issue(for: .loopback)
                case .otherHost: try authorities.proxy.issue(for: .elsewhere)
                }
            let proxyServer = try await LocalTLSProxy.start(presenting: presented)
            try await stopping(proxyServer) { proxyServer in
                let origin = try await authorities.startOrigin(tls: httpsOrigin)
                try await stopping(origin) { origin in
                    let api = ProxyEndToEndTests.api(.all(try proxyServer.proxy(trusting: authorities.proxy)), origin.baseURL)
                    api.serverTrust = try ServerTrust(certificateAuthorities: [authorities.origin.der])

                    // When
                    let error = await #expect(throws: TransportError.self) { _ = try await api.item(ItemRequest(id: "1")) }

                    // Then
                    let proxyError = try #require(ProxyEndToEndTests.proxyError(error), "\(String(describing: error))")
                    #expect(proxyError.kind == .untrustedCertificate)
                    #expect(error?.code == nil, "not the origin's URLError(.serverCertificateUntrusted)")
                    #expect(error?.description.contains("the proxy https://retro:<redacted>@127.0.0.1:\(proxyServer.port)") == true)
                    #expect(error?.description.contains("the proxy's own certificate") == true)
                    #expect(error?.description.contains(LocalProxy.password) == false)
                    #expect(origin.requests.isEmpty)
                    #expect(origin.acceptedConnectionCount == 0)
                }
            }
        }

        @Test(
            "the origin's authority and pins are checked against the origin's chain inside the https:// proxy's tunnel",
            .enabled(if: LocalTLSProxy.installed, LocalTLSProxy.skipReason))
        func originTrustThroughTLSTunnel() async throws {
            // Given
            let authorities = try Authorities()
            let other = try TestCertificateAuthority(name: "RetroSwift unrelated CA")
            let proxyServer = try await LocalTLSProxy.start(presenting: authorities.proxyCertificate)
            try await stopping(proxyServer) { proxyServer in
                let origin = try await TestServer.start(tls: try authorities.originCertificate.serverTLS(), ProxyEndToEndTests.respond)
                try await stopping(origin) { origin in
                    let proxies = NIOTransport.ProxySettings.all(try proxyServer.proxy(trusting: authorities.proxy))
                    let wrongPin = ProxyEndToEndTests.api(proxies, origin.baseURL)
                    let proxyAuthorityOnly = ProxyEndToEndTests.api(proxies, origin.baseURL)
                    wrongPin.serverTrust = try ServerTrust(
                        certificateAuthorities: [authorities.origin.der], pinnedPublicKeys: [other.pin])
                    // The proxy's authority, which the origin's chain does not lead to.
                    proxyAuthorityOnly.serverTrust = try ServerTrust(certificateAuthorities: [authorities.proxy.der])

                    // When
                    let pinError = await #expect(throws: TransportError.self) {
                        _ = try await wrongPin.item(ItemRequest(id: "pin"))
                    }
                    let authorityError = await #expect(throws: TransportError.self) {
                        _ = try await proxyAuthorityOnly.item(ItemRequest(id: "ca"))
                    }

                    // Then: the origin's refusal, not the proxy's
                    #expect(pinError?.code == .serverCertificateUntrusted, "\(String(describing: pinError))")
                    #expect(authorityError?.code == .serverCertificateUntrusted, "\(String(describing: authorityError))")
                    #expect(origin.requests.isEmpty)
                }
            }
        }

        @Test(
            "the domain's client certificate reaches the origin through the https:// proxy, and is never presented to the proxy",
            .enabled(if: LocalTLSProxy.installed, LocalTLSProxy.skipReason))
        func clientIdentityToOriginOnly() async throws {
            // Given: an origin requiring the domain's client certificate; one proxy asking for none, and one requiring a
            // certificate from the same authority, which admits only a client that presents the domain's to it
            let authorities = try Authorities()
            let clients = try TestCertificateAuthority(name: "RetroSwift client CA")
            let client = try clients.issueClientCertificate(named: "alice")
            let presentedToOrigin = NIOLockedValueBox<[String]>([])
            let openProxy = try await LocalTLSProxy.start(presenting: authorities.proxyCertificate)
            try await stopping(openProxy) { openProxy in
                let strictProxy = try await LocalTLSProxy.start(
                    presenting: authorities.proxyCertificate, requiringClientCertificatesFrom: clients)
                try await stopping(strictProxy) { strictProxy in
                    let tls = try authorities.originCertificate.serverTLS(requiringClientCertificatesFrom: clients) { pin in
                        presentedToOrigin.withLockedValue { $0.append(pin) }
                    }
                    let origin = try await TestServer.start(tls: tls, ProxyEndToEndTests.respond)
                    try await stopping(origin) { origin in
                        let identity = try ClientIdentity(certificateChainPEM: client.certificatePEM, privateKeyPEM: client.privateKeyPEM)
                        let throughOpen = ProxyEndToEndTests.api(.all(try openProxy.proxy(trusting: authorities.proxy)), origin.baseURL)
                        let throughStrict = ProxyEndToEndTests.api(.all(try strictProxy.proxy(trusting: authorities.proxy)), origin.baseURL)
                        for api in [throughOpen, throughStrict] {
                            api.serverTrust = try ServerTrust(certificateAuthorities: [authorities.origin.der])
                            api.clientIdentity = identity
                        }

                        // When
                        let item = try await throughOpen.item(ItemRequest(id: "mtls"))
                        let error = await #expect(throws: TransportError.self) {
                            _ = try await throughStrict.item(ItemRequest(id: "strict"))
                        }

                        // Then
                        #expect(item == Item(id: "mtls"))
                        #expect(presentedToOrigin.withLockedValue { $0 } == [client.pin])
                        #expect(ProxyEndToEndTests.proxyError(error) != nil, "the proxy's failure: \(String(describing: error))")
                        #expect(origin.requests.map(\.target) == ["/items/mtls"])
                    }
                }
            }
        }
    }
#endif
