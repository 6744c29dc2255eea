import Foundation
import RetroSwift
import RetroSwiftTestServer
import Testing

/// `@Url` fields against real servers on every transport: paths under the base path, full URLs on the base URL's
/// origin, and other origins refused or reached without the domain's credentials.
@Suite("End to end: @Url", .timeLimit(.minutes(4)))
struct DynamicURLEndToEndTests {
    private struct FetchRequest {
        @Url var url: String = ""
        @Query var page: Int? = nil
        @Header("Cookie") var cookie: String? = nil
    }

    private struct UploadRequest {
        @Url var url: URL
        @RawBody var text: String = ""
    }

    // @unchecked Sendable: the fixture adds only endpoint wrappers, set up in init and never reassigned.
    private final class Api: Domain, @unchecked Sendable {
        @Get() var fetch: (FetchRequest) async throws -> HTTPResponse<String>
        @Get(otherHosts: .allowing(["127.0.0.1"])) var fetchAnywhere: (FetchRequest) async throws -> HTTPResponse<String>
        @Put() var upload: (UploadRequest) async throws -> HTTPResponse<Empty>
    }

    /// Adds a bearer token to every call, as an auth interceptor does.
    private struct TokenInterceptor: Interceptor {
        func intercept(_ request: HttpRequestParams, next: InterceptorNext) async throws -> HttpOperationResult {
            try await next(request.settingHeader("Authorization", to: "Bearer interceptor"))
        }
    }

    /// The base server answers at `/api/...`; `other` is another origin (another port of 127.0.0.1) that answers
    /// `/back` with a 307 to the base server and anything else with its own path.
    private static func withServers(
        _ kind: TransportKind, _ body: (Api, _ base: TestServer, _ other: TestServer) async throws -> Void
    ) async throws {
        let echo: TestServer.Responder = { request in
            ScriptedResponse(status: 200, headers: [("Content-Type", "text/plain")], body: Data(request.target.utf8))
        }
        let base = try await TestServer.start(echo)
        let baseURL = base.baseURL.absoluteString
        let other = try await TestServer.start { request in
            request.encodedPath == "/back" ? ScriptedResponse(status: 307, headers: [("Location", baseURL + "/landed")]) : echo(request)
        }
        let transport = kind.make()
        transport.setConfiguration(
            baseURL: URL(string: baseURL + "/api")!, sharedHeaders: ["Authorization": "Bearer shared", "X-Client": "app"])
        let api = Api(transport: transport)
        api.interceptors = [TokenInterceptor()]
        do {
            try await body(api, base, other)
        } catch {
            await base.stop()
            await other.stop()
            throw error
        }
        await base.stop()
        await other.stop()
    }

    @Test(
        "a path goes under the base path, percent-encoded, with the URL's query before the @Query fields", arguments: TransportKind.allCases
    )
    func relativePath(kind: TransportKind) async throws {
        try await Self.withServers(kind) { api, base, _ in
            // When
            let response = try await api.fetch(FetchRequest(url: "files/a b/ü.txt?rev=1&x=%2F", page: 2))

            // Then
            let received = try #require(base.requests.last)
            #expect(received.target == "/api/files/a%20b/%C3%BC.txt?rev=1&x=%2F&page=2")
            #expect(received.pathSegments == ["api", "files", "a b", "ü.txt"])
            #expect(received.header("Authorization") == "Bearer interceptor")
            #expect(received.header("X-Client") == "app")
            #expect(response.body == received.target)
            #expect(response.url?.absoluteString == base.baseURL.absoluteString + received.target)
        }
    }

    @Test("a full URL on the base URL's origin is requested as it is, without the base path", arguments: TransportKind.allCases)
    func sameOriginURL(kind: TransportKind) async throws {
        try await Self.withServers(kind) { api, base, _ in
            // When
            let link = base.baseURL.absoluteString + "/next?cursor=c%3D1"
            let response = try await api.fetch(FetchRequest(url: link, cookie: "session=1"))

            // Then
            let received = try #require(base.requests.last)
            #expect(received.target == "/next?cursor=c%3D1")
            #expect(received.header("Authorization") == "Bearer interceptor")
            #expect(received.header("Cookie") == "session=1")
            #expect(response.url?.absoluteString == link)
        }
    }

    @Test(
        "another origin: refused without otherHosts, nothing sent; allowed, it gets no shared headers or added credentials",
        arguments: TransportKind.allCases)
    func otherOrigin(kind: TransportKind) async throws {
        try await Self.withServers(kind) { api, base, other in
            // When
            let refused = await #expect(throws: RequestError.self) {
                _ = try await api.fetch(FetchRequest(url: other.baseURL.absoluteString + "/x"))
            }
            let allowed = try await api.fetchAnywhere(
                FetchRequest(url: other.baseURL.absoluteString + "/avatar.png", page: 1, cookie: "own=1"))

            // Then
            #expect(refused?.field == "url")
            #expect(refused?.reason.contains("leads to another origin than the base URL's") == true)
            let received = try #require(other.requests.last)
            #expect(other.requests.count == 1)
            #expect(received.target == "/avatar.png?page=1")
            #expect(received.header("Authorization") == nil)
            #expect(received.header("X-Client") == nil)
            #expect(received.header("Cookie") == "own=1")
            #expect(allowed.body == "/avatar.png?page=1")
            #expect(base.requests.isEmpty)
        }
    }

    @Test(
        "credentials withheld from another origin stay withheld when it redirects back to the base origin",
        arguments: TransportKind.allCases)
    func redirectBack(kind: TransportKind) async throws {
        try await Self.withServers(kind) { api, base, other in
            // When
            let response = try await api.fetchAnywhere(FetchRequest(url: other.baseURL.absoluteString + "/back"))

            // Then
            let landed = try #require(base.requests.last)
            #expect(other.requests.count == 1 && base.requests.count == 1)
            #expect(landed.target == "/landed")
            #expect(landed.header("Authorization") == nil)
            #expect(landed.header("X-Client") == nil)
            #expect(response.url?.absoluteString == base.baseURL.absoluteString + "/landed")
        }
    }

    @Test("a body goes to a @Url like to a declared path; a URL value works as a String does", arguments: TransportKind.allCases)
    func bodyToURL(kind: TransportKind) async throws {
        try await Self.withServers(kind) { api, base, _ in
            // When
            let response = try await api.upload(UploadRequest(url: URL(string: "uploads/1?overwrite=true")!, text: "héllo"))

            // Then
            let received = try #require(base.requests.last)
            #expect(response.statusCode == 200)
            #expect(received.method == "PUT")
            #expect(received.target == "/api/uploads/1?overwrite=true")
            #expect(received.body == Data("héllo".utf8))
            #expect(received.header("Content-Type") == "text/plain; charset=utf-8")
        }
    }
}
