#if AsyncHTTPClient
    import AsyncHTTPClient
    import Foundation
    import RetroSwift
    @testable import RetroSwiftAsyncHTTPClient
    import RetroSwiftTestServer
    import Testing

    /// AsyncHTTPClientTransport keeps RetroSwift's redirect rules whatever client it is given: it refuses, when it is
    /// made, a client that would follow redirects itself (async-http-client decides each hop before a transport sees
    /// it), and on a client that leaves them to RetroSwift the domain's `RedirectPolicy` decides every hop.
    @Suite("AsyncHTTPClientTransport: RetroSwift's redirect rules on the app's client", .timeLimit(.minutes(2)))
    struct AsyncHTTPClientRedirectRulesTests {
        private struct KeyedRequest {
            @Header("X-Api-Key") var apiKey: String = "secret-key"
        }

        // @unchecked Sendable: the fixture adds only endpoint wrappers, set up in init and never reassigned.
        private final class Api: Domain, @unchecked Sendable {
            @Get("/away") var away: (KeyedRequest) async throws -> HTTPResponse<Empty>
        }

        private static let refusal =
            "AsyncHTTPClientTransport refuses the HTTPClient given as `client`: it follows redirects itself "
            + "(HTTPClient.shared and async-http-client's default configuration do), so the domain's RedirectPolicy would "
            + "not decide each hop and a credential header would reach another origin. Create the client from "
            + "AsyncHTTPClientTransport.clientConfiguration: `HTTPClient(eventLoopGroup: HTTPClient.defaultEventLoopGroup, "
            + "configuration: AsyncHTTPClientTransport.clientConfiguration)`, or set `redirectConfiguration = .disallow` "
            + "and `connectionPool.retryConnectionEstablishment = false` on your own `HTTPClient.Configuration`; "
            + "RetroSwift then follows redirects by the domain's RedirectPolicy."

        /// Server `origin` answers `/away` with a 302 to `other`'s `/landed`, another origin (another port); `other`
        /// answers 204. Both run for `body` and are stopped after it.
        private static func withServers(_ body: (_ origin: TestServer, _ other: TestServer) async throws -> Void) async throws {
            let other = try await TestServer.start { _ in ScriptedResponse(status: 204) }
            let landing = other.baseURL.absoluteString + "/landed"
            let origin = try await TestServer.start { request in
                request.encodedPath == "/away"
                    ? ScriptedResponse(status: 302, headers: [("Location", landing)]) : ScriptedResponse(status: 404)
            }
            do {
                try await body(origin, other)
            } catch {
                await origin.stop()
                await other.stop()
                throw error
            }
            await origin.stop()
            await other.stop()
        }

        private static func makeClient(_ redirects: HTTPClient.Configuration.RedirectConfiguration) -> HTTPClient {
            var configuration = HTTPClient.Configuration.singletonConfiguration
            configuration.redirectConfiguration = redirects
            configuration.connectionPool.retryConnectionEstablishment = false
            return HTTPClient(eventLoopGroup: HTTPClient.defaultEventLoopGroup, configuration: configuration)
        }

        @Test("a client that follows redirects is refused when the transport is made, with the way to make one it accepts")
        func followingClientsRefused() async throws {
            // Given: the shared client, one following redirects as async-http-client's default does, and one from the
            // transport's own configuration
            let following = Self.makeClient(.follow(max: 5, allowCycles: false))
            let accepted = HTTPClient(
                eventLoopGroup: HTTPClient.defaultEventLoopGroup, configuration: AsyncHTTPClientTransport.clientConfiguration)

            // When
            let shared = #expect(throws: UnsuitableClientError.self) { try AsyncHTTPClientTransport(client: .shared) }
            let followed = #expect(throws: UnsuitableClientError.self) { try AsyncHTTPClientTransport(client: following) }
            let forStreams = #expect(throws: UnsuitableClientError.self) {
                try AsyncHTTPClientTransport(client: accepted, streamingClient: following)
            }
            let transport = try AsyncHTTPClientTransport(client: accepted, streamingClient: accepted)
            try await following.shutdown()
            try await accepted.shutdown()

            // Then: async-http-client's own settings are read, so a version that moves them fails here instead of
            // letting such a client through
            #expect(shared?.kind == .followsRedirects)
            #expect(shared?.description == Self.refusal)
            #expect(followed?.kind == .followsRedirects && followed?.parameter == "client")
            #expect(forStreams?.kind == .followsRedirects && forStreams?.parameter == "streamingClient")
            #expect(transport.client === accepted)
        }

        @Test("on a client that leaves redirects to RetroSwift, a domain with .never gets the 302 as the answer")
        func neverReturnsTheRedirect() async throws {
            let client = Self.makeClient(.disallow)
            try await Self.withServers { origin, other in
                // Given
                let transport = try AsyncHTTPClientTransport(client: client)
                transport.setConfiguration(baseURL: origin.baseURL, sharedHeaders: nil)
                let api = Api(transport: transport)
                api.redirectPolicy = .never

                // When
                let response = try await api.away(KeyedRequest())

                // Then
                #expect(response.statusCode == 302)
                #expect(response.header("Location") == other.baseURL.absoluteString + "/landed")
                #expect(other.requests.isEmpty)
            }
            try await client.shutdown()
        }

        @Test("on a client that leaves redirects to RetroSwift, a declared credential header never reaches another origin")
        func credentialHeaderWithheld() async throws {
            let client = Self.makeClient(.disallow)
            try await Self.withServers { origin, other in
                // Given
                let transport = try AsyncHTTPClientTransport(client: client)
                transport.setConfiguration(baseURL: origin.baseURL, sharedHeaders: nil)
                let api = Api(transport: transport)
                api.redirectPolicy = .follow(credentialHeaders: ["X-Api-Key"])

                // When
                let response = try await api.away(KeyedRequest())

                // Then: the hop was RetroSwift's, the key went to the origin only
                #expect(response.statusCode == 204)
                #expect(origin.requests.map { $0.header("X-Api-Key") } == ["secret-key"])
                #expect(other.requests.map(\.encodedPath) == ["/landed"])
                #expect(other.requests.map { $0.header("X-Api-Key") } == [nil])
            }
            try await client.shutdown()
        }

        @Test("should a client that follows redirects get through, a hop it followed fails the call instead of answering")
        func followedHopFailsTheCall() async throws {
            let client = Self.makeClient(.follow(max: 5, allowCycles: false))
            try await Self.withServers { origin, other in
                // Given: the check made at init skipped, as a misread setting would
                let transport = AsyncHTTPClientTransport(
                    unchecked: client, streamingClient: nil, defaultTimeout: 30, temporaryDirectory: FileManager.default.temporaryDirectory)
                transport.setConfiguration(baseURL: origin.baseURL, sharedHeaders: nil)
                let api = Api(transport: transport)

                // When
                let error = await #expect(throws: RequestError.self) { _ = try await api.away(KeyedRequest()) }

                // Then
                #expect(error?.kind == .redirectRefused)
                #expect(
                    error?.description
                        == "Api.away (GET /away): the client followed a redirect itself, from '\(origin.baseURL.absoluteString)/away' "
                        + "to '\(other.baseURL.absoluteString)/landed', which AsyncHTTPClientTransport never lets it do: create "
                        + "it with redirects disallowed (AsyncHTTPClientTransport.clientConfiguration)")
                #expect((error?.underlyingError as? UnsuitableClientError)?.kind == .followsRedirects)
            }
            try await client.shutdown()
        }
    }
#endif
