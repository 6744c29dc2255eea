import Foundation
import RetroSwift
import RetroSwiftTesting
import Testing

@Suite("curl rendering of a request")
struct CurlCommandTests {
    private struct Note: Codable {
        var text: String
    }

    private struct SearchRequest {
        @Query var q: String = ""
        @Query("api_key") var apiKey: String = "k-123"
        @Header("Authorization") var authorization: String = "Bearer t0k"
        @Header("X-Trace") var trace: String = "it's"
    }

    private struct NoteRequest {
        @Header("Cookie") var cookie: String = "s=1"
        @JsonBody var note = Note(text: "it's \"quoted\"\nsecond line")
    }

    private struct UploadRequest {
        @FormParam var title: String = "@not-a-file"
        @FormFile("file") var file = .empty
    }

    private struct FileBodyRequest {
        @RawBody var file = URL(fileURLWithPath: "/")
    }

    private final class Api: Domain, @unchecked Sendable {
        @Put("/objects") var putFile: (FileBodyRequest) async throws -> Empty
        @Get("/search") var search: (SearchRequest) async throws -> Empty
        @Head("/search") var exists: () async throws -> Empty
        @Post("/notes") var create: (NoteRequest) async throws -> Empty
        @Put("/upload") var upload: (UploadRequest) async throws -> Empty
    }

    private static let base = URL(string: "https://api.example.com/v1")!

    private static func sent(
        sharedHeaders: [String: String]? = nil, _ call: (Api) async throws -> Empty
    ) async throws -> HttpRequestParams {
        let transport = RecordingTransport()
        transport.setConfiguration(baseURL: base, sharedHeaders: sharedHeaders)
        let api = Api(transport: transport)
        api.multipartBoundary = { "b" }
        _ = try await call(api)
        return try #require(transport.lastRequest)
    }

    @Test("a GET with secrets redacted by default, and shown when asked")
    func getRedacted() async throws {
        // Given
        let request = try await Self.sent(sharedHeaders: ["X-Client": "app"]) { try await $0.search(SearchRequest(q: "a b&c")) }

        // When
        let redacted = request.curlCommand(redactedHeaders: ["x-client"])
        let plain = request.curlCommand(redactingSecrets: false)

        // Then
        #expect(
            redacted
                == #"curl 'https://api.example.com/v1/search?q=a%20b%26c&api_key=<redacted>' -H 'X-Client: <redacted>' -H 'Authorization: <redacted>' -H 'X-Trace: it'\''s'"#
        )
        #expect(
            plain
                == #"curl 'https://api.example.com/v1/search?q=a%20b%26c&api_key=k-123' -H 'X-Client: app' -H 'Authorization: Bearer t0k' -H 'X-Trace: it'\''s'"#
        )
    }

    @Test("HEAD, and a JSON body as text with its quotes and newline kept")
    func headAndJSON() async throws {
        // Given
        let head = try await Self.sent { try await $0.exists() }
        let post = try await Self.sent { try await $0.create(NoteRequest()) }

        // When / Then
        #expect(head.curlCommand() == "curl --head 'https://api.example.com/v1/search'")
        #expect(
            post.curlCommand() == """
                curl -X 'POST' 'https://api.example.com/v1/notes' -H 'Cookie: <redacted>' -H 'Content-Type: application/json' \
                --data-binary '{"text":"it'\\''s \\"quoted\\"\\nsecond line"}'
                """)
    }

    @Test("multipart: text fields as --form-string (no @ or < tricks), files by path or by size, no boundary")
    func multipart() async throws {
        // Given
        let onDisk = FileManager.default.temporaryDirectory.appendingPathComponent("report's-\(UUID().uuidString).pdf")
        try Data("%PDF".utf8).write(to: onDisk)
        defer { try? FileManager.default.removeItem(at: onDisk) }
        let quotedPath = onDisk.path.replacingOccurrences(of: "'", with: #"'\''"#)
        let fromFile = try await Self.sent {
            try await $0.upload(UploadRequest(file: .init(fileName: #"r"1".pdf"#, mimeType: "application/pdf", fileURL: onDisk)))
        }
        let inMemory = try await Self.sent {
            try await $0.upload(UploadRequest(file: .init(fileName: "a.txt", mimeType: "text/plain", content: Data("hi".utf8))))
        }

        // When / Then
        #expect(
            fromFile.curlCommand()
                == "curl -X 'PUT' 'https://api.example.com/v1/upload' --form-string 'title=@not-a-file' -F 'file=@\(quotedPath)"
                + #";filename="r\"1\".pdf";type=application/pdf'"#)
        #expect(
            inMemory.curlCommand()
                == #"curl -X 'PUT' 'https://api.example.com/v1/upload' --form-string 'title=@not-a-file' -F 'file=@<2 bytes in memory>;filename="a.txt";type=text/plain'"#
        )
    }

    @Test("a @RawBody file is rendered as curl's @file, not read")
    func rawFileBody() async throws {
        // Given
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("retroswift it's-\(UUID().uuidString).png")
        try Data("PNG".utf8).write(to: url)
        defer { try? FileManager.default.removeItem(at: url) }
        let request = try await Self.sent { try await $0.putFile(FileBodyRequest(file: url)) }

        // When
        let command = request.curlCommand()

        // Then
        let quotedPath = url.path.replacingOccurrences(of: "'", with: #"'\''"#)
        #expect(command == "curl -X 'PUT' 'https://api.example.com/v1/objects' -H 'Content-Type: image/png' --data-binary '@\(quotedPath)'")
    }

    @Test("in an interceptor, the command is the resolved request: base URL, shared headers and the request's own")
    func resolvedInInterceptor() async throws {
        // Given
        struct Capture: Interceptor {
            let commands: Protected<[String]>
            func intercept(_ request: HttpRequestParams, next: InterceptorNext) async throws -> HttpOperationResult {
                commands.mutate { $0.append(request.curlCommand(redactingSecrets: false)) }
                return try await next(request)
            }
        }
        let commands = Protected<[String]>([])
        let transport = RecordingTransport()
        transport.setConfiguration(baseURL: Self.base, sharedHeaders: ["X-Client": "app"])
        let api = Api(transport: transport)
        api.interceptors = [Capture(commands: commands)]

        // When
        _ = try await api.search(SearchRequest(q: "x"))

        // Then
        #expect(
            commands.value == [
                "curl 'https://api.example.com/v1/search?q=x&api_key=k-123' -H 'X-Client: app' -H 'Authorization: Bearer t0k' "
                    + #"-H 'X-Trace: it'\''s'"#
            ])
    }
}
