import Foundation
import RetroSwift
import RetroSwiftTestServer
import Testing

@Suite("End to end: the wire", .timeLimit(.minutes(4)))
struct WireEndToEndTests {
    private enum Sort: String {
        case newest = "new est"
    }

    private struct Note: Codable, Equatable {
        var text: String
        var at: Date
    }

    private struct LookupRequest {
        @Path("item_id") var itemId: String = ""
        @Query var text: String = ""
        @Query("tag") var tags: [String] = []
        @Query var page: Int? = nil
        @Query var since: Date? = nil
        @Query var archived: Bool = false
        @Query var sort: Sort = .newest
        @Header("X-Account-Id") var accountId: String = ""
        @Header("X-Optional") var optional: String? = nil
    }

    private struct FormRequest {
        @FormParam var user: String = ""
        @FormParam("pass word") var password: String = ""
        @FormParam var scopes: [String] = []
    }

    private struct UploadRequest {
        @FormParam("model_id") var modelId: String = ""
        @FormFile("file") var file = .empty
    }

    private struct NoteRequest {
        @JsonBody var note: Note
    }

    private struct LogRequest {
        @RawBody(contentType: "text/plain") var lines = HTTPRequestBodyStream(length: nil) { AsyncStream<Data> { $0.finish() } }
    }

    // @unchecked Sendable: the fixture adds only endpoint wrappers, set up in init and never reassigned.
    private final class Api: Domain, @unchecked Sendable {
        @Get("/items/{item_id}?fixed=1") var lookup: (LookupRequest) async throws -> Empty
        @Post("/login") var login: (FormRequest) async throws -> Empty
        @Post("/upload") var upload: (UploadRequest) async throws -> Empty
        @Put("/notes") var note: (NoteRequest) async throws -> Note
        @Post("/logs") var log: (LogRequest) async throws -> Empty
    }

    /// Three chunks, made afresh for each send.
    private static let logLines = ["first line\n", "second line\n", "third line\n"]

    private static func chunks(length: Int64?) -> HTTPRequestBodyStream {
        HTTPRequestBodyStream(length: length) {
            AsyncStream<Data> { continuation in
                for line in logLines { continuation.yield(Data(line.utf8)) }
                continuation.finish()
            }
        }
    }

    @Test(
        "a @RawBody stream arrives byte for byte: with its Content-Length when known, and whole when not",
        arguments: TransportKind.allCases)
    func streamedBody(kind: TransportKind) async throws {
        try await withServer(kind) { transport, server in
            // Given
            let api = Api(transport: transport)
            let expected = Data(Self.logLines.joined().utf8)

            // When
            _ = try await api.log(LogRequest(lines: Self.chunks(length: Int64(expected.count))))
            _ = try await api.log(LogRequest(lines: Self.chunks(length: nil)))

            // Then: the same bytes both times; the known length as Content-Length, the unknown one chunked where the
            // transport can send chunks (async-http-client and NIOTransport; URLSession reads it first, and sends its
            // length)
            #expect(server.requests.map(\.body) == [expected, expected])
            #expect(server.requests.map { $0.header("Content-Type") } == ["text/plain", "text/plain"])
            #expect(server.requests[0].header("Content-Length") == "\(expected.count)")
            let second = server.requests[1]
            if kind == .urlSession {
                #expect(second.header("Content-Length") == "\(expected.count)")
            } else {
                #expect(second.header("Transfer-Encoding") == "chunked")
            }
        }
    }

    @Test("path segments and queries arrive percent-encoded byte for byte", arguments: TransportKind.allCases)
    func pathAndQuery(kind: TransportKind) async throws {
        try await withServer(kind, basePath: "/api/v2") { transport, server in
            // Given
            let api = Api(transport: transport)
            let request = LookupRequest(
                itemId: "a/b?c#d%e f é😀", text: "a+b&c=d#e f", tags: ["x", "y z"], page: nil,
                since: Date(timeIntervalSince1970: 1_700_000_000.5), archived: true, sort: .newest, accountId: "acc"
            )

            // When
            _ = try await api.lookup(request)

            // Then
            let received = try #require(server.requests.first)
            #expect(received.method == "GET")
            #expect(
                received.target == "/api/v2/items/a%2Fb%3Fc%23d%25e%20f%20%C3%A9%F0%9F%98%80"
                    + "?fixed=1&text=a%2Bb%26c%3Dd%23e%20f&tag=x&tag=y%20z&since=1700000000500&archived=true&sort=new%20est")
            #expect(received.pathSegments.last == "a/b?c#d%e f é😀")
            #expect(received.queryItems.map(\.value) == ["1", "a+b&c=d#e f", "x", "y z", "1700000000500", "true", "new est"])
            #expect(received.header("X-Account-Id") == "acc")
            #expect(received.header("X-Optional") == nil)
        }
    }

    @Test("request headers win over shared headers", arguments: TransportKind.allCases)
    func headers(kind: TransportKind) async throws {
        try await withServer(kind, sharedHeaders: ["X-Account-Id": "shared", "X-Client": "retroswift"]) { transport, server in
            // Given
            let api = Api(transport: transport)

            // When
            _ = try await api.lookup(LookupRequest(itemId: "1", accountId: "mine"))

            // Then
            let received = try #require(server.requests.first)
            #expect(received.headers.filter { $0.name.lowercased() == "x-account-id" }.map(\.value) == ["mine"])
            #expect(received.header("X-Client") == "retroswift")
            #expect(received.queryItems.filter { $0.name == "archived" }.map(\.value) == ["false"])
            #expect(received.queryItems.filter { $0.name == "sort" }.map(\.value) == ["new est"])
            #expect(!received.queryItems.contains { $0.name == "page" || $0.name == "since" })
        }
    }

    @Test("form fields arrive form-urlencoded", arguments: TransportKind.allCases)
    func form(kind: TransportKind) async throws {
        try await withServer(kind) { transport, server in
            // Given
            let api = Api(transport: transport)

            // When
            _ = try await api.login(FormRequest(user: "ann@example.com", password: "p&s=s +1", scopes: ["read", "write"]))

            // Then
            let received = try #require(server.requests.first)
            #expect(received.header("Content-Type") == "application/x-www-form-urlencoded; charset=utf-8")
            #expect(
                String(decoding: received.body, as: UTF8.self) == "user=ann%40example.com&pass+word=p%26s%3Ds+%2B1&scopes=read&scopes=write"
            )
            #expect(received.formItems.map(\.value) == ["ann@example.com", "p&s=s +1", "read", "write"])
        }
    }

    @Test("a multipart body with binary file content arrives byte for byte", arguments: TransportKind.allCases)
    func multipart(kind: TransportKind) async throws {
        try await withServer(kind) { transport, server in
            // Given
            let api = Api(transport: transport)
            api.multipartBoundary = { "test-boundary" }
            let content = Data((0...255).map(UInt8.init) + [0x0D, 0x0A, 0x2D, 0x2D])

            // When
            _ = try await api.upload(
                UploadRequest(
                    modelId: "scribe_v1", file: .init(fileName: "a \"b\".bin", mimeType: "application/octet-stream", content: content)))

            // Then
            let received = try #require(server.requests.first)
            #expect(received.header("Content-Type") == "multipart/form-data; boundary=test-boundary")
            let expected =
                Data("--test-boundary\r\nContent-Disposition: form-data; name=\"model_id\"\r\n\r\nscribe_v1\r\n".utf8)
                + Data(
                    "--test-boundary\r\nContent-Disposition: form-data; name=\"file\"; filename=\"a %22b%22.bin\"\r\nContent-Type: application/octet-stream\r\n\r\n"
                        .utf8)
                + content + Data("\r\n--test-boundary--\r\n".utf8)
            #expect(received.body == expected)
            #expect(received.header("Content-Length") == "\(expected.count)")
        }
    }

    @Test("a JSON body is sent and a JSON response decoded, dates as epoch milliseconds", arguments: TransportKind.allCases)
    func json(kind: TransportKind) async throws {
        try await withServer(
            kind,
            respond: { request in
                ScriptedResponse(status: 200, headers: [("Content-Type", "application/json")], body: request.body)
            }
        ) { transport, server in
            // Given
            let api = Api(transport: transport)
            let note = Note(text: "héllo \"world\"", at: Date(timeIntervalSince1970: 1.25))

            // When
            let echoed = try await api.note(NoteRequest(note: note))

            // Then
            let received = try #require(server.requests.first)
            #expect(received.method == "PUT")
            #expect(received.header("Content-Type") == "application/json")
            #expect(try JSONSerialization.jsonObject(with: received.body) as? NSDictionary == ["text": "héllo \"world\"", "at": 1250])
            #expect(echoed == note)
        }
    }

    @Test(
        "dates are whole epoch milliseconds in JSON bodies and queries alike; responses may carry fractions",
        arguments: TransportKind.allCases
    )
    func wholeMillisecondDates(kind: TransportKind) async throws {
        try await withServer(
            kind,
            respond: { request in
                let body = request.method == "PUT" ? #"{"text":"t","at":1700000000123.9}"# : ""
                return ScriptedResponse(
                    status: request.method == "PUT" ? 200 : 204, headers: [("Content-Type", "application/json")], body: Data(body.utf8))
            }
        ) { transport, server in
            // Given: a date with sub-millisecond precision, as `Date()` usually has
            let api = Api(transport: transport)
            let at = Date(timeIntervalSince1970: 1_700_000_000.123_456)

            // When
            let echoed = try await api.note(NoteRequest(note: Note(text: "t", at: at)))
            _ = try await api.lookup(LookupRequest(itemId: "i", since: at))

            // Then: the same integer on both, never `1700000000123.456`
            let received = server.requests
            let json = String(decoding: received[0].body, as: UTF8.self)
            #expect(json.contains(#""at":1700000000123,"#) || json.contains(#""at":1700000000123}"#), "\(json)")
            #expect(received[1].queryItems.first { $0.name == "since" }?.value == "1700000000123")
            #expect(echoed.at == Date(timeIntervalSince1970: 1_700_000_000.1239))
        }
    }
}
