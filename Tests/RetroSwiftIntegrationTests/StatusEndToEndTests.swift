import Foundation
import RetroSwift
import RetroSwiftTestServer
import Testing

@Suite("End to end: statuses and decoding", .timeLimit(.minutes(4)))
struct StatusEndToEndTests {
    private struct User: Codable, Equatable {
        var name: String
    }

    private struct Problem: Codable, Equatable {
        var message: String
    }

    // @unchecked Sendable: the fixture adds only endpoint wrappers, set up in init and never reassigned.
    private final class Api: Domain, @unchecked Sendable {
        @Get("/user") var user: () async throws -> User
        @Post("/user") var create: () async throws -> Either<User, Problem>
        @Delete("/user") var delete: () async throws -> Empty
        @Head("/user") var exists: () async throws -> Empty
        @Get("/user") var userWithMetadata: () async throws -> HTTPResponse<User>
    }

    private static func serving(_ response: ScriptedResponse) -> TestServer.Responder {
        { _ in response }
    }

    @Test("200 and 201 decode; 204 and HEAD satisfy Empty", arguments: TransportKind.allCases)
    func successes(kind: TransportKind) async throws {
        try await withServer(
            kind,
            respond: { request in
                switch request.method {
                case "GET": return .json(#"{"name":"Ann"}"#)
                case "POST": return .json(#"{"name":"Bob"}"#, status: 201)
                default: return ScriptedResponse(status: 204)
                }
            }
        ) { transport, server in
            // Given
            let api = Api(transport: transport)

            // When
            let user = try await api.user()
            let created = try await api.create()
            _ = try await api.delete()
            _ = try await api.exists()
            let withMetadata = try await api.userWithMetadata()

            // Then
            #expect(user == User(name: "Ann"))
            #expect(created == .response(User(name: "Bob")))
            #expect(withMetadata.statusCode == 200 && withMetadata.header("content-type") == "application/json")
            #expect(server.requests.map(\.method) == ["GET", "POST", "DELETE", "HEAD", "GET"])
        }
    }

    @Test("404 with a text/plain body throws HTTPError carrying the text", arguments: TransportKind.allCases)
    func notFound(kind: TransportKind) async throws {
        try await withServer(kind, respond: Self.serving(.text("No such user", status: 404))) { transport, _ in
            // When
            let error = await #expect(throws: HTTPError.self) { _ = try await Api(transport: transport).user() }

            // Then
            #expect(error?.statusCode == 404)
            #expect(error?.localizedDescription == "HTTP 404 Not Found from Api.user (GET /user): No such user")
        }
    }

    @Test("422 with a JSON error body decodes through Either", arguments: TransportKind.allCases)
    func unprocessable(kind: TransportKind) async throws {
        try await withServer(kind, respond: Self.serving(.json(#"{"message":"name taken"}"#, status: 422))) { transport, _ in
            // When
            let result = try await Api(transport: transport).create()

            // Then
            #expect(result == .errorResponse(Problem(message: "name taken")))
        }
    }

    @Test("500 throws HTTPError with the body", arguments: TransportKind.allCases)
    func serverError(kind: TransportKind) async throws {
        try await withServer(kind, respond: Self.serving(.json(#"{"message":"boom"}"#, status: 500))) { transport, _ in
            // When
            let error = await #expect(throws: HTTPError.self) { _ = try await Api(transport: transport).delete() }

            // Then
            #expect(error?.statusCode == 500)
            #expect(error?.body == Data(#"{"message":"boom"}"#.utf8))
            #expect(error?.headers["content-type"] == "application/json")
        }
    }

    @Test("a malformed JSON body throws a decoding error naming the endpoint", arguments: TransportKind.allCases)
    func malformed(kind: TransportKind) async throws {
        try await withServer(kind, respond: Self.serving(.json(#"{"name": "#))) { transport, _ in
            // When
            let error = await #expect(throws: RequestError.self) { _ = try await Api(transport: transport).user() }

            // Then
            #expect(error?.kind == .undecodableResponse)
            #expect(error?.description.hasPrefix("Api.user (GET /user): the HTTP 200 body does not decode as User") == true)
        }
    }

    static let challenges: [(TransportKind, String)] = TransportKind.allCases.flatMap { kind in
        ["Basic realm=\"api\"", "Digest realm=\"api\", nonce=\"abc\", qop=\"auth\"", "Bearer realm=\"api\", error=\"invalid_token\""]
            .map { (kind, $0) }
    }

    @Test(
        "a 401 challenge comes back promptly as HTTPError or .errorResponse with its headers; no credential is sent", arguments: challenges)
    func challenge(kind: TransportKind, challenge: String) async throws {
        try await withServer(
            kind,
            respond: Self.serving(
                ScriptedResponse(
                    status: 401, headers: [("WWW-Authenticate", challenge), ("Content-Type", "application/json")],
                    body: Data(#"{"message":"who are you?"}"#.utf8))
            )
        ) { transport, server in
            // Given
            let api = Api(transport: transport)
            // When (a transport that waited for an answer to the challenge would hit the suite's time limit)
            let error = await #expect(throws: HTTPError.self) { _ = try await api.user() }
            let either = await Result { try await api.create() }

            // Then
            #expect(error?.statusCode == 401)
            #expect(error?.headers["WWW-Authenticate"] == challenge)
            if kind.dropsBasicChallengeBodies && challenge.hasPrefix("Basic") {
                // The 401 arrives without its body, so Either has no error body to decode.
                #expect(throws: HTTPError.self) { try either.get() }
                #expect(error?.body.isEmpty == true)
            } else {
                #expect((try? either.get()) == .errorResponse(Problem(message: "who are you?")))
            }
            #expect(server.requests.count == 2)
            #expect(server.requests.allSatisfy { $0.header("Authorization") == nil })
        }
    }

    @Test("repeated response fields keep every value, in order, under any case of the name", arguments: TransportKind.allCases)
    func repeatedFields(kind: TransportKind) async throws {
        let cookies = ["id=a3fWa; Expires=Wed, 21 Oct 2015 07:28:00 GMT; Path=/", "theme=dark; Secure; HttpOnly", "lang=en-US"]
        let links = [#"<https://api.example/items?page=2>; rel="next""#, #"<https://api.example/items?page=9>; rel="last""#]
        let fields = cookies.map { ("Set-Cookie", $0) } + links.map { ("Link", $0) } + [("X-Foo", "a"), ("x-foo", "b")]
        try await withServer(
            kind,
            respond: Self.serving(
                ScriptedResponse(status: 200, headers: fields + [("Content-Type", "application/json")], body: Data(#"{"name":"Ann"}"#.utf8))
            )
        ) { transport, _ in
            // When
            let response = try await Api(transport: transport).userWithMetadata()

            // Then
            #expect(response.headers.values(for: "set-cookie") == cookies)
            #expect(response.headers["SET-COOKIE"] == cookies[0])
            // The subscript combines repeats in order (RFC 9110 §5.3): one answer on every transport.
            #expect(response.headers["link"] == links.joined(separator: ", "))
            #expect(response.headers["x-Foo"] == "a, b")
            if kind.joinsRepeatedFields {
                #expect(response.headers.values(for: "Link") == [links.joined(separator: ", ")])
                // Both values arrive, joined or not: corelibs keeps names differing in case apart, in no set order.
                #expect(Set(response.headers.values(for: "X-FOO").flatMap { $0.components(separatedBy: ", ") }) == ["a", "b"])
            } else {
                #expect(response.headers.values(for: "Link") == links)
                #expect(response.headers.values(for: "X-FOO") == ["a", "b"])
            }
        }
    }

    @Test(
        "401, 403 and 500 with text bodies (Echo's and Kilo's error cases) throw HTTPError quoting the text",
        arguments: TransportKind.allCases)
    func textErrorBodies(kind: TransportKind) async throws {
        let answers: [String: ScriptedResponse] = [
            "GET": ScriptedResponse(status: 401, headers: [("Content-Type", "text/plain")], body: Data("Token expired".utf8)),
            "DELETE": ScriptedResponse(
                status: 403, headers: [("Content-Type", "text/html; charset=utf-8")],
                body: Data("<html><body>Forbidden by proxy</body></html>\n".utf8)),
            "HEAD": ScriptedResponse(status: 500),
        ]
        try await withServer(kind, respond: { request in answers[request.method] ?? .text("unexpected", status: 400) }) {
            transport, _ in
            // Given
            let api = Api(transport: transport)

            // When
            let unauthorized = await #expect(throws: HTTPError.self) { _ = try await api.user() }
            let forbidden = await #expect(throws: HTTPError.self) { _ = try await api.delete() }
            let failed = await #expect(throws: HTTPError.self) { _ = try await api.exists() }

            // Then
            #expect(unauthorized?.description == "HTTP 401 Unauthorized from Api.user (GET /user): Token expired")
            #expect(
                forbidden?.description
                    == "HTTP 403 Forbidden from Api.delete (DELETE /user): <html><body>Forbidden by proxy</body></html>")
            #expect(failed?.description == "HTTP 500 Internal Server Error from Api.exists (HEAD /user)")
        }
    }
}
