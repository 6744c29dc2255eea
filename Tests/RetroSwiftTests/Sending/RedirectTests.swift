import Foundation
import RetroSwiftTesting
import Testing

@testable import RetroSwift

@Suite("Redirects follow RFC 9110 and keep credentials with their origin")
struct RedirectTests {
    private struct Note: Codable, Equatable {
        var text: String
    }

    private struct NoteRequest {
        @Header("Authorization") var authorization: String = "Bearer own-token"
        @Header("Cookie") var cookie: String = "session=1"
        @Header("X-Api-Key") var apiKey: String = "key-1"
        @Header("X-Trace") var trace: String = "trace-1"
        @JsonBody var note: Note = Note(text: "hello")
    }

    private final class Api: Domain, @unchecked Sendable {
        @Post("/notes") var create: (NoteRequest) async throws -> HTTPResponse<Empty>
        @Put("/notes") var replace: (NoteRequest) async throws -> Empty
        @Head("/notes") var exists: () async throws -> Empty
        @Get("/notes") var list: () async throws -> HTTPResponse<Empty>
        @Get("/notes", redirects: .never) var listUnfollowed: () async throws -> HTTPResponse<Empty>
        @Get("/notes", redirects: .follow()) var listFollowed: () async throws -> HTTPResponse<Empty>
        @Get("/notes", redirects: .never) var decodedUnfollowed: () async throws -> HTTPResponse<Note>

        init(transport: any HttpTransport, base: String = "http://127.0.0.1:8080/v1") {
            super.init(transport: transport)
            transport.setConfiguration(baseURL: URL(string: base)!, sharedHeaders: ["Authorization": "Bearer shared", "X-Client": "app"])
        }
    }

    /// Answers requests with `answers` in order, then with 204.
    private static func redirecting(_ answers: HttpOperationResult...) -> RecordingTransport {
        let remaining = Protected(answers)
        return RecordingTransport { _ in
            remaining.mutate { $0.isEmpty ? HttpOperationResult(statusCode: 204) : $0.removeFirst() }
        }
    }

    private static func sent(_ request: HttpRequestParams) -> [String: String] {
        Dictionary(
            uniqueKeysWithValues: request.headerFields(sharedHeaders: ["Authorization": "Bearer shared", "X-Client": "app"])
                .map { ($0.name, $0.value) })
    }

    @Test("307 and 308 repeat the method and the body; the same origin keeps every header", arguments: [307, 308])
    func sameMethodAndBody(status: Int) async throws {
        // Given
        let transport = Self.redirecting(.redirect(to: "/v2/notes?moved=1", status: status))
        let api = Api(transport: transport)

        // When
        let response = try await api.create(NoteRequest())

        // Then
        let (first, second) = (transport.requests[0], transport.requests[1])
        #expect(transport.requests.count == 2)
        #expect(second.method == .post)
        #expect(try second.payload?.data() == first.payload?.data())
        #expect(second.payload?.contentType == "application/json")
        #expect(second.url.absoluteString == "http://127.0.0.1:8080/v2/notes?moved=1")
        #expect(second.encodedPathAndQuery == "/v2/notes?moved=1")
        #expect(second.queryItems == [HTTPQueryItem(name: "moved", value: "1")])
        #expect(Self.sent(second) == Self.sent(first))
        #expect(response.url?.absoluteString == "http://127.0.0.1:8080/v2/notes?moved=1")
    }

    @Test("301 and 302 turn a POST into a GET without a body; a PUT keeps both", arguments: [301, 302])
    func postBecomesGet(status: Int) async throws {
        // Given
        let post = Self.redirecting(.redirect(to: "/v1/elsewhere", status: status))
        let put = Self.redirecting(.redirect(to: "/v1/elsewhere", status: status))

        // When
        _ = try await Api(transport: post).create(NoteRequest())
        _ = try await Api(transport: put).replace(NoteRequest())

        // Then
        let redirectedPost = post.requests[1]
        #expect(redirectedPost.method == .get)
        #expect(redirectedPost.body == nil)
        #expect(Self.sent(redirectedPost)["Content-Type"] == nil)
        #expect(Self.sent(redirectedPost)["Authorization"] == "Bearer own-token")
        #expect(put.requests[1].method == .put)
        #expect(try put.requests[1].payload?.data() == Data(#"{"text":"hello"}"#.utf8))
    }

    @Test("303 turns any method but HEAD into a GET without a body")
    func seeOther() async throws {
        // Given
        let put = Self.redirecting(.redirect(to: "/v1/status", status: 303))
        let head = Self.redirecting(.redirect(to: "/v1/status", status: 303))

        // When
        _ = try await Api(transport: put).replace(NoteRequest())
        _ = try await Api(transport: head).exists()

        // Then
        #expect(put.requests[1].method == .get)
        #expect(put.requests[1].body == nil)
        #expect(head.requests.map(\.method) == [.head, .head])
    }

    @Test(
        "another host, port or scheme gets no Authorization, Cookie or Proxy-Authorization, shared or own",
        arguments: [
            "http://127.0.0.2:8080/v1/notes", "http://127.0.0.1:9090/v1/notes", "//localhost:8080/v1/notes",
        ])
    func credentialsStayHome(location: String) async throws {
        // Given
        let transport = Self.redirecting(.redirect(to: location, status: 307))
        let api = Api(transport: transport)

        // When
        let response = try await api.create(NoteRequest())

        // Then: the body and ordinary headers go on; credentials do not
        let second = transport.requests[1]
        #expect(
            Self.sent(second) == [
                "X-Api-Key": "key-1", "X-Trace": "trace-1", "X-Client": "app", "Content-Type": "application/json",
            ])
        #expect(try second.payload?.data() == Data(#"{"text":"hello"}"#.utf8))
        #expect(response.url?.absoluteString == (location.hasPrefix("//") ? "http:" + location : location))
    }

    @Test("headers marked as credentials and those an interceptor adds are withheld from another origin too")
    func markedAndInterceptedCredentials() async throws {
        // Given
        let transport = Self.redirecting(.redirect(to: "http://127.0.0.1:9090/v1/notes", status: 308))
        let api = Api(transport: transport)
        api.redirectPolicy = .follow(credentialHeaders: ["x-api-key"])
        api.interceptors = [ProxyAuthorizing()]

        // When
        _ = try await api.create(NoteRequest())

        // Then
        #expect(Self.sent(transport.requests[0])["Proxy-Authorization"] == "Basic cHJveHk6cHc=")
        #expect(Self.sent(transport.requests[1]) == ["X-Trace": "trace-1", "X-Client": "app", "Content-Type": "application/json"])
    }

    private struct ProxyAuthorizing: Interceptor {
        func intercept(_ request: HttpRequestParams, next: InterceptorNext) async throws -> HttpOperationResult {
            try await next(request.settingHeader("Proxy-Authorization", to: "Basic cHJveHk6cHc="))
        }
    }

    @Test("a redirect back to the original origin does not bring the credentials back")
    func credentialsStayWithheld() async throws {
        // Given: away to another port, then home again
        let transport = Self.redirecting(
            .redirect(to: "http://127.0.0.1:9090/hop", status: 307), .redirect(to: "http://127.0.0.1:8080/v1/home", status: 307))

        // When
        _ = try await Api(transport: transport).create(NoteRequest())

        // Then
        #expect(transport.requests.count == 3)
        #expect(Self.sent(transport.requests[2])["Authorization"] == nil)
        #expect(Self.sent(transport.requests[2])["Cookie"] == nil)
    }

    @Test("https to http is refused unless allowed; other schemes always are")
    func downgradesAndSchemes() async throws {
        // Given
        let secure = Self.redirecting(.redirect(to: "http://127.0.0.1:8080/v1/plain", status: 302))
        let allowed = Self.redirecting(.redirect(to: "http://127.0.0.1:8080/v1/plain", status: 302))
        let ftp = Self.redirecting(.redirect(to: "ftp://127.0.0.1/file", status: 302))
        let allowingApi = Api(transport: allowed, base: "https://127.0.0.1:8443/v1")
        allowingApi.redirectPolicy = .follow(allowingInsecureDowngrade: true)

        // When
        let downgrade = await #expect(throws: RequestError.self) {
            _ = try await Api(transport: secure, base: "https://127.0.0.1:8443/v1").list()
        }
        let followed = try await allowingApi.list()
        let otherScheme = await #expect(throws: RequestError.self) { _ = try await Api(transport: ftp).list() }

        // Then
        #expect(downgrade?.kind == .redirectRefused)
        #expect(downgrade?.response?.statusCode == 302)
        #expect(
            downgrade?.description
                == "Api.list (GET /notes): the 302 redirect leads from https to 'http://127.0.0.1:8080/v1/plain'; allow it with RedirectPolicy.follow(allowingInsecureDowngrade: true)"
        )
        #expect(secure.requests.count == 1)
        #expect(followed.url?.absoluteString == "http://127.0.0.1:8080/v1/plain")
        #expect(Self.sent(allowed.requests[1])["Authorization"] == nil)
        #expect(
            otherScheme?.description
                == "Api.list (GET /notes): the 302 redirect leads to 'ftp://127.0.0.1/file'; only http and https are followed")
        #expect(ftp.requests.count == 1)
    }

    @Test("a redirect loop ends after the limit with an error naming it")
    func loopEnds() async throws {
        // Given
        let transport = RecordingTransport { _ in .redirect(to: "/v1/notes", status: 302) }
        let limited = RecordingTransport { _ in .redirect(to: "/v1/notes", status: 302) }
        let limitedApi = Api(transport: limited)
        limitedApi.redirectPolicy = .follow(maximumRedirects: 2)

        // When
        let error = await #expect(throws: RequestError.self) { _ = try await Api(transport: transport).list() }
        let limitedError = await #expect(throws: RequestError.self) { _ = try await limitedApi.list() }

        // Then
        #expect(transport.requests.count == 17)
        #expect(error?.kind == .redirectRefused)
        #expect(error?.description == "Api.list (GET /notes): more than 16 redirects; the last was 302 to '/v1/notes'")
        #expect(limited.requests.count == 3)
        #expect(limitedError?.description == "Api.list (GET /notes): more than 2 redirects; the last was 302 to '/v1/notes'")
    }

    @Test("not following, per domain or per endpoint, returns the 3xx with its Location")
    func notFollowing() async throws {
        // Given
        let transport = RecordingTransport { _ in .redirect(to: "/v1/elsewhere", status: 301) }
        let api = Api(transport: transport)

        // When
        let unfollowed = try await api.listUnfollowed()
        api.redirectPolicy = .never
        let domainWide = try await api.list()
        let endpointFollows = await #expect(throws: RequestError.self) { _ = try await api.listFollowed() }

        // Then
        #expect(unfollowed.statusCode == 301)
        #expect(unfollowed.header("location") == "/v1/elsewhere")
        #expect(unfollowed.url?.absoluteString == "http://127.0.0.1:8080/v1/notes")
        #expect(domainWide.statusCode == 301)
        #expect(endpointFollows?.kind == .redirectRefused)
        #expect(transport.requests.count == 2 + 17)
    }

    @Test(
        "300, 304 and a 3xx without Location are not followed: HTTPError to Empty, a response to HTTPResponse",
        arguments: [
            HttpOperationResult(statusCode: 300, headers: ["Location": "/v1/a"]),
            HttpOperationResult(statusCode: 304, headers: ["Location": "/v1/a"]),
            HttpOperationResult(statusCode: 302),
        ])
    func notRedirects(response: HttpOperationResult) async throws {
        // Given
        let transport = RecordingTransport { _ in response }

        // When
        let error = await #expect(throws: HTTPError.self) { _ = try await Api(transport: transport).exists() }
        let withMetadata = try await Api(transport: transport).list()

        // Then: as an error to Empty, as a response to HTTPResponse
        #expect(error?.statusCode == response.statusCode)
        #expect(withMetadata.statusCode == response.statusCode)
        #expect(transport.requests.count == 2)
    }

    @Test(
        "a relative Location resolves against the URL the response came from",
        arguments: [
            ("other", "http://127.0.0.1:8080/v1/other"),
            ("../up", "http://127.0.0.1:8080/up"),
            ("?page=2", "http://127.0.0.1:8080/v1/notes?page=2"),
            ("/a%20b/c?x=%2F#part", "http://127.0.0.1:8080/a%20b/c?x=%2F"),
            ("/a b/é?q=ü ü", "http://127.0.0.1:8080/a%20b/%C3%A9?q=%C3%BC%20%C3%BC"),
        ])
    func relativeLocations(location: String, expected: String) async throws {
        // Given
        let transport = Self.redirecting(.redirect(to: location, status: 302))

        // When
        let response = try await Api(transport: transport).list()

        // Then
        #expect(transport.requests[1].url.absoluteString == expected)
        #expect(response.url?.absoluteString == expected)
    }

    @Test("a 3xx not followed is an HTTPError to an HTTPResponse of a JSON type, which has no body to decode")
    func unfollowedIntoJSONType() async throws {
        // Given
        let transport = RecordingTransport { _ in HttpOperationResult(statusCode: 304, headers: ["ETag": "\"v1\""]) }

        // When
        let error = await #expect(throws: HTTPError.self) { _ = try await Api(transport: transport).decodedUnfollowed() }

        // Then
        #expect(error?.statusCode == 304)
        #expect(error?.headers["etag"] == "\"v1\"")
    }

    @Test("what one redirect withheld stays withheld after the next: a dropped body's headers, then credentials")
    func withheldAccumulates() async throws {
        // Given: a 303 on the same origin drops the body, then a 307 leaves the origin
        let transport = Self.redirecting(
            .redirect(to: "/v1/status", status: 303), .redirect(to: "http://127.0.0.1:9090/v1/status", status: 307))

        // When
        _ = try await Api(transport: transport).replace(NoteRequest())

        // Then
        let last = transport.requests[2].headerFields(sharedHeaders: [
            "Content-Type": "application/json", "Authorization": "Bearer s", "X-Client": "app",
        ])
        #expect(last.map(\.name).sorted() == ["X-Api-Key", "X-Client", "X-Trace"])
    }

    @Test("a body dropped by a 303 takes a shared Content-Type with it")
    func sharedBodyHeadersDropped() async throws {
        // Given
        let transport = Self.redirecting(.redirect(to: "/v1/status", status: 303))
        let api = Api(transport: transport)

        // When
        _ = try await api.replace(NoteRequest())

        // Then
        let fields = transport.requests[1].headerFields(sharedHeaders: ["Content-Type": "application/json", "X-Client": "app"])
        #expect(fields.map(\.name).contains("X-Client"))
        #expect(!fields.contains { $0.name == "Content-Type" })
    }
}
