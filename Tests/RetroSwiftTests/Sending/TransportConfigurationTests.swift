import Foundation
import RetroSwift
import RetroSwiftTesting
import Testing

@Suite("Transport configuration")
struct TransportConfigurationTests {
    private struct ItemRequest {
        @Path var id: Int = 0
        @Query var full: Bool = false
    }

    private final class Api: Domain, @unchecked Sendable {
        @Get("/items/{id}") var item: (ItemRequest) async throws -> Empty
    }

    private final class HostA: Domain, @unchecked Sendable {
        override init(transport: any HttpTransport) {
            super.init(transport: transport)
            transport.setConfiguration(scheme: "https", host: "a.example", sharedHeaders: nil)
        }
    }

    private final class HostB: Domain, @unchecked Sendable {
        @Get("/items/{id}") var item: (ItemRequest) async throws -> Empty

        override init(transport: any HttpTransport) {
            super.init(transport: transport)
            transport.setConfiguration(scheme: "https", host: "b.example", sharedHeaders: nil)
        }
    }

    @Test(
        "a base URL keeps its port and base path",
        arguments: [
            ("http://127.0.0.1:8080/api/v2", "http://127.0.0.1:8080/api/v2/items/7?full=true"),
            ("http://127.0.0.1:8080/api/v2/", "http://127.0.0.1:8080/api/v2/items/7?full=true"),
            ("https://example.com", "https://example.com/items/7?full=true"),
            ("https://example.com/base%20path?ignored=1", "https://example.com/base%20path/items/7?full=true"),
        ])
    func joinsBaseURL(base: String, expected: String) async throws {
        // Given
        let transport = RecordingTransport()
        transport.setConfiguration(baseURL: URL(string: base)!, sharedHeaders: nil)

        // When
        _ = try await Api(transport: transport).item(ItemRequest(id: 7, full: true))

        // Then: the URL, as a URL and as a string made without one
        let request = try #require(transport.lastRequest)
        #expect(request.url.absoluteString == expected)
        #expect(request.urlString == expected)
    }

    /// A transport written as the original README shows the protocol: its two methods and nothing more, keeping the
    /// configuration it is given to itself.
    private final class SeedStyleTransport: HttpTransport {
        private let base = Protected<String?>(nil)
        let received = Protected<[String]>([])

        func setConfiguration(scheme: String, host: String, sharedHeaders: [String: String]?) {
            base.mutate { $0 = "\(scheme)://\(host)" }
        }

        func sendRequest(with params: HttpRequestParams) async throws -> HttpOperationResult {
            received.mutate { $0.append((base.value ?? "") + params.url.absoluteString) }
            return HttpOperationResult(statusCode: 200, body: Data("{}".utf8))
        }
    }

    @Test("a transport that keeps its own configuration, as the original README's does, gets the path and query to join itself")
    func seedStyleTransport() async throws {
        // Given: the README's own ApiDomain, which configures the transport in its initializer
        let transport = SeedStyleTransport()
        let api = HostB(transport: transport)

        // When
        _ = try await api.item(ItemRequest(id: 7, full: true))

        // Then
        #expect(transport.received.value == ["https://b.example/items/7?full=true"])
    }

    @Test("ApiDomain carries its base URL and shared headers itself, leaving the transport as it is")
    func apiDomainBaseURL() async throws {
        // Given
        let transport = RecordingTransport()
        final class Store: RetroSwift.ApiDomain, @unchecked Sendable {
            @Get("/items/{id}") var item: (ItemRequest) async throws -> Empty
        }

        // When
        let store = Store(transport: transport, baseURL: URL(string: "http://localhost:9000/v1")!, sharedHeaders: ["X-Key": "k"])
        _ = try await store.item(ItemRequest(id: 1))

        // Then
        let request = try #require(transport.lastRequest)
        #expect(request.url.absoluteString == "http://localhost:9000/v1/items/1?full=false")
        #expect(request.headerFields.map(\.name) == ["X-Key"])
        _ = try await Api(transport: transport).item(ItemRequest(id: 2))
        #expect(transport.lastRequest?.url.absoluteString == "/items/2?full=false")
    }

    private final class Store: RetroSwift.ApiDomain, @unchecked Sendable {
        @Get("/items/{id}") var item: (ItemRequest) async throws -> Empty
    }

    @Test("domains with base URLs of their own share one transport, each reaching its own host with its own headers")
    func domainsShareATransport() async throws {
        // Given: one transport, two ApiDomains, and a README-style domain that configured the transport itself
        let transport = RecordingTransport()
        let east = Store(transport: transport, baseURL: URL(string: "https://east.example/v1")!, sharedHeaders: ["X-Key": "east"])
        let west = Store(transport: transport, baseURL: URL(string: "https://west.example")!, sharedHeaders: ["X-Key": "west"])
        let readme = HostB(transport: transport)

        // When
        _ = try await east.item(ItemRequest(id: 1))
        _ = try await west.item(ItemRequest(id: 2))
        _ = try await readme.item(ItemRequest(id: 3))
        _ = try await east.item(ItemRequest(id: 4))

        // Then
        let sent = transport.requests.map { request in "\(request.url) \(request.headerFields.map(\.value))" }
        #expect(
            sent == [
                "https://east.example/v1/items/1?full=false [\"east\"]",
                "https://west.example/items/2?full=false [\"west\"]",
                "https://b.example/items/3?full=false []",
                "https://east.example/v1/items/4?full=false [\"east\"]",
            ])
    }

    @Test("a domain's shared headers are added to the transport's and win by name, whatever its case; request fields win over both")
    func domainSharedHeadersOnTransportConfiguration() async throws {
        // Given
        struct TokenRequest {
            @Header("X-Trace") var trace = "from-request"
        }
        final class Api: Domain, @unchecked Sendable {
            @Get("/t") var call: (TokenRequest) async throws -> Empty
        }
        let transport = RecordingTransport()
        transport.setConfiguration(
            baseURL: URL(string: "https://api.example")!, sharedHeaders: ["x-key": "transport", "X-Client": "app", "X-Trace": "t"])
        let api = Api(transport: transport)
        api.sharedHeaders = ["X-Key": "domain", "x-trace": "domain"]

        // When
        _ = try await api.call(TokenRequest())

        // Then
        let request = try #require(transport.lastRequest)
        #expect(
            request.headerFields.map { "\($0.name): \($0.value)" } == [
                "X-Client: app", "X-Key: domain", "X-Trace: from-request",
            ])
        #expect(request.url.absoluteString == "https://api.example/t")
    }

    @Test(
        "an unusable domain base URL or shared header fails every call with its reason and sends nothing, until replaced",
        arguments: [
            (
                URL(string: "ftp://files.example")!, [:],
                "Store.item (GET /items/{id}): the domain's base URL 'ftp://files.example' must be an absolute http or https URL; nothing was sent"
            ),
            (
                URL(string: "/relative/only")!, [:],
                "Store.item (GET /items/{id}): the domain's base URL '/relative/only' must be an absolute http or https URL; nothing was sent"
            ),
            (
                URL(string: "https://api.example")!, ["X-Key": "a\r\nX-Injected: 1"],
                "Store.item (GET /items/{id}): the domain's shared header 'X-Key': header value contains a carriage return "
                    + "(CR); CR, LF and other control characters are not allowed (they would allow header injection); "
                    + "nothing was sent"
            ),
        ] as [(URL, [String: String], String)])
    func unusableDomainConfiguration(baseURL: URL, headers: [String: String], message: String) async throws {
        // Given
        let transport = RecordingTransport()
        let store = Store(transport: transport, baseURL: URL(string: "https://good.example")!)
        store.setConfiguration(baseURL: baseURL, sharedHeaders: headers)

        // When
        let error = await #expect(throws: RequestError.self) { _ = try await store.item(ItemRequest(id: 1)) }
        store.setConfiguration(baseURL: URL(string: "https://good.example")!)
        _ = try await store.item(ItemRequest(id: 2))

        // Then
        #expect(error?.description == message)
        #expect(error?.kind == .transportNotConfigured)
        #expect(transport.requests.map(\.url.absoluteString) == ["https://good.example/items/2?full=false"])
    }

    @Test("two domains configuring one transport differently make its requests fail instead of going to the wrong host")
    func conflictingDomains() async throws {
        // Given
        let transport = RecordingTransport()
        _ = HostA(transport: transport)
        let b = HostB(transport: transport)

        // When
        let error = await #expect(throws: RequestError.self) { _ = try await b.item(ItemRequest(id: 1)) }

        // Then: nothing was sent
        #expect(transport.requests.isEmpty)
        #expect(
            error?.description == "HostB.item (GET /items/{id}): the transport was configured twice with different settings "
                + "(https://a.example and https://b.example); set each domain's baseURL instead, or give each domain its "
                + "own transport instance")
    }

    @Test("configuring the same values twice is fine")
    func sameConfigurationTwice() async throws {
        // Given
        let transport = RecordingTransport()
        _ = HostB(transport: transport)
        let b = HostB(transport: transport)

        // When
        _ = try await b.item(ItemRequest(id: 3))

        // Then
        #expect(transport.lastRequest?.url.absoluteString == "https://b.example/items/3?full=false")
    }

    @Test("an unconfigured transport gets the path and query alone, and the error a transport that needs more throws says why")
    func unconfigured() async throws {
        // Given
        let transport = RecordingTransport()
        _ = try await Api(transport: transport).item(ItemRequest(id: 1))

        // When
        let request = try #require(transport.lastRequest)
        let error = RequestError.missingBaseURL(of: request)

        // Then
        #expect(request.url.absoluteString == "/items/1?full=false")
        #expect(error.kind == .transportNotConfigured)
        #expect(
            error.description == "Api.item (GET /items/{id}): neither the domain nor the transport has a base URL; set the "
                + "domain's baseURL or call the transport's setConfiguration(baseURL:sharedHeaders:) first")
    }

    @Test("a host that is not a host is rejected", arguments: ["bad host/path", ""])
    func invalidHost(host: String) async throws {
        // Given
        let transport = RecordingTransport()
        transport.setConfiguration(scheme: "https", host: host, sharedHeaders: nil)

        // When
        let error = await #expect(throws: RequestError.self) { _ = try await Api(transport: transport).item(ItemRequest(id: 1)) }

        // Then
        #expect(error?.kind == .transportNotConfigured)
        #expect(transport.requests.isEmpty)
    }
}

@Suite("Timeouts: the endpoint's, else the domain's, else the transport's")
struct TimeoutOrderTests {
    private final class Api: Domain, @unchecked Sendable {
        @Get("/declared", timeout: 3) var declared: () async throws -> Empty
        @Get("/undeclared") var undeclared: () async throws -> Empty
    }

    @Test("an endpoint's timeout wins over the domain's; without either the transport decides (nil)")
    func order() async throws {
        // Given
        let transport = RecordingTransport()
        let api = Api(transport: transport)

        // When
        _ = try await api.declared()
        _ = try await api.undeclared()
        api.timeout = 7
        _ = try await api.declared()
        _ = try await api.undeclared()

        // Then
        #expect(transport.requests.map(\.timeout) == [3, nil, 3, 7])
    }
}
