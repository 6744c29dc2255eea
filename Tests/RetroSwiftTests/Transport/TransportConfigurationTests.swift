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

        // Then
        #expect(try transport.url(of: #require(transport.lastRequest)).absoluteString == expected)
    }

    @Test("ApiDomain configures its transport from a base URL")
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
        #expect(try transport.url(of: request).absoluteString == "http://localhost:9000/v1/items/1?full=false")
        #expect(try transport.configuration.configuration(for: request).sharedHeaders == ["X-Key": "k"])
    }

    @Test("two domains configuring one transport differently make its requests fail instead of going to the wrong host")
    func conflictingDomains() async throws {
        // Given
        let transport = RecordingTransport()
        _ = HostA(transport: transport)
        let b = HostB(transport: transport)

        // When
        _ = try await b.item(ItemRequest(id: 1))
        let error = #expect(throws: RequestError.self) { try transport.url(of: #require(transport.lastRequest)) }

        // Then
        #expect(
            error?.description == "HostB.item (GET /items/{id}): the transport was configured twice with different settings "
                + "(https://a.example and https://b.example); give each domain its own transport instance")
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
        #expect(try transport.url(of: #require(transport.lastRequest)).absoluteString == "https://b.example/items/3?full=false")
    }

    @Test("an unconfigured transport says so")
    func unconfigured() async throws {
        // Given
        let transport = RecordingTransport()
        _ = try await Api(transport: transport).item(ItemRequest(id: 1))

        // When
        let error = #expect(throws: RequestError.self) { try transport.url(of: #require(transport.lastRequest)) }

        // Then
        #expect(error?.reason == "the transport has no base URL; call setConfiguration(baseURL:sharedHeaders:) first")
    }

    @Test("a host that is not a host is rejected", arguments: ["bad host/path", ""])
    func invalidHost(host: String) async throws {
        // Given
        let transport = RecordingTransport()
        transport.setConfiguration(scheme: "https", host: host, sharedHeaders: nil)
        _ = try await Api(transport: transport).item(ItemRequest(id: 1))

        // When
        let error = #expect(throws: RequestError.self) { try transport.url(of: #require(transport.lastRequest)) }

        // Then
        #expect(error?.kind == .transportNotConfigured)
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
