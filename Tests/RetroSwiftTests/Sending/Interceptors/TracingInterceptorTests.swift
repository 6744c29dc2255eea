#if Tracing
    import Foundation
    import InMemoryTracing
    import RetroSwift
    import RetroSwiftTesting
    import RetroSwiftTracing
    import Testing
    import Tracing

    @Suite("TracingInterceptor: a client span per request, context injected into the headers")
    struct TracingInterceptorTests {
        private struct ItemRequest {
            @Path var id: Int = 7
            @Query("api_key") var apiKey: String = "query-secret"
        }

        private final class Api: Domain, @unchecked Sendable {
            @Get("/items/{id}") var item: (ItemRequest) async throws -> Empty
        }

        private static let base = URL(string: "https://api.example.com:8443/v1")!

        @Test("a span named by method and template, with OpenTelemetry HTTP client attributes, and its context sent as headers")
        func span() async throws {
            // Given
            let tracer = InMemoryTracer()
            let transport = RecordingTransport()
            transport.setConfiguration(baseURL: Self.base, sharedHeaders: nil)
            let api = Api(transport: transport)
            api.interceptors = [TracingInterceptor(tracer: tracer)]

            // When
            _ = try await api.item(ItemRequest())

            // Then
            let span = try #require(tracer.finishedSpans.first)
            #expect(tracer.finishedSpans.count == 1)
            #expect(span.operationName == "GET /items/{id}")
            #expect(span.kind == .client)
            #expect(span.attributes["http.request.method"]?.toSpanAttribute() == "GET")
            #expect(span.attributes["url.template"]?.toSpanAttribute() == "/items/{id}")
            #expect(span.attributes["url.full"]?.toSpanAttribute() == "https://api.example.com:8443/v1/items/7?api_key=<redacted>")
            #expect(span.attributes["server.address"]?.toSpanAttribute() == "api.example.com")
            #expect(span.attributes["server.port"]?.toSpanAttribute() == 8443)
            #expect(span.attributes["http.response.status_code"]?.toSpanAttribute() == 204)
            #expect(span.attributes["retroswift.endpoint"]?.toSpanAttribute() == "Api.item")
            #expect(span.status == nil)
            let sent = try #require(transport.lastRequest)
            #expect(sent.header(InMemoryTracer.traceIDKey) == span.traceID)
            #expect(sent.header(InMemoryTracer.spanIDKey) == span.spanID)
        }

        @Test("4xx, 5xx and a call with no response end in an error status; after RetryInterceptor each attempt is a span")
        func errorsAndAttempts() async throws {
            // Given
            let tracer = InMemoryTracer()
            let answers = Protected<[Result<HttpOperationResult, URLError>]>([
                .success(HttpOperationResult(statusCode: 503)), .failure(URLError(.timedOut)),
                .success(HttpOperationResult(statusCode: 404)),
            ])
            let transport = RecordingTransport { _ in try answers.mutate { $0.removeFirst() }.get() }
            let api = Api(transport: transport)
            api.interceptors = [RetryInterceptor(maxAttempts: 3, sleep: { _ in }), TracingInterceptor(tracer: tracer)]

            // When
            let error = await #expect(throws: HTTPError.self) { _ = try await api.item(ItemRequest()) }

            // Then
            #expect(error?.statusCode == 404)
            let spans = tracer.finishedSpans
            #expect(spans.count == 3)
            #expect(spans.map { $0.status?.code } == [.error, .error, .error])
            #expect(spans.map { $0.attributes["error.type"]?.toSpanAttribute() } == ["503", "URLError", "404"])
            #expect(spans[1].errors.count == 1)
            #expect(Set(spans.map(\.spanID)).count == 3)
            #expect(spans.allSatisfy { $0.attributes["url.full"] == nil })
        }
    }
#endif
