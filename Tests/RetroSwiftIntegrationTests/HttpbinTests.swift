import Foundation
import RetroSwift
import RetroSwiftTestServer
import RetroSwiftURLSession
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Everyday exchanges against a real third-party server that this project did not write: httpbin (from PyPI) under
/// gunicorn on 127.0.0.1, installed and started by `.ci/run`, which passes its URL in `RETROSWIFT_HTTPBIN_URL`.
/// Under CI (`CI=true`) a missing server fails the run; elsewhere the suite is skipped, saying why.
enum Httpbin {
    static let url: URL? = ProcessInfo.processInfo.environment["RETROSWIFT_HTTPBIN_URL"].flatMap(URL.init(string:))

    static var isRequired: Bool {
        ProcessInfo.processInfo.environment["CI"] == "true"
    }

    /// Runs the suite when the server is configured, or under CI (where a missing server must fail).
    static var enabled: Bool {
        url != nil || isRequired
    }

    static func baseURL() throws -> URL {
        guard let url else {
            throw SkipInfo("httpbin is not running: CI must start it (see .ci/run) and set RETROSWIFT_HTTPBIN_URL")
        }
        return url
    }

    struct SkipInfo: Error, CustomStringConvertible {
        let description: String

        init(_ description: String) {
            self.description = description
        }
    }
}

@Suite(
    "End to end: httpbin, a real third-party server",
    .enabled(if: Httpbin.enabled, "set RETROSWIFT_HTTPBIN_URL to a local httpbin (bash .ci/run starts one)"),
    .timeLimit(.minutes(4))
)
struct HttpbinTests {
    /// httpbin's echo of a request.
    struct Echo: Decodable {
        var args: [String: String]
        var headers: [String: String]
        var form: [String: String]?
        var files: [String: String]?
        var json: Note?
        var url: String
        var method: String?
        var data: String?
    }

    struct BasicAuthResult: Decodable, Equatable {
        var authenticated: Bool
        var user: String
    }

    struct Note: Codable, Equatable {
        var text: String
        var at: Date
    }

    struct Bearer: Decodable, Equatable {
        var authenticated: Bool
        var token: String
    }

    struct EchoRequest {
        @Query var text: String = ""
        @Query var page: Int = 0
        @Query var flag: Bool = false
        @Header("X-Account-Id") var accountId: String = ""
    }

    struct NoteRequest {
        @JsonBody var note: Note
    }

    struct FormRequest {
        @FormParam var user: String = ""
        @FormParam("pass word") var password: String = ""
    }

    struct UploadRequest {
        @FormParam("model_id") var modelId: String = ""
        @FormFile("file") var file = .empty
    }

    struct StatusRequest {
        @Path var code: Int = 200
    }

    struct RedirectRequest {
        @Query var url: String = "/anything"
        @Query("status_code") var status: Int = 307
        @Header("Cookie") var cookie: String = "session=1"
        @JsonBody var note = Note(text: "moved", at: Date(timeIntervalSince1970: 1_700_000_000))
    }

    struct HopsRequest {
        @Path var hops: Int = 3
    }

    struct SearchRequest {
        @Query var page: Int = 1
        @QueryMap var filters: [String: String?] = [:]
        @HeaderMap var extraHeaders: [String: String] = [:]
    }

    struct ProfileFormRequest {
        @FormParam var user: String = ""
        @FormMap var fields: [String: String] = [:]
    }

    struct RawTextRequest {
        @RawBody(contentType: "text/markdown; charset=utf-8") var text: String = ""
    }

    struct RawBytesRequest {
        @RawBody var bytes = RawBodyContent(data: Data())
    }

    struct LinkRequest {
        @Url var url: String = ""
        @Query var page: Int = 1
    }

    struct BasicAuthRequest {
        @Path var user: String = "ann"
        @Path var password: String = "s3cret"
    }

    struct StreamLine: Decodable, Equatable {
        var id: Int
        var url: String
    }

    struct StreamRequest {
        @Path var count: Int = 5
    }

    struct DripRequest {
        @Query var numbytes: Int = 1_000
        @Query var duration: Double = 1
        @Query var delay: Double = 0
    }

    // @unchecked Sendable: the fixture adds only endpoint wrappers, set up in init and never reassigned.
    final class Api: Domain, @unchecked Sendable {
        @Get("/get") var get: (EchoRequest) async throws -> Echo
        @Get("/stream/{count}") var streamLines: (StreamRequest) async throws -> JSONLines<StreamLine>
        @Get("/drip") var drip: (DripRequest) async throws -> HTTPResponse<HTTPBodyStream>
        @Post("/post") var postJSON: (NoteRequest) async throws -> Echo
        @Post("/post") var postForm: (FormRequest) async throws -> Echo
        @Post("/post") var upload: (UploadRequest) async throws -> Echo
        @Get("/status/{code}") var status: (StatusRequest) async throws -> Empty
        @Get("/bearer") var bearer: () async throws -> Bearer
        @Post("/redirect-to") var redirectPost: (RedirectRequest) async throws -> HTTPResponse<Echo>
        @Get("/redirect/{hops}") var relativeRedirects: (HopsRequest) async throws -> HTTPResponse<Echo>
        @Get("/absolute-redirect/{hops}") var absoluteRedirects: (HopsRequest) async throws -> HTTPResponse<Echo>
        @Post("/redirect-to") var redirectElsewhere: (RedirectRequest) async throws -> Empty
        @Get("/basic-auth/{user}/{password}") var basicAuth: (BasicAuthRequest) async throws -> BasicAuthResult
        @Get("/get", headers: ["X-Static": "declared"]) var search: (SearchRequest) async throws -> Echo
        @Post("/post") var postProfile: (ProfileFormRequest) async throws -> Echo
        @Post("/post") var postText: (RawTextRequest) async throws -> Echo
        @Put("/put") var putBytes: (RawBytesRequest) async throws -> Echo
        @Get() var follow: (LinkRequest) async throws -> Echo
        @Get("/gzip") var gzip: () async throws -> HTTPResponse<Data>
    }

    private func api(_ kind: TransportKind, sharedHeaders: [String: String]? = nil) throws -> Api {
        let transport = kind.make()
        transport.setConfiguration(baseURL: try Httpbin.baseURL(), sharedHeaders: sharedHeaders)
        return Api(transport: transport)
    }

    @Test("httpbin's /stream/n arrives as JSON Lines, one value per line, in order", arguments: TransportKind.allCases)
    func jsonLines(kind: TransportKind) async throws {
        // Given
        let api = try api(kind)

        // When
        var lines: [StreamLine] = []
        for try await line in try await api.streamLines(StreamRequest(count: 20)) { lines.append(line) }

        // Then
        #expect(lines.map(\.id) == Array(0..<20))
        #expect(lines.allSatisfy { $0.url.hasSuffix("/stream/20") })
    }

    @Test("httpbin's /drip body streams in pieces over a second, every byte counted", arguments: TransportKind.allCases)
    func drip(kind: TransportKind) async throws {
        // Given
        let api = try api(kind)

        // When
        let response = try await api.drip(DripRequest(numbytes: 400, duration: 1))
        var chunks = 0
        var bytes = Data()
        for try await chunk in response.body {
            chunks += 1
            bytes.append(chunk)
        }

        // Then
        #expect(response.statusCode == 200)
        #expect(bytes == Data(repeating: UInt8(ascii: "*"), count: 400))
        #expect(chunks > 1)
    }

    @Test(
        "a gzip-encoded download reports progress to the body the caller gets, finished once at the end, on every transport",
        arguments: TransportKind.allCases)
    func gzipProgress(kind: TransportKind) async throws {
        // Given: /gzip's Content-Length counts the compressed bytes
        let api = try api(kind)
        let reports = Locked<[TransferProgress]>([])

        // When
        let response = try await TransferProgress.observe({ report in reports.withLock { $0.append(report) } }) { try await api.gzip() }

        // Then: both transports decompressed the body past its Content-Length (async-http-client as configured like
        // HTTPClient.shared)
        let body = response.body
        let compressedSize = try #require(response.headers["Content-Length"].flatMap { Int($0) })
        #expect(body.count > compressedSize)
        let downloads = reports.current.filter { $0.direction == .download }
        let completed = downloads.map(\.completedBytes)
        #expect(zip(completed, completed.dropFirst()).allSatisfy { $0 <= $1 }, "not monotonic: \(completed)")
        #expect(downloads.filter(\.isFinished).count == 1)
        #expect(downloads.last?.isFinished == true)
        #expect(downloads.last?.completedBytes == Int64(body.count))
    }

    @Test("query values and headers arrive as sent, decoded by the server", arguments: TransportKind.allCases)
    func queryAndHeaders(kind: TransportKind) async throws {
        // Given
        let api = try api(kind, sharedHeaders: ["X-Client": "retroswift"])
        let text = "a+b&c=d#e f/g?h é😀"

        // When
        let echo = try await api.get(EchoRequest(text: text, page: 3, flag: true, accountId: "acc 1"))

        // Then
        #expect(echo.args == ["text": text, "page": "3", "flag": "true"])
        #expect(echo.headers["X-Account-Id"] == "acc 1")
        #expect(echo.headers["X-Client"] == "retroswift")
    }

    @Test(
        "@QueryMap, @HeaderMap and @FormMap entries arrive as separate, encoded fields; nil is left out",
        arguments: TransportKind.allCases)
    func maps(kind: TransportKind) async throws {
        // Given
        let api = try api(kind)
        let tricky = "a+b&c=d#e f/g?h é"

        // When
        let search = try await api.search(
            SearchRequest(
                page: 2, filters: ["q": tricky, "sort": "name", "unset": nil, "ünïcode key": "1"],
                extraHeaders: ["X-Trace": "t-1", "X-Static": "from map"]))
        let profile = try await api.postProfile(ProfileFormRequest(user: "ann", fields: ["bio": tricky, "city": "Zürich"]))

        // Then
        #expect(search.args == ["page": "2", "q": tricky, "sort": "name", "ünïcode key": "1"])
        #expect(search.headers["X-Trace"] == "t-1")
        #expect(search.headers["X-Static"] == "from map")
        #expect(profile.form == ["user": "ann", "bio": tricky, "city": "Zürich"])
    }

    @Test("raw text and bytes bodies arrive as sent, with their media types", arguments: TransportKind.allCases)
    func rawBodies(kind: TransportKind) async throws {
        // Given
        let api = try api(kind)
        let text = "# Title\n\nsome *text* é😀\n"

        // When
        let posted = try await api.postText(RawTextRequest(text: text))
        let put = try await api.putBytes(RawBytesRequest(bytes: RawBodyContent(data: Data("GIF89a".utf8), contentType: "image/gif")))

        // Then
        #expect(posted.data == text)
        #expect(posted.headers["Content-Type"] == "text/markdown; charset=utf-8")
        #expect(posted.form == [:])
        #expect(put.data == "GIF89a")
        #expect(put.headers["Content-Type"] == "image/gif")
    }

    @Test("a JSON body round-trips, dates as whole epoch milliseconds", arguments: TransportKind.allCases)
    func json(kind: TransportKind) async throws {
        // Given
        let api = try api(kind)
        let note = Note(text: "héllo \"world\"", at: Date(timeIntervalSince1970: 1_700_000_000.123_456))

        // When
        let echo = try await api.postJSON(NoteRequest(note: note))

        // Then
        #expect(echo.json == Note(text: note.text, at: Date(timeIntervalSince1970: 1_700_000_000.123)))
        #expect(echo.headers["Content-Type"] == "application/json")
    }

    @Test("form-urlencoded and multipart forms are parsed by the server as sent", arguments: TransportKind.allCases)
    func forms(kind: TransportKind) async throws {
        // Given
        let api = try api(kind)
        let file = FormFile.File(fileName: "notes.txt", mimeType: "text/plain", content: Data("line one\nline two".utf8))

        // When
        let form = try await api.postForm(FormRequest(user: "ann@example.com", password: "p&s=s +1"))
        let upload = try await api.upload(UploadRequest(modelId: "scribe_v1", file: file))

        // Then
        #expect(form.form == ["user": "ann@example.com", "pass word": "p&s=s +1"])
        #expect(upload.form == ["model_id": "scribe_v1"])
        #expect(upload.files == ["file": "line one\nline two"])
    }

    @Test("statuses: 2xx satisfy Empty, others throw HTTPError with the status", arguments: TransportKind.allCases)
    func statuses(kind: TransportKind) async throws {
        // Given
        let api = try api(kind)

        // When
        _ = try await api.status(StatusRequest(code: 204))
        let error = await #expect(throws: HTTPError.self) { _ = try await api.status(StatusRequest(code: 418)) }

        // Then
        #expect(error?.statusCode == 418)
    }

    @Test(
        "a Bearer challenge comes back as HTTPError without credentials, and the token is sent once configured",
        arguments: TransportKind.allCases)
    func bearer(kind: TransportKind) async throws {
        // Given
        let api = try api(kind)

        // When
        let challenge = await #expect(throws: HTTPError.self) { _ = try await api.bearer() }
        api.interceptors = [BearerAuthInterceptor(store: BearerTokenStore(token: "t0k") { _ in "t0k" })]
        let authenticated = try await api.bearer()

        // Then
        #expect(challenge?.statusCode == 401)
        #expect(challenge?.headers["WWW-Authenticate"] == "Bearer")
        #expect(authenticated == Bearer(authenticated: true, token: "t0k"))
    }

    @Test("a 307 or 308 repeats the POST with its JSON body; a 302 turns it into a GET without one", arguments: TransportKind.allCases)
    func redirectsKeepOrDropTheBody(kind: TransportKind) async throws {
        // Given
        let api = try api(kind, sharedHeaders: ["Authorization": "Bearer shared"])
        let note = Note(text: "moved", at: Date(timeIntervalSince1970: 1_700_000_000))

        // When
        let temporary = try await api.redirectPost(RedirectRequest(status: 307))
        let permanent = try await api.redirectPost(RedirectRequest(status: 308))
        let found = try await api.redirectPost(RedirectRequest(status: 302))

        // Then
        for kept in [temporary, permanent] {
            #expect(kept.body.method == "POST")
            #expect(kept.body.json == note)
            #expect(kept.body.headers["Authorization"] == "Bearer shared")
            #expect(kept.body.headers["Cookie"] == "session=1")
            #expect(kept.url == (try Httpbin.baseURL()).appendingPathComponent("anything"))
        }
        #expect(found.body.method == "GET")
        #expect(found.body.json == nil)
        #expect(found.body.headers["Content-Type"] == nil)
    }

    @Test("relative and absolute redirect chains end at the final URL", arguments: TransportKind.allCases)
    func redirectChains(kind: TransportKind) async throws {
        // Given
        let api = try api(kind)

        // When
        let relative = try await api.relativeRedirects(HopsRequest(hops: 3))
        let absolute = try await api.absoluteRedirects(HopsRequest(hops: 2))

        // Then
        #expect(relative.statusCode == 200)
        #expect(relative.url?.path == "/get")
        #expect(absolute.url?.path == "/get")
        #expect(absolute.body.url.hasSuffix("/get"))
    }

    @Test("a redirect from httpbin to another origin brings neither shared nor own credentials", arguments: TransportKind.allCases)
    func redirectToAnotherOrigin(kind: TransportKind) async throws {
        // Given: our scripted server on another port of 127.0.0.1 is another origin
        let elsewhere = try await TestServer.start { _ in ScriptedResponse(status: 204) }
        let api = try api(kind, sharedHeaders: ["Authorization": "Bearer shared", "X-Client": "app"])

        // When
        let result = await Result {
            try await api.redirectElsewhere(RedirectRequest(url: elsewhere.baseURL.absoluteString + "/landed", status: 307))
        }
        await elsewhere.stop()

        // Then
        _ = try result.get()
        let landed = try #require(elsewhere.requests.first)
        #expect(landed.method == "POST")
        #expect(landed.header("Authorization") == nil)
        #expect(landed.header("Cookie") == nil)
        #expect(landed.header("X-Client") == "app")
        #expect(landed.header("Content-Type") == "application/json")
    }

    @Test(
        "@Url: a path and a full link on httpbin's origin arrive as sent, the URL's query before the fields'",
        arguments: TransportKind.allCases)
    func dynamicURL(kind: TransportKind) async throws {
        // Given
        let api = try api(kind, sharedHeaders: ["X-Client": "retroswift"])
        let link = try Httpbin.baseURL().absoluteString + "/anything/next?cursor=a%2Bb"

        // When
        let path = try await api.follow(LinkRequest(url: "anything/a b/ü?tag=x y", page: 2))
        let full = try await api.follow(LinkRequest(url: link, page: 3))

        // Then
        #expect(path.args == ["tag": "x y", "page": "2"])
        // httpbin shows the path decoded from UTF-8 (the exact bytes are checked against the scripted server).
        #expect(path.url.hasSuffix("/anything/a%20b/ü?tag=x%20y&page=2"))
        #expect(full.args == ["cursor": "a+b", "page": "3"])
        #expect(full.url == link + "&page=3")
        #expect(full.headers["X-Client"] == "retroswift")
    }

    /// Replaces `page` on every call, as a paging or signing interceptor would.
    private struct PageSetter: Interceptor {
        func intercept(_ request: HttpRequestParams, next: InterceptorNext) async throws -> HttpOperationResult {
            try await next(request.settingQueryItem("page", to: "9 & 10").removingQueryItem("flag"))
        }
    }

    @Test("query items that interceptors add, replace and remove arrive as the server decodes them", arguments: TransportKind.allCases)
    func interceptorQueryItems(kind: TransportKind) async throws {
        // Given
        let api = try api(kind)
        api.interceptors = [SharedQueryItemsInterceptor(["api_key": "k+1/é", "format": "json", "text": "not sent"]), PageSetter()]

        // When
        let echo = try await api.get(EchoRequest(text: "own", page: 3, flag: true))

        // Then
        #expect(echo.args == ["text": "own", "page": "9 & 10", "api_key": "k+1/é", "format": "json"])
    }

    @Test("Basic auth: a 401 without a configured credential, 200 with one from an interceptor", arguments: TransportKind.allCases)
    func basicAuthThroughAnInterceptor(kind: TransportKind) async throws {
        // Given
        let api = try api(kind)

        // When
        let challenge = await #expect(throws: HTTPError.self) { _ = try await api.basicAuth(BasicAuthRequest()) }
        api.interceptors = [BasicAuthorizing(user: "ann", password: "s3cret")]
        let authenticated = try await api.basicAuth(BasicAuthRequest())

        // Then
        #expect(challenge?.statusCode == 401)
        #expect(challenge?.headers["WWW-Authenticate"] == "Basic realm=\"Fake Realm\"")
        #expect(authenticated == BasicAuthResult(authenticated: true, user: "ann"))
    }

    @Test("Basic auth through URLSession's own credential handling: answered once, only with the configured credential")
    func basicAuthThroughURLSession() async throws {
        // Given
        let right = URLSessionTransport(
            configuration: .ephemeral, credential: URLCredential(user: "ann", password: "s3cret", persistence: .none))
        let wrong = URLSessionTransport(
            configuration: .ephemeral, credential: URLCredential(user: "ann", password: "nope", persistence: .none))
        right.setConfiguration(baseURL: try Httpbin.baseURL(), sharedHeaders: nil)
        wrong.setConfiguration(baseURL: try Httpbin.baseURL(), sharedHeaders: nil)

        // When
        let authenticated = try await Api(transport: right).basicAuth(BasicAuthRequest())
        let refused = await #expect(throws: HTTPError.self) { _ = try await Api(transport: wrong).basicAuth(BasicAuthRequest()) }

        // Then
        #expect(authenticated == BasicAuthResult(authenticated: true, user: "ann"))
        #expect(refused?.statusCode == 401)
    }

    private struct BasicAuthorizing: Interceptor {
        let user: String
        let password: String

        func intercept(_ request: HttpRequestParams, next: InterceptorNext) async throws -> HttpOperationResult {
            try await next(request.settingHeader("Authorization", to: "Basic " + Data("\(user):\(password)".utf8).base64EncodedString()))
        }
    }
}

/// Kilo's and Echo's everyday calls, declared the RetroSwift way, against httpbin.
@Suite(
    "End to end: Echo's and Kilo's calls against httpbin",
    .enabled(if: Httpbin.enabled, "set RETROSWIFT_HTTPBIN_URL to a local httpbin (bash .ci/run starts one)"),
    .timeLimit(.minutes(4))
)
struct HttpbinPeerBehaviourTests {
    /// httpbin's echo, with repeated arguments and form fields as lists.
    struct Echo: Decodable {
        var args: [String: HttpbinInvokeTests.Argument]
        var form: [String: HttpbinInvokeTests.Argument]?
    }

    struct FormRequest {
        @FormParam var name: String = ""
        @FormParam("number") var numbers: [Int] = []
        @FormParam var date: Date = Date(timeIntervalSince1970: 0)
        @FormParam var flag: Bool = false
        @FormParam var unset: String? = nil
    }

    struct ArgumentsRequest {
        @Query var id: Int = 0
        @Query("value") var values: [String] = []
        @Query var date: Date = Date(timeIntervalSince1970: 0)
    }

    // @unchecked Sendable: the fixture adds only endpoint wrappers, set up in init and never reassigned.
    final class Api: ApiDomain, @unchecked Sendable {
        @Post("/post") var postForm: (FormRequest) async throws -> Echo
        @Put("/put") var put: (ArgumentsRequest) async throws -> Echo
        @Delete("/delete") var delete: (ArgumentsRequest) async throws -> Echo
    }

    @Test(
        "a URL-encoded POST with arrays and dates; PUT and DELETE with query arguments (Kilo's rules)",
        arguments: TransportKind.allCases)
    func formAndArguments(kind: TransportKind) async throws {
        // Given
        let api = Api(transport: kind.make(), baseURL: try Httpbin.baseURL())
        let date = Date(timeIntervalSince1970: 1_700_000_000.5)
        let arguments = ArgumentsRequest(id: 101, values: ["a b", "ç"], date: date)

        // When
        let posted = try await api.postForm(FormRequest(name: "héllo wörld", numbers: [1, 2, 3], date: date, flag: true))
        let put = try await api.put(arguments)
        let deleted = try await api.delete(arguments)

        // Then
        #expect(
            posted.form == [
                "name": .one("héllo wörld"), "number": .many(["1", "2", "3"]), "date": .one("1700000000500"), "flag": .one("true"),
            ])
        #expect(posted.args == [:])
        for echo in [put, deleted] {
            #expect(echo.args == ["id": .one("101"), "value": .many(["a b", "ç"]), "date": .one("1700000000500")])
        }
    }
}

@Suite(
    "End to end: invoke against httpbin",
    .enabled(if: Httpbin.enabled, "set RETROSWIFT_HTTPBIN_URL to a local httpbin (bash .ci/run starts one)"),
    .timeLimit(.minutes(4))
)
struct HttpbinInvokeTests {
    /// httpbin's echo, with repeated query arguments as lists.
    struct Echo: Decodable {
        var args: [String: Argument]
        var json: HttpbinTests.Note?
        var headers: [String: String]
    }

    enum Argument: Decodable, Equatable {
        case one(String)
        case many([String])

        init(from decoder: any Decoder) throws {
            let container = try decoder.singleValueContainer()
            if let one = try? container.decode(String.self) {
                self = .one(one)
            } else {
                self = .many(try container.decode([String].self))
            }
        }
    }

    // @unchecked Sendable: no endpoints; the domain's settings are behind its lock.
    final class Api: Domain, @unchecked Sendable {}

    @Test("GET with arguments, POST with a JSON body, and a 404, all without declaring an endpoint", arguments: TransportKind.allCases)
    func invoke(kind: TransportKind) async throws {
        // Given
        let api = Api(transport: kind.make())
        api.setConfiguration(baseURL: try Httpbin.baseURL(), sharedHeaders: ["X-Client": "invoke"])
        let note = HttpbinTests.Note(text: "ad hoc", at: Date(timeIntervalSince1970: 1_700_000_000))

        // When
        let got: Echo = try await api.invoke(
            .get, path: "get", arguments: ["count": 8, "tag": ["a", "b&c"], "since": Date(timeIntervalSince1970: 1.5)])
        let posted: Echo = try await api.invoke(.post, path: "/post", json: note)
        let missing = await #expect(throws: HTTPError.self) { try await api.invoke(.get, path: "status/404", returning: Empty.self) }

        // Then
        #expect(got.args == ["count": .one("8"), "tag": .many(["a", "b&c"]), "since": .one("1500")])
        #expect(got.headers["X-Client"] == "invoke")
        #expect(posted.json == note)
        #expect(missing?.statusCode == 404)
    }
}
