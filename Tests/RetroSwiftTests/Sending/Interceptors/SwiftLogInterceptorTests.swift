#if SwiftLog
    import Foundation
    import Logging
    import RetroSwift
    import RetroSwiftLogging
    import RetroSwiftTesting
    import Testing

    @Suite("SwiftLogInterceptor writes redacted records to a swift-log Logger")
    struct SwiftLogInterceptorTests {
        /// One record as a LogHandler received it.
        struct Record: Sendable {
            var level: Logger.Level
            var message: String
            var metadata: [String: String]
        }

        /// Keeps every record, for the test to read.
        struct RecordingLogHandler: LogHandler {
            let records: Protected<[Record]>
            var metadata: Logger.Metadata = [:]
            var logLevel: Logger.Level = .trace

            subscript(metadataKey key: String) -> Logger.Metadata.Value? {
                get { metadata[key] }
                set { metadata[key] = newValue }
            }

            func log(event: LogEvent) {
                let flat = (event.metadata ?? [:]).mapValues { "\($0)" }
                records.mutate { $0.append(Record(level: event.level, message: "\(event.message)", metadata: flat)) }
            }
        }

        private struct SearchRequest {
            @Query var q: String = "swift"
            @Query("api_key") var apiKey: String = "query-secret"
            @Header("Authorization") var authorization: String = "Bearer header-secret"
            @Header("X-Api-Key") var key: String = "key-secret"
        }

        private final class Api: Domain, @unchecked Sendable {
            @Get("/search") var search: (SearchRequest) async throws -> Empty
        }

        private static func logger(_ records: Protected<[Record]>) -> Logger {
            Logger(label: "test") { _ in RecordingLogHandler(records: records) }
        }

        @Test("a call is one record at the given level, with method, target, status, duration and endpoint, and no secret")
        func success() async throws {
            // Given
            let records = Protected<[Record]>([])
            let api = Api(transport: RecordingTransport { _ in .json("{}", headers: ["Set-Cookie": "s=cookie-secret"]) })
            api.interceptors = [SwiftLogInterceptor(logger: Self.logger(records), level: .debug, redacting: ["X-Api-Key"])]

            // When
            _ = try await api.search(SearchRequest())

            // Then
            let record = try #require(records.value.first)
            #expect(records.value.count == 1)
            #expect(record.level == .debug)
            #expect(record.message.hasPrefix("GET /search?q=swift&api_key=<redacted> -> 200 ("))
            #expect(record.metadata["http.request.method"] == "GET")
            #expect(record.metadata["http.target"] == "/search?q=swift&api_key=<redacted>")
            #expect(record.metadata["http.response.status_code"] == "200")
            #expect(record.metadata["retroswift.endpoint"] == "Api.search")
            #expect(record.metadata["duration_ms"].flatMap(Int.init) != nil)
            #expect(!"\(record)".contains("secret"))
        }

        @Test("a 5xx answer and a call with no response are logged at the error level, the failure named")
        func failures() async throws {
            // Given
            let records = Protected<[Record]>([])
            let failing = Protected(false)
            let api = Api(
                transport: RecordingTransport { _ in
                    if failing.value { throw URLError(.timedOut) }
                    return .text("down", status: 503)
                })
            api.interceptors = [SwiftLogInterceptor(logger: Self.logger(records))]

            // When
            await #expect(throws: HTTPError.self) { _ = try await api.search(SearchRequest()) }
            failing.mutate { $0 = true }
            await #expect(throws: TransportError.self) { _ = try await api.search(SearchRequest()) }

            // Then
            #expect(records.value.map(\.level) == [.error, .error])
            #expect(records.value[0].metadata["http.response.status_code"] == "503")
            #expect(records.value[1].metadata["http.response.status_code"] == nil)
            #expect(records.value[1].metadata["error"] != nil)
        }
    }
#endif
