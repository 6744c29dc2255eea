#if Metrics
    import Foundation
    import MetricsTestKit
    import RetroSwift
    import RetroSwiftMetrics
    import RetroSwiftTestServer
    import Testing

    @Suite("End to end: metrics of real exchanges on every transport", .timeLimit(.minutes(4)))
    struct MetricsEndToEndTests {
        // @unchecked Sendable: endpoint wrappers only, set up in init and never reassigned.
        private final class Api: Domain, @unchecked Sendable {
            @Get("/items") var items: () async throws -> Data
            @Get("/missing") var missing: () async throws -> Data
        }

        @Test(
            "a 200 and a 404 from the scripted server: durations, counts, sizes and the server's address", arguments: TransportKind.allCases
        )
        func realExchanges(kind: TransportKind) async throws {
            try await withServer(
                kind,
                respond: { request in
                    request.encodedPath == "/items" ? .json(#"{"items":[1,2,3]}"#) : .text("no such thing", status: 404)
                }
            ) { transport, server in
                // Given
                let metrics = TestMetrics()
                let api = Api(transport: transport)
                api.interceptors = [MetricsInterceptor(factory: metrics)]

                // When
                _ = try await api.items()
                await #expect(throws: HTTPError.self) { try await api.missing() }

                // Then
                let address = [("server.address", "127.0.0.1"), ("server.port", String(server.port))]
                let ok = [("http.request.method", "GET"), ("retroswift.endpoint", "Api.items")] + address
                let missing = [("http.request.method", "GET"), ("retroswift.endpoint", "Api.missing")] + address
                let found = ok + [("http.response.status_code", "200")]
                let notFound = missing + [("http.response.status_code", "404"), ("error.type", "404")]
                #expect(try metrics.expectCounter("http.client.requests", found).totalValue == 1)
                #expect(try metrics.expectRecorder("http.client.response.body.size", found).values == [17])
                #expect(try metrics.expectTimer("http.client.request.duration", found).values.allSatisfy { $0 > 0 })
                #expect(try metrics.expectCounter("http.client.errors", notFound).totalValue == 1)
                #expect(try metrics.expectRecorder("http.client.response.body.size", notFound).values == [13])
                #expect(try metrics.expectMeter("http.client.active_requests", ok).values == [1, 0])
            }
        }
    }
#endif
