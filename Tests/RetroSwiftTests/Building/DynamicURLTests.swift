import Foundation
import RetroSwiftTesting
import Testing

@testable import RetroSwift

@Suite("@Url: the URL of one call")
struct DynamicURLTests {
    private struct FileRequest {
        @Url var url: String = ""
        @Query var page: Int? = nil
        @Header("Authorization") var authorization: String? = nil
    }

    private struct LinkRequest {
        @Url var link: URL
    }

    private struct UploadRequest {
        @Url var url: String = ""
        @RawBody var content: Data = Data()
    }

    // @unchecked Sendable: the fixture adds only endpoint wrappers, set up in init and never reassigned.
    private final class Api: Domain, @unchecked Sendable {
        @Get() var file: (FileRequest) async throws -> Empty
        @Get() var link: (LinkRequest) async throws -> Empty
        @Put() var upload: (UploadRequest) async throws -> Empty
        @Get(otherHosts: .allowing(["cdn.example", "[::1]"])) var cdnFile: (FileRequest) async throws -> Empty
        @Get(otherHosts: .allowing(["cdn.example"], sharingCredentials: true)) var trustedFile: (FileRequest) async throws -> Empty
        @Get(otherHosts: .allowingAnyHost()) var anyFile: (FileRequest) async throws -> Empty
    }

    /// Adds `Authorization` to every request, as a token interceptor does.
    private struct TokenInterceptor: Interceptor {
        func intercept(_ request: HttpRequestParams, next: InterceptorNext) async throws -> HttpOperationResult {
            try await next(request.settingHeader("Authorization", to: "Bearer interceptor").settingHeader("X-Trace", to: "t1"))
        }
    }

    private static let shared = ["Authorization": "Bearer shared", "X-Api-Key": "k", "User-Agent": "app"]

    private func api(baseURL: String = "https://api.example/v2") -> (Api, RecordingTransport) {
        let transport = RecordingTransport()
        transport.setConfiguration(baseURL: URL(string: baseURL)!, sharedHeaders: Self.shared)
        return (Api(transport: transport), transport)
    }

    private func sentURL(_ transport: RecordingTransport) throws -> String? {
        transport.lastRequest.map { $0.url.absoluteString }
    }

    private func sentHeaders(_ request: HttpRequestParams?) -> [String] {
        (request?.headerFields(sharedHeaders: Self.shared) ?? []).map { "\($0.name): \($0.value)" }
    }

    @Test(
        "a path goes after the base URL, base path kept, like a declared path; @Query fields follow the URL's own query",
        arguments: [
            ("files/42?rev=3", 2, "https://api.example/v2/files/42?rev=3&page=2"),
            ("/files/42", nil, "https://api.example/v2/files/42"),
            ("/files/a b/ü?q=x y&z=%41#top", nil, "https://api.example/v2/files/a%20b/%C3%BC?q=x%20y&z=%41"),
            ("/100%/{id}?pct=%zz", 1, "https://api.example/v2/100%25/%7Bid%7D?pct=%25zz&page=1"),
            ("?page=3", nil, "https://api.example/v2/?page=3"),
            ("/x#\u{301}y", nil, "https://api.example/v2/x"),
        ] as [(String, Int?, String)])
    func relative(value: String, page: Int?, expected: String) async throws {
        // Given
        let (api, transport) = api()

        // When
        _ = try await api.file(FileRequest(url: value, page: page))

        // Then
        #expect(try sentURL(transport) == expected)
        #expect(transport.lastRequest?.absoluteURL == nil)
        #expect(sentHeaders(transport.lastRequest) == ["Authorization: Bearer shared", "User-Agent: app", "X-Api-Key: k"])
    }

    @Test("the query items list the URL's own first, decoded, then the fields'")
    func queryItems() async throws {
        // Given
        let (api, transport) = api()

        // When
        _ = try await api.file(FileRequest(url: "/search?q=a%20b&tag=x", page: 2))

        // Then
        #expect(
            transport.lastRequest?.queryItems == [
                .init(name: "q", value: "a b"), .init(name: "tag", value: "x"), .init(name: "page", value: "2"),
            ])
        #expect(transport.lastRequest?.encodedPathAndQuery == "/search?q=a%20b&tag=x&page=2")
    }

    @Test("a full URL on the base URL's origin is requested as it is, shared headers and credentials included")
    func sameOrigin() async throws {
        // Given
        let (api, transport) = api()
        api.interceptors = [TokenInterceptor()]

        // When
        _ = try await api.file(FileRequest(url: "HTTPS://API.example:443/elsewhere?x=1", page: 4))
        _ = try await api.link(LinkRequest(link: URL(string: "https://api.example/next?cursor=abc")!))

        // Then
        let requests = transport.requests
        #expect(requests.first?.absoluteURL?.absoluteString == "https://API.example:443/elsewhere?x=1&page=4")
        #expect(requests.first?.encodedPathAndQuery == "/elsewhere?x=1&page=4")
        #expect(try sentURL(transport) == "https://api.example/next?cursor=abc")
        #expect(
            sentHeaders(requests.first)
                == ["User-Agent: app", "X-Api-Key: k", "Authorization: Bearer interceptor", "X-Trace: t1"])
    }

    @Test("a full URL on another origin is refused unless the endpoint allows its host; nothing is sent")
    func otherOriginRefused() async throws {
        // Given
        let (api, transport) = api()

        // When
        let otherHost = await #expect(throws: RequestError.self) {
            _ = try await api.file(FileRequest(url: "https://evil.example/steal"))
        }
        let otherScheme = await #expect(throws: RequestError.self) {
            _ = try await api.file(FileRequest(url: "http://api.example/v2/files"))
        }
        let notListed = await #expect(throws: RequestError.self) {
            _ = try await api.cdnFile(FileRequest(url: "https://cdn.example.evil.example/x"))
        }

        // Then
        #expect(
            otherHost?.description == """
                Api.file (GET @Url), field 'url': the URL 'https://evil.example/steal' leads to another origin than the \
                base URL's (https://api.example/v2); nothing was sent. To allow it, declare the endpoint with \
                otherHosts: .allowing(["evil.example"])
                """)
        #expect(otherHost?.kind == .invalidValue)
        #expect(otherScheme?.field == "url")
        #expect(notListed?.reason.hasPrefix("the URL 'https://cdn.example.evil.example/x' leads to another origin") == true)
        #expect(transport.requests.isEmpty)
    }

    @Test("an allowed other host gets no shared headers and no credentials an interceptor adds; the request's own stay")
    func otherOriginAllowed() async throws {
        // Given
        let (api, transport) = api()
        api.interceptors = [TokenInterceptor()]

        // When
        _ = try await api.cdnFile(FileRequest(url: "https://CDN.example/a.png"))
        _ = try await api.cdnFile(FileRequest(url: "https://cdn.example/b.png", authorization: "Bearer own"))
        _ = try await api.cdnFile(FileRequest(url: "http://[::1]:8080/c.png"))
        _ = try await api.trustedFile(FileRequest(url: "https://cdn.example/d.png"))

        // Then
        let requests = transport.requests
        let urls: [String?] = requests.map { $0.absoluteURL?.absoluteString }
        let expected: [String?] = [
            "https://CDN.example/a.png", "https://cdn.example/b.png", "http://[::1]:8080/c.png", "https://cdn.example/d.png",
        ]
        #expect(urls == expected)
        #expect(sentHeaders(requests[0]) == ["X-Trace: t1"])
        #expect(sentHeaders(requests[1]) == ["X-Trace: t1", "Authorization: Bearer own"])
        #expect(sentHeaders(requests[2]) == ["X-Trace: t1"])
        #expect(requests[0].withholdsSharedHeaders && requests[0].withheldSharedHeaders.contains("authorization"))
        #expect(
            sentHeaders(requests[3]) == ["User-Agent: app", "X-Api-Key: k", "Authorization: Bearer interceptor", "X-Trace: t1"])
        #expect(!requests[3].withholdsSharedHeaders)
    }

    @Test("credentials are never shared over plain http from an https base, and another scheme on the base host is named")
    func noCredentialsOverHTTP() async throws {
        // Given
        let (api, transport) = api()
        api.interceptors = [TokenInterceptor()]

        // When
        _ = try await api.trustedFile(FileRequest(url: "http://cdn.example/d.png"))
        let sameHost = await #expect(throws: RequestError.self) {
            _ = try await api.file(FileRequest(url: "http://api.example/v2/x"))
        }

        // Then
        #expect(sentHeaders(transport.lastRequest) == ["X-Trace: t1"])
        #expect(
            sameHost?.reason == """
                the URL 'http://api.example/v2/x' leads to another origin than the base URL's (https://api.example/v2) \
                (the same host with another scheme or port); nothing was sent. To allow it, declare the endpoint with \
                otherHosts: .allowing(["api.example"])
                """)
    }

    @Test("a 401 from another origin, which never saw the token, does not make BearerAuthInterceptor refresh it")
    func bearerSkipsOtherOrigins() async throws {
        // Given
        let refreshes = Counter()
        let transport = RecordingTransport { params in
            HttpOperationResult(statusCode: params.absoluteURL?.host == "cdn.example" ? 401 : 200)
        }
        transport.setConfiguration(baseURL: URL(string: "https://api.example")!, sharedHeaders: nil)
        let api = Api(transport: transport)
        api.interceptors = [
            BearerAuthInterceptor(
                store: BearerTokenStore(token: "t0") { _ in
                    await refreshes.increment()
                    return "t1"
                })
        ]

        // When
        let error = await #expect(throws: HTTPError.self) { _ = try await api.cdnFile(FileRequest(url: "https://cdn.example/a.png")) }
        _ = try await api.file(FileRequest(url: "/own"))

        // Then
        #expect(error?.statusCode == 401)
        #expect(await refreshes.value == 0)
        #expect(transport.requests.map { $0.header("Authorization") } == [nil, "Bearer t0"])
    }

    private actor Counter {
        var value = 0
        func increment() {
            value += 1
        }
    }

    @Test("the domain's own base URL decides the origin; a transport that keeps its base URL to itself makes every full URL another origin")
    func originSources() async throws {
        // Given
        let transport = RecordingTransport()
        transport.setConfiguration(baseURL: URL(string: "https://transport.example")!, sharedHeaders: nil)
        let domainAPI = Api(transport: transport)
        domainAPI.setConfiguration(baseURL: URL(string: "https://domain.example/api")!)
        let opaqueAPI = Api(transport: BareTransport { try await transport.sendRequest(with: $0) })

        // When
        _ = try await domainAPI.file(FileRequest(url: "https://domain.example/x"))
        let toTransportOrigin = await #expect(throws: RequestError.self) {
            _ = try await domainAPI.file(FileRequest(url: "https://transport.example/x"))
        }
        let opaque = await #expect(throws: RequestError.self) {
            _ = try await opaqueAPI.file(FileRequest(url: "https://transport.example/x"))
        }
        _ = try await opaqueAPI.file(FileRequest(url: "/relative"))

        // Then
        #expect(transport.requests.map { $0.absoluteURL?.absoluteString ?? $0.encodedPath } == ["https://domain.example/x", "/relative"])
        #expect(toTransportOrigin?.reason.contains("than the base URL's (https://domain.example/api)") == true)
        #expect(opaque?.reason.contains("than the base URL's, which the transport does not tell") == true)
    }

    @Test(
        "values that cannot be sent are a RequestError naming the field, and nothing is sent",
        arguments: [
            (
                "", "the URL is empty; give a path such as '/items' or a full URL"
            ),
            (
                "/a/../admin",
                "the URL '/a/../admin' has a '.' or '..' segment, which would lead out of the base path; give the path without them"
            ),
            (
                "/a/%2E%2e/admin",
                "the URL '/a/%2E%2e/admin' has a '.' or '..' segment, which would lead out of the base path; give the path without them"
            ),
            (
                "//evil.example/x",
                "the URL '//evil.example/x' names a host without a scheme; write it in full with http:// or https://"
            ),
            (
                "javascript:alert(1)",
                "the URL 'javascript:alert(1)' has the scheme 'javascript'; only http and https are sent (a path whose "
                    + "first segment holds ':' must start with '/')"
            ),
            (
                "https://user:secret@api.example/x",
                "the URL 'https://user:secret@api.example/x' carries user information (user:password@), which would be "
                    + "sent as credentials; remove it and send credentials in a header"
            ),
            ("https:/x", "the URL 'https:/x' has no host; write scheme://host/path"),
            ("https://api.example:99999/x", "the URL 'https://api.example:99999/x' has no valid host and port"),
            ("https:///x", "the URL 'https:///x' has no valid host and port"),
            ("/a\r\nX-Injected: 1", "the URL '/a\\r\\nX-Injected: 1' contains a carriage return (CR); nothing was sent"),
            // A combining mark after a delimiter makes one Character, but the bytes on the wire still start with "//".
            (
                "//\u{034F}evil.example/x",
                "the URL '//\u{034F}evil.example/x' names a host without a scheme; write it in full with http:// or https://"
            ),
            ("https://api%2Eexample/x", "the URL 'https://api%2Eexample/x' has no valid host and port"),
            ("https://[v1.fe]/x", "the URL 'https://[v1.fe]/x' has no valid host and port"),
            (
                "/v2/..%2F..%2Fadmin",
                "the URL '/v2/..%2F..%2Fadmin' has a '.' or '..' segment, which would lead out of the base path; give the path without them"
            ),
            (
                "/a/..%5Cadmin",
                "the URL '/a/..%5Cadmin' has a '.' or '..' segment, which would lead out of the base path; give the path without them"
            ),
            (
                "/a/..;x/admin",
                "the URL '/a/..;x/admin' has a '.' or '..' segment, which would lead out of the base path; give the path without them"
            ),
            (
                "https://api.example/a/../b",
                "the URL 'https://api.example/a/../b' has a '.' or '..' segment, which would lead out of the path it names; "
                    + "give the path without them"
            ),
            (" /x", "the URL ' /x' starts or ends with a space; trim it"),
            // Found by fuzzing (Fuzz/Corpus/dynamic-url/regression-*): an escape that is not UTF-8 hid the `..` before it.
            (
                "/..%2F%FF",
                "the URL '/..%2F%FF' has a '.' or '..' segment, which would lead out of the base path; give the path without them"
            ),
            (
                "/..\\%FF",
                "the URL '/..\\%FF' has a '.' or '..' segment, which would lead out of the base path; give the path without them"
            ),
            (
                "https://api.example/v1/..%2F%FF/admin",
                "the URL 'https://api.example/v1/..%2F%FF/admin' has a '.' or '..' segment, which would lead out of the path it "
                    + "names; give the path without them"
            ),
        ])
    func refusedValues(value: String, reason: String) async throws {
        // Given
        let (api, transport) = api()

        // When
        let error = await #expect(throws: RequestError.self) { _ = try await api.file(FileRequest(url: value)) }

        // Then
        #expect(error?.reason == reason)
        #expect(error?.field == "url")
        #expect(error?.kind == .invalidValue)
        #expect(transport.requests.isEmpty)
    }

    @Test("a nil URL is refused; a body goes along with a @Url as with a declared path")
    func nilAndBody() async throws {
        // Given
        struct OptionalRequest {
            @Url var url: String? = nil
        }
        final class OptionalApi: Domain, @unchecked Sendable {
            @Delete() var remove: (OptionalRequest) async throws -> Empty
        }
        let (api, transport) = api()
        let optionalAPI = OptionalApi(transport: transport)

        // When
        let error = await #expect(throws: RequestError.self) { _ = try await optionalAPI.remove(OptionalRequest()) }
        _ = try await api.upload(UploadRequest(url: "uploads/1", content: Data("abc".utf8)))

        // Then
        #expect(error?.description == "OptionalApi.remove (DELETE @Url), field 'url': the URL is nil; every call needs one")
        #expect(transport.lastRequest?.method == .put)
        #expect(try sentURL(transport) == "https://api.example/v2/uploads/1")
        #expect(transport.lastRequest?.payload?.contentType == "application/octet-stream")
    }

    @Test("any string is either refused or sent as a valid URL under the base path (property test, 3,000 values)")
    func anyString() async throws {
        // Given: strings drawn from URL syntax, bytes that need encoding and the ones the parser treats specially
        let (api, transport) = api()
        let alphabet: [String] = [
            "a", "Z", "0", "/", "?", "#", "%", "%2", "%2e", "%2F", ".", "..", ":", "@", "//", "http", "https", "://",
            "&", "=", "+", " ", "é", "\u{1F600}", "[", "]", "{", "}", "\\", "\"", "<", "|", "~", "\t", ";", ",",
        ]
        var generator = SeededGenerator(state: 0x5EED)

        for _ in 0..<3_000 {
            let count = Int(generator.next() % 12)
            let value = (0..<count).map { _ in alphabet[Int(generator.next() % UInt64(alphabet.count))] }.joined()
            let before = transport.requests.count

            // When
            var failure: (any Error)?
            do {
                _ = try await api.anyFile(FileRequest(url: value))
            } catch {
                failure = error
            }

            // Then: a refusal names the field and sends nothing; a request is a URL that parses back to itself
            switch failure {
            case let error as RequestError:
                #expect(error.field == "url" && transport.requests.count == before, "\(value)")
            case let error?:
                Issue.record("\(value): \(error)")
            case nil:
                let request = try #require(transport.lastRequest)
                let url = request.url
                let components = try #require(URLComponents(url: url, resolvingAgainstBaseURL: false), "\(value)")
                #expect(components.percentEncodedPath.hasPrefix("/"), "\(value)")
                #expect(components.fragment == nil, "\(value)")
                let segments = components.percentEncodedPath.split(separator: "/").map { $0.removingPercentEncoding ?? "" }
                #expect(!segments.contains(".") && !segments.contains(".."), "\(value)")
                if request.absoluteURL == nil {
                    #expect(url.absoluteString.hasPrefix("https://api.example/v2/"), "\(value)")
                }
            }
        }
    }
}

extension DynamicURLTests {
    private struct TwoURLsRequest {
        @Url var first: String = "/a"
        @Url var second: URL = URL(string: "/b")!
        @Path var id: String = "1"
    }

    private struct BadURLRequest {
        @Url("link") var link: Int = 1
    }

    private struct NoURLRequest {
        @Query var page: Int = 1
    }

    // @unchecked Sendable: the fixture adds only endpoint wrappers, set up in init and never reassigned.
    private final class MistakenApi: Domain, @unchecked Sendable {
        @Get("/files/{id}") var twoURLs: (TwoURLsRequest) async throws -> Empty
        @Post() var badURL: (BadURLRequest) async throws -> Empty
        @Get(otherHosts: .allowing(["https://cdn.example/", "cdn.example:8080", ""])) var noURL: (NoURLRequest) async throws -> Empty
        @Get("") var nothing: () async throws -> Empty
    }

    @Test("declaration mistakes around @Url are collected with exact messages, from a value and from the types alone")
    func declarationMistakes() async throws {
        // Given
        let transport = RecordingTransport()
        transport.setConfiguration(baseURL: URL(string: "https://api.example")!, sharedHeaders: nil)
        let api = MistakenApi(transport: transport)

        // When
        let twoURLs = await #expect(throws: DeclarationError.self) { _ = try await api.twoURLs(TwoURLsRequest()) }
        let badURL = await #expect(throws: DeclarationError.self) { _ = try await api.badURL(BadURLRequest()) }
        let noURL = await #expect(throws: DeclarationError.self) { _ = try await api.noURL(NoURLRequest()) }
        let nothing = await #expect(throws: DeclarationError.self) { _ = try await api.nothing() }
        let validated = #expect(throws: DeclarationError.self) { try api.validateEndpoints() }

        // Then
        #expect(
            twoURLs?.description == """
                RetroSwift found 3 declaration mistakes:
                - MistakenApi.twoURLs (GET /files/{id}): 2 @Url fields ('first', 'second'); a call has one URL. Fix: keep \
                one of them.
                - MistakenApi.twoURLs (GET /files/{id}), field 'first': @Url 'first' on an endpoint declared with the path \
                '/files/{id}'; the @Url field gives the whole path. Fix: declare the endpoint without a path, as @Get(), or \
                drop the @Url field.
                - MistakenApi.twoURLs (GET /files/{id}), field 'id': @Path 'id' has no placeholder to fill: the path comes \
                from @Url 'first'. Fix: put the value into the URL, or declare a path template instead of the @Url field.
                """)
        #expect(
            badURL?.description == """
                RetroSwift found 2 declaration mistakes:
                - MistakenApi.badURL (POST @Url), field 'link': @Url 'link' has type Int, which is not a URL. Fix: declare \
                it as String or URL.
                - MistakenApi.badURL (POST @Url), field 'link': @Url 'link' is given the name 'link', but a URL is not sent \
                under a name. Fix: drop the name argument.
                """)
        #expect(
            noURL?.description == """
                RetroSwift found 5 declaration mistakes:
                - MistakenApi.noURL (GET @Url): the endpoint has no path and NoURLRequest has no @Url field. Fix: give the \
                endpoint a path, such as @Get("/items"), or add `@Url var url: String = ""` to the request.
                - MistakenApi.noURL (GET @Url): otherHosts: is set, but NoURLRequest has no @Url field, so every call goes \
                to the base URL. Fix: drop otherHosts:, or add a @Url field to the request.
                - MistakenApi.noURL (GET @Url): otherHosts lists '', which is not a host name. Fix: list host names only, \
                such as 'cdn.example.com', without scheme, port or path.
                - MistakenApi.noURL (GET @Url): otherHosts lists 'cdn.example:8080', which is not a host name. Fix: list \
                host names only, such as 'cdn.example.com', without scheme, port or path.
                - MistakenApi.noURL (GET @Url): otherHosts lists 'https://cdn.example/', which is not a host name. Fix: \
                list host names only, such as 'cdn.example.com', without scheme, port or path.
                """)
        #expect(
            nothing?.description == """
                RetroSwift found 1 declaration mistake:
                - MistakenApi.nothing (GET @Url): the endpoint has no path, and no request whose @Url field could give \
                one. Fix: give it a path, such as @Get("/items").
                """)
        // From the types alone the name argument cannot be seen; the rest is found.
        #expect(validated?.issues.count == 10)
        #expect(transport.requests.isEmpty)
    }
}
