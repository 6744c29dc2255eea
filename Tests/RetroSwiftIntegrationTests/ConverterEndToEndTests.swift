import Foundation
import RetroSwift
import RetroSwiftTestServer
import Testing

@Suite("End to end: converters", .timeLimit(.minutes(4)))
struct ConverterEndToEndTests {
    private struct User: Codable, Equatable {
        var name: String
    }

    private struct Login: Codable, Equatable {
        var user: String
        var remember: Bool
        var tries: Int
    }

    private struct Session: Codable, Equatable {
        var token: String
        var user: String
    }

    private struct LoginRequest {
        @Body var login = Login(user: "a b&c", remember: true, tries: 2)
    }

    private struct PlistRequest {
        @Body var user = User(name: "plist")
    }

    private struct NoteRequest {
        @Body var note = "héllo ✓ & more"
    }

    private struct BlobRequest {
        @Body var blob = Data((0...255).map { UInt8($0) })
    }

    // @unchecked Sendable: the fixture adds only endpoint wrappers, set up in init and never reassigned.
    private final class Api: Domain, @unchecked Sendable {
        @Get("/user") var user: () async throws -> User
        @Post("/login", converter: FormConverter()) var login: (LoginRequest) async throws -> Session
        @Post("/plist", converter: PropertyListConverter()) var plist: (PlistRequest) async throws -> User
        @Post("/text", converter: TextConverter()) var note: (NoteRequest) async throws -> String
        @Post("/bytes", converter: BytesConverter()) var blob: (BlobRequest) async throws -> Data
    }

    /// Answers each converter's endpoint in its format, from what it was sent, so a round trip proves both ways.
    private static func respond(_ request: RecordedRequest) -> ScriptedResponse {
        switch request.target {
        case "/login":
            return ScriptedResponse(
                status: 200, headers: [("Content-Type", "application/x-www-form-urlencoded")],
                body: Data("user=a+b%26c&token=t%C3%B6k+1".utf8))
        case "/plist":
            let user = (try? PropertyListDecoder().decode(User.self, from: request.body)) ?? User(name: "?")
            let body = (try? PropertyListEncoder().encode(User(name: user.name + " back"))) ?? Data()
            return ScriptedResponse(status: 200, headers: [("Content-Type", "application/x-plist")], body: body)
        case "/text":
            return ScriptedResponse(
                status: 200, headers: [("Content-Type", "text/plain; charset=utf-8")],
                body: Data("got: ".utf8) + request.body)
        case "/bytes":
            return ScriptedResponse(
                status: 200, headers: [("Content-Type", "application/octet-stream")], body: Data(request.body.reversed()))
        default:
            return ScriptedResponse(status: 404)
        }
    }

    @Test(
        "An HTML page answering a JSON endpoint throws unreadableMediaType naming the status, type and body",
        arguments: TransportKind.allCases)
    func htmlForJSON(kind: TransportKind) async throws {
        let page = "<html>\n  <body>Sign in to the Wi-Fi</body>\n</html>\n"
        try await withServer(
            kind,
            respond: { _ in ScriptedResponse(status: 200, headers: [("Content-Type", "text/html; charset=utf-8")], body: Data(page.utf8)) }
        ) { transport, _ in
            // Given
            let api = Api(transport: transport)

            // When
            let error = await #expect(throws: RequestError.self) { _ = try await api.user() }

            // Then
            #expect(error?.kind == .unreadableMediaType)
            #expect(error?.response?.statusCode == 200)
            // (the JSON decoder tried the page, as it tries JSON labelled text/html, and its failure is kept)
            #expect(error?.underlyingError is DecodingError)
            #expect(
                error?.description.hasPrefix(
                    "Api.user (GET /user): the HTTP 200 response is text/html, which the JSON decoder does not read (it reads "
                        + "application/json, */*+json, text/json) and it does not decode as User either (") == true)
            #expect(error?.description.hasSuffix("); the body begins: <html> <body>Sign in to the Wi-Fi</body> </html>") == true)
        }
    }

    @Test(
        "Text, bytes, a form and a property list go out in the converter's format with its Content-Type and Accept, and come back",
        arguments: TransportKind.allCases)
    func roundTrips(kind: TransportKind) async throws {
        try await withServer(kind, respond: Self.respond) { transport, server in
            // Given
            let api = Api(transport: transport)

            // When
            let session = try await api.login(LoginRequest())
            let user = try await api.plist(PlistRequest())
            let note = try await api.note(NoteRequest())
            let blob = try await api.blob(BlobRequest())

            // Then the answers decode in each format
            #expect(session == Session(token: "tök 1", user: "a b&c"))
            #expect(user == User(name: "plist back"))
            #expect(note == "got: héllo ✓ & more")
            #expect(blob == Data((0...255).reversed().map { UInt8($0) }))
            // and each request went out in its converter's format, with its media types
            let login = try #require(server.requests.first { $0.target == "/login" })
            #expect(String(decoding: login.body, as: UTF8.self) == "remember=true&tries=2&user=a+b%26c")
            #expect(login.header("Content-Type") == "application/x-www-form-urlencoded")
            #expect(login.header("Accept") == "application/x-www-form-urlencoded")
            let plist = try #require(server.requests.first { $0.target == "/plist" })
            #expect(try PropertyListDecoder().decode(User.self, from: plist.body) == User(name: "plist"))
            #expect(plist.header("Content-Type") == "application/x-plist")
            #expect(plist.header("Accept") == "application/x-plist, application/plist")
            let text = try #require(server.requests.first { $0.target == "/text" })
            #expect(text.body == Data("héllo ✓ & more".utf8))
            #expect(text.header("Content-Type") == "text/plain; charset=utf-8")
            #expect(text.header("Accept") == "text/*")
            let bytes = try #require(server.requests.first { $0.target == "/bytes" })
            #expect(bytes.body == Data((0...255).map { UInt8($0) }))
            #expect(bytes.header("Content-Type") == "application/octet-stream")
            #expect(bytes.header("Accept") == "*/*")
        }
    }

    @Test(
        "JSON labelled text/plain, application/octet-stream or not at all still decodes, on the default path and through a JSONConverter",
        arguments: TransportKind.allCases)
    func mislabelledJSON(kind: TransportKind) async throws {
        let labels: [String: String?] = ["/plain": "text/plain; charset=utf-8", "/octets": "application/octet-stream", "/none": nil]
        try await withServer(
            kind,
            respond: { request in
                let label = labels[request.target] ?? "text/plain"
                return ScriptedResponse(
                    status: 200, headers: label.map { [("Content-Type", $0)] } ?? [], body: Data(#"{"name":"json"}"#.utf8))
            }
        ) { transport, server in
            // Given: the domain's default JSON, then a JSONConverter set on the domain
            let api = MislabelledApi(transport: transport)

            // When
            var users = [try await api.plain(), try await api.octets(), try await api.none()]
            api.converter = JSONConverter()
            users += [try await api.plain(), try await api.octets(), try await api.none()]

            // Then: every answer decodes, and only the converter set on the domain sends its Accept (URLSession sends
            // its own `*/*` when RetroSwift sends none)
            #expect(users == Array(repeating: User(name: "json"), count: 6))
            #expect(server.requests.prefix(3).allSatisfy { [nil, "*/*"].contains($0.header("Accept")) })
            #expect(server.requests.suffix(3).allSatisfy { $0.header("Accept") == "application/json, text/json" })
        }
    }

    @Test(
        "A domain's converter decides Accept, and a new one set on the domain takes its place at once",
        arguments: TransportKind.allCases)
    func domainConverterAccept(kind: TransportKind) async throws {
        try await withServer(
            kind,
            respond: { _ in ScriptedResponse(status: 200, headers: [("Content-Type", "text/plain")], body: Data(#"{"name":"json"}"#.utf8)) }
        ) { transport, server in
            // Given
            let api = MislabelledApi(transport: transport)
            api.converter = PropertyListConverter()

            // When
            let first = try await api.user()
            api.converter = JSONConverter()
            let second = try await api.user()

            // Then: the JSON is no property list, and its label is not one, so the first converter calls it another
            // format; the second reads it
            #expect(first == nil)
            #expect(second == User(name: "json"))
            #expect(
                server.requests.map { $0.header("Accept") } == ["application/x-plist, application/plist", "application/json, text/json"])
        }
    }

    // @unchecked Sendable: the fixture adds only endpoint wrappers, set up in init and never reassigned.
    private final class MislabelledApi: Domain, @unchecked Sendable {
        @Get("/plain") var plain: () async throws -> User
        @Get("/octets") var octets: () async throws -> User
        @Get("/none") var none: () async throws -> User
        @Get("/plain") var userOrRefused: () async throws -> User

        /// The user, or `nil` when the domain's converter refused the answer's media type.
        func user() async throws -> User? {
            do {
                return try await userOrRefused()
            } catch let error as RequestError where error.kind == .unreadableMediaType {
                return nil
            }
        }
    }
}
