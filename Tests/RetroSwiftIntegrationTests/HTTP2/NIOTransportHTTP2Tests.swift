#if NIO && TransportConformance
    import Foundation
    import RetroSwift
    import RetroSwiftNIO
    import RetroSwiftTestServer
    import Testing

    /// NIOTransport's HTTP/2 beyond the conformance cases: calls multiplexed on one connection, and HTTP/1.1's
    /// connection fields never sent (RFC 9113 §8.2.2), over TLS (ALPN) and with prior knowledge.
    @Suite("End to end: NIOTransport over HTTP/2", .timeLimit(.minutes(2)))
    struct NIOTransportHTTP2Tests {
        // @unchecked Sendable: endpoint wrappers only, set up in init and never reassigned.
        final class Api: Domain, @unchecked Sendable {
            @Get("/items/{id}") var item: (ItemRequest) async throws -> HTTPResponse<Data>
            @Post("/log") var log: (LogRequest) async throws -> HTTPResponse<Data>
        }

        struct ItemRequest {
            @Path var id: String
        }

        struct LogRequest {
            /// Of unknown length: over HTTP/1.1 it goes chunked, with `Transfer-Encoding: chunked`.
            @RawBody(contentType: "text/plain") var lines = HTTPRequestBodyStream(length: nil) {
                AsyncStream<Data> { continuation in
                    for line in 0..<3 { continuation.yield(Data("line \(line)\n".utf8)) }
                    continuation.finish()
                }
            }
        }

        /// An API on a NIOTransport speaking HTTP/2 to `server`, which speaks `httpProtocol`.
        static func api(_ server: TestServer, over httpProtocol: TestServerProtocol) throws -> Api {
            let transport = NIOTransport(
                NIOTransport.Configuration(httpVersion: httpProtocol == .h2c ? .http2PriorKnowledge : .automatic))
            transport.setConfiguration(baseURL: server.baseURL, sharedHeaders: nil)
            let api = Api(transport: transport)
            if httpProtocol == .h2 {
                api.serverTrust = try ServerTrust(certificateAuthorities: [try TestServer.http2Authority.get().authority.der])
            }
            return api
        }

        @Test("a body of unknown length goes whole, with none of HTTP/1.1's connection fields", arguments: [TestServerProtocol.h2, .h2c])
        func noConnectionFields(over httpProtocol: TestServerProtocol) async throws {
            // Given
            let server = try await TestServer.$protocolUnderTest.withValue(httpProtocol) {
                try await TestServer.start { _ in .text("logged", status: 200) }
            }
            try await stopping(server) { _ in
                let api = try Self.api(server, over: httpProtocol)

                // When
                let response = try await api.log(LogRequest())

                // Then: answered at all, since the server's swift-nio-http2 refuses a stream whose HEADERS carry a
                // connection-specific field, Transfer-Encoding included (RFC 9113 §8.2.2); the server's HTTP/1-style
                // codec adds `transfer-encoding: chunked` to the head it records for a body of unknown length itself, so
                // that name is not looked for in the record.
                #expect(response.statusCode == 200)
                let request = try #require(server.requests.first)
                #expect(request.body == Data("line 0\nline 1\nline 2\n".utf8))
                let names = Set(request.headers.map { $0.name.lowercased() })
                #expect(names.isDisjoint(with: ["connection", "keep-alive", "upgrade", "proxy-connection"]))
            }
        }

        @Test("20 calls at once share one connection, each on a stream of its own", arguments: [TestServerProtocol.h2, .h2c])
        func multiplexed(over httpProtocol: TestServerProtocol) async throws {
            // Given: answers held back until all 20 requests are in, so that the calls overlap
            let server = try await TestServer.$protocolUnderTest.withValue(httpProtocol) {
                try await TestServer.start { request in
                    ScriptedResponse(body: Data(request.target.utf8), behavior: .delayed(0.3))
                }
            }
            try await stopping(server) { _ in
                let api = try Self.api(server, over: httpProtocol)
                // One call first, so that the connection is up before the others come.
                _ = try await api.item(ItemRequest(id: "first"))

                // When
                let answers = try await withThrowingTaskGroup(of: Bool.self) { group in
                    for id in 0..<20 {
                        group.addTask { try await api.item(ItemRequest(id: "\(id)")).body == Data("/items/\(id)".utf8) }
                    }
                    return try await group.reduce(into: [Bool]()) { $0.append($1) }
                }

                // Then
                #expect(answers.count == 20 && answers.allSatisfy { $0 })
                #expect(server.acceptedConnectionCount == 1)
            }
        }

        @Test("with prior knowledge, 50 calls made at once before any connection is up open one connection")
        func burstOpensOneConnection() async throws {
            // Given: answers held back a little, so that the calls overlap; no call made before
            let server = try await TestServer.$protocolUnderTest.withValue(.h2c) {
                try await TestServer.start { request in
                    ScriptedResponse(body: Data(request.target.utf8), behavior: .delayed(0.2))
                }
            }
            try await stopping(server) { _ in
                let api = try Self.api(server, over: .h2c)

                // When
                let answers = try await withThrowingTaskGroup(of: Bool.self) { group in
                    for id in 0..<50 {
                        group.addTask { try await api.item(ItemRequest(id: "\(id)")).body == Data("/items/\(id)".utf8) }
                    }
                    return try await group.reduce(into: [Bool]()) { $0.append($1) }
                }

                // Then: the connection being opened speaks HTTP/2 and takes them all (the server allows 100 streams)
                #expect(answers.count == 50 && answers.allSatisfy { $0 })
                #expect(server.acceptedConnectionCount == 1)
            }
        }
    }
#endif
