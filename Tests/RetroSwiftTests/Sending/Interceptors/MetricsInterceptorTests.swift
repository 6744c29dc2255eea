#if Metrics
    import Foundation
    import Metrics
    import MetricsTestKit
    import RetroSwift
    import RetroSwiftMetrics
    import RetroSwiftTesting
    import Testing

    @Suite("MetricsInterceptor: OpenTelemetry-named durations, counts, errors, sizes and retries in swift-metrics")
    struct MetricsInterceptorTests {
        private struct NoteRequest {
            @Path var id: Int = 7
            @JsonBody var note = ["text": "hello"]
        }

        // @unchecked Sendable: endpoint wrappers only, set up in init and never reassigned.
        private final class Api: Domain, @unchecked Sendable {
            @Put("/notes/{id}") var save: (NoteRequest) async throws -> Data
        }

        private static func api(_ metrics: TestMetrics, answering answers: [Result<HttpOperationResult, URLError>]) -> Api {
            let remaining = Protected(answers)
            let api = Api(transport: RecordingTransport { _ in try remaining.mutate { $0.removeFirst() }.get() })
            api.baseURL = URL(string: "https://api.example.com:8443/v1")!
            api.interceptors = [
                RetryInterceptor(maxAttempts: 3, baseDelay: 0, maxDelay: 0), MetricsInterceptor(factory: metrics),
            ]
            return api
        }

        private static let base = [
            ("http.request.method", "PUT"), ("retroswift.endpoint", "Api.save"), ("server.address", "api.example.com"),
            ("server.port", "8443"),
        ]

        @Test("a successful call: one duration, one request counted by status, the body sizes, nothing in flight after")
        func success() async throws {
            // Given
            let metrics = TestMetrics()
            let api = Self.api(metrics, answering: [.success(.text("stored", status: 200))])

            // When
            _ = try await api.save(NoteRequest())

            // Then
            let outcome = Self.base + [("http.response.status_code", "200")]
            #expect(try metrics.expectTimer("http.client.request.duration", outcome).values.count == 1)
            #expect(try metrics.expectCounter("http.client.requests", outcome).totalValue == 1)
            #expect(try metrics.expectRecorder("http.client.request.body.size", Self.base).values == [16])
            #expect(try metrics.expectRecorder("http.client.response.body.size", outcome).values == [6])
            let active = try metrics.expectMeter("http.client.active_requests", Self.base)
            #expect(active.values == [1, 0])
            #expect(metrics.counters.allSatisfy { $0.label != "http.client.errors" && $0.label != "retroswift.client.retries" })
        }

        @Test("a 503, a timeout, then a 404: each attempt measured, two retries counted, errors by status and by type")
        func errorsAndRetries() async throws {
            // Given
            let metrics = TestMetrics()
            let api = Self.api(
                metrics,
                answering: [
                    .success(HttpOperationResult(statusCode: 503)), .failure(URLError(.timedOut)),
                    .success(HttpOperationResult(statusCode: 404)),
                ])

            // When
            await #expect(throws: HTTPError.self) { try await api.save(NoteRequest()) }

            // Then
            let unavailable = Self.base + [("http.response.status_code", "503"), ("error.type", "503")]
            let timedOut = Self.base + [("error.type", "URLError")]
            let notFound = Self.base + [("http.response.status_code", "404"), ("error.type", "404")]
            for outcome in [unavailable, timedOut, notFound] {
                #expect(try metrics.expectCounter("http.client.errors", outcome).totalValue == 1)
                #expect(try metrics.expectCounter("http.client.requests", outcome).totalValue == 1)
                #expect(try metrics.expectTimer("http.client.request.duration", outcome).values.count == 1)
            }
            #expect(try metrics.expectCounter("retroswift.client.retries", Self.base).totalValue == 2)
        }
    }
#endif
