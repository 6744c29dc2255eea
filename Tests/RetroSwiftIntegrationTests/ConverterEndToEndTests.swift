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

    private struct LoginRequest {
        @Body var login = Login(user: "a b&c", remember: true, tries: 2)
    }

    private struct PlistRequest {
        @Body var user = User(name: "plist")
    }

    // @unchecked Sendable: the fixture adds only endpoint wrappers, set up in init and never reassigned.
    private final class Api: Domain, @unchecked Sendable {
        @Get("/user") var user: () async throws -> User
        @Post("/login", converter: FormConverter()) var login: (LoginRequest) async throws -> Empty
        @Post("/plist", converter: PropertyListConverter()) var plist: (PlistRequest) async throws -> User
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
            #expect(
                error?.description
                    == "Api.user (GET /user): the HTTP 200 response is text/html, which the JSON decoder does not read (it reads "
                    + "application/json, */*+json, text/json); the body begins: <html> <body>Sign in to the Wi-Fi</body> </html>")
        }
    }

    @Test(
        "A form and a property list body go in the converter's format, with its Content-Type and Accept", arguments: TransportKind.allCases)
    func formAndPlist(kind: TransportKind) async throws {
        let plist = try PropertyListEncoder().encode(User(name: "back"))
        try await withServer(
            kind,
            respond: { request in
                request.target == "/plist"
                    ? ScriptedResponse(status: 200, headers: [("Content-Type", "application/x-plist")], body: plist)
                    : ScriptedResponse(status: 204)
            }
        ) { transport, server in
            // Given
            let api = Api(transport: transport)

            // When
            _ = try await api.login(LoginRequest())
            let user = try await api.plist(PlistRequest())

            // Then
            #expect(user == User(name: "back"))
            let login = try #require(server.requests.first { $0.target == "/login" })
            #expect(String(decoding: login.body, as: UTF8.self) == "remember=true&tries=2&user=a+b%26c")
            #expect(login.header("Content-Type") == "application/x-www-form-urlencoded")
            #expect(login.header("Accept") == "application/x-www-form-urlencoded")
            let sent = try #require(server.requests.first { $0.target == "/plist" })
            #expect(try PropertyListDecoder().decode(User.self, from: sent.body) == User(name: "plist"))
            #expect(sent.header("Content-Type") == "application/x-plist")
            #expect(sent.header("Accept") == "application/x-plist, application/plist")
        }
    }
}
