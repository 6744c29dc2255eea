#if AsyncHTTPClient && TransportConformance
    import AsyncHTTPClient
    import Foundation
    import RetroSwift
    import RetroSwiftAsyncHTTPClient
    import RetroSwiftTestServer
    import Testing

    /// On the client the RetroSwiftAsyncHTTPClient article makes, a server whose certificate is refused fails the call
    /// at once with `.serverCertificateUntrusted`, and a client that would keep such a call waiting is refused when the
    /// transport is made.
    @Suite("AsyncHTTPClientTransport: a refused certificate fails the call at once", .timeLimit(.minutes(3)))
    struct AsyncHTTPClientRefusedCertificateTests {
        private typealias Api = ServerTrustEndToEndTests.Api
        private typealias ItemRequest = ServerTrustEndToEndTests.ItemRequest

        @Test("a client that retries connections it could not make is refused, with the way to make one it accepts")
        func retryingClientRefused() async throws {
            // Given: async-http-client's default configuration, redirects disallowed
            let client = HTTPClient(
                eventLoopGroup: HTTPClient.defaultEventLoopGroup, configuration: .init(redirectConfiguration: .disallow))

            // When
            let error = #expect(throws: UnsuitableClientError.self) { try AsyncHTTPClientTransport(client: client) }
            try await client.shutdown()

            // Then
            #expect(error?.kind == .retriesFailedConnections)
            #expect(
                error?.description
                    == "AsyncHTTPClientTransport refuses the HTTPClient given as `client`: it retries a connection that "
                    + "cannot be made (connectionPool.retryConnectionEstablishment, async-http-client's default) and keeps "
                    + "the reason from the call, so a refused certificate or connection would end the call only when its "
                    + "timeout runs out, as a timeout, not at once with its cause. Create the client from "
                    + "AsyncHTTPClientTransport.clientConfiguration: `HTTPClient(eventLoopGroup: "
                    + "HTTPClient.defaultEventLoopGroup, configuration: AsyncHTTPClientTransport.clientConfiguration)`, or "
                    + "set `redirectConfiguration = .disallow` and `connectionPool.retryConnectionEstablishment = false` on "
                    + "your own `HTTPClient.Configuration`; RetroSwift then follows redirects by the domain's RedirectPolicy.")
        }

        @Test(
            "on AsyncHTTPClientTransport.clientConfiguration, an unknown authority (the system's trust, or the domain's own of another), another host's certificate and a hop to such a server fail as untrusted, not at the timeout"
        )
        func refusedCertificateFailsAtOnce() async throws {
            // Given: the article's client; an https server whose private authority nobody trusts (neither the system
            // nor a domain trusting an unrelated authority of its own), one presenting a certificate for another host
            // from an authority the domain trusts, and a plain server redirecting to the first. The
            // transport's timeout (20 s) would end a call waiting on a client that retries as `.timedOut`, so the code
            // alone shows the call did not wait for it.
            let client = HTTPClient(
                eventLoopGroup: HTTPClient.defaultEventLoopGroup, configuration: AsyncHTTPClientTransport.clientConfiguration)
            let transport = try AsyncHTTPClientTransport(client: client, defaultTimeout: 20)
            let unknown = try TestCertificateAuthority(name: "RetroSwift unknown CA")
            let trusted = try TestCertificateAuthority(name: "RetroSwift trusted CA")
            let unknownServer = try await TestServer.start(
                tls: try unknown.issue(for: .loopback).serverTLS(), ServerTrustEndToEndTests.respond)
            let otherHostServer = try await TestServer.start(
                tls: try trusted.issue(for: .elsewhere).serverTLS(), ServerTrustEndToEndTests.respond)
            let hopTarget = unknownServer.baseURL.absoluteString + "/items/1"
            let hopServer = try await TestServer.start { _ in ScriptedResponse(status: 302, headers: [("Location", hopTarget)]) }
            let unknownApi = Api(transport: transport)
            unknownApi.baseURL = unknownServer.baseURL
            let otherHostApi = Api(transport: transport)
            otherHostApi.baseURL = otherHostServer.baseURL
            otherHostApi.serverTrust = try ServerTrust(certificateAuthorities: [trusted.der])
            let unrelatedApi = Api(transport: transport)
            unrelatedApi.baseURL = unknownServer.baseURL
            unrelatedApi.serverTrust = try ServerTrust(certificateAuthorities: [trusted.der])
            let hopApi = Api(transport: transport)
            hopApi.baseURL = hopServer.baseURL

            // When
            let inMemory = await Result { try await unknownApi.item(ItemRequest(id: "1")) }
            let toFile = await Result { try await unknownApi.download() }
            let streamed = await Result { try await unknownApi.bytes() }
            let unrelated = await Result { try await unrelatedApi.item(ItemRequest(id: "1")) }
            let otherHost = await Result { try await otherHostApi.item(ItemRequest(id: "1")) }
            let hop = await Result { try await hopApi.item(ItemRequest(id: "1")) }
            await unknownServer.stop()
            await otherHostServer.stop()
            await hopServer.stop()
            try await client.shutdown()

            // Then
            for (call, outcome) in [
                ("in memory", inMemory.map { _ in () }), ("to a file", toFile.map { _ in () }), ("streamed", streamed.map { _ in () }),
                ("trusting an unrelated authority", unrelated.map { _ in () }), ("another host", otherHost.map { _ in () }),
                ("after a hop", hop.map { _ in () }),
            ] {
                guard case .failure(let error) = outcome else {
                    Issue.record("the call \(call) succeeded")
                    continue
                }
                #expect((error as? TransportError)?.code == .serverCertificateUntrusted, "the call \(call) failed with \(error)")
            }
            #expect(unknownServer.requests.isEmpty && otherHostServer.requests.isEmpty)
            #expect(hopServer.requests.count == 1)
        }
    }
#endif
