import Foundation
import RetroSwiftTesting
import Testing

@testable import RetroSwift

@Suite("Mocking and concurrency")
struct MockingTests {
    private struct Echo: Codable, Equatable {
        var value: Int
        /// `network` from the transport, `mock` from a mock, so a test can tell which answered.
        var source: String = "network"
    }

    private struct EchoRequest {
        @Query var value: Int = 0
    }

    private final class Api: Domain, @unchecked Sendable {
        @Get("/echo") var echo: (EchoRequest) async throws -> Echo
        @Get("/ping") var ping: () async throws -> Empty
    }

    /// Answers `/echo?value=N` with `{"value": N}`, so each response can be matched to its request.
    private static func echoing() -> RecordingTransport {
        RecordingTransport { params in
            if let value = params.queryItems.first(where: { $0.name == "value" })?.value {
                return .json(#"{"value":\#(value),"source":"network"}"#)
            }
            return HttpOperationResult(statusCode: 204)
        }
    }

    @Test("a parameterless endpoint is declared and called without a request struct")
    func parameterless() async throws {
        // Given
        let transport = Self.echoing()
        let api = Api(transport: transport)

        // When
        _ = try await api.ping()

        // Then
        #expect(transport.lastRequest?.encodedPathAndQuery == "/ping")
    }

    @Test("assigning a closure mocks the endpoint; removeMock restores the real one")
    func mockAndRestore() async throws {
        // Given
        let transport = Self.echoing()
        let api = Api(transport: transport)
        api.echo = { request in Echo(value: request.value * 100) }
        api.ping = { Empty() }

        // When
        let mocked = try await api.echo(EchoRequest(value: 2))
        _ = try await api.ping()
        let wasMocked = api.$echo.isMocked
        api.$echo.removeMock()
        let real = try await api.echo(EchoRequest(value: 2))

        // Then
        #expect(mocked == Echo(value: 200))
        #expect(wasMocked)
        #expect(!api.$echo.isMocked)
        #expect(real == Echo(value: 2))
        #expect(transport.requests.count == 1)
    }

    @Test("removeAllMocks restores every endpoint")
    func removeAll() async throws {
        // Given
        let api = Api(transport: Self.echoing())
        api.echo = { _ in Echo(value: -1) }
        api.ping = { throw CancellationError() }

        // When
        api.removeAllMocks()

        // Then
        #expect(!api.$echo.isMocked && !api.$ping.isMocked)
        #expect(try await api.echo(EchoRequest(value: 5)) == Echo(value: 5))
    }

    @Test("mocks are per instance")
    func perInstance() async throws {
        // Given
        let mocked = Api(transport: Self.echoing())
        let real = Api(transport: Self.echoing())

        // When
        mocked.echo = { _ in Echo(value: 0) }

        // Then
        #expect(try await real.echo(EchoRequest(value: 9)) == Echo(value: 9))
        #expect(try await mocked.echo(EchoRequest(value: 9)) == Echo(value: 0))
    }

    @Test("one instance serves many tasks while its mock is swapped, each answer matching its request")
    func concurrentCallsAndSwaps() async throws {
        // Given
        let transport = Self.echoing()
        let api = Api(transport: transport)

        // When
        let results = try await withThrowingTaskGroup(of: (Int, Echo).self) { group in
            for value in 0..<400 {
                group.addTask {
                    if value % 50 == 0 { api.echo = { request in Echo(value: request.value, source: "mock") } }
                    if value % 50 == 25 { api.$echo.removeMock() }
                    return (value, try await api.echo(EchoRequest(value: value)))
                }
            }
            return try await group.reduce(into: []) { $0.append($1) }
        }

        // Then
        #expect(results.count == 400)
        #expect(results.allSatisfy { $0.0 == $0.1.value })
        // Both the mock and the network answered, and every network answer was a request the transport saw.
        let fromNetwork = results.filter { $0.1.source == "network" }
        #expect(!fromNetwork.isEmpty)
        #expect(fromNetwork.count < 400)
        #expect(Set(fromNetwork.map(\.0)) == Set(transport.requests.compactMap { Int($0.queryItems.first?.value ?? "") }))
    }
}

@Suite("Sendable endpoint signatures")
struct SendableSignatureTests {
    private struct Item: Codable, Equatable, Sendable {
        var id: Int
    }

    private struct ItemRequest: Sendable {
        @Path var id: Int = 0
    }

    private final class Api: Domain, @unchecked Sendable {
        @Get("/items/{id}") var item: @Sendable (ItemRequest) async throws -> Item
        @Get("/health") var health: @Sendable () async throws -> Empty
        @Get("/items/{id}") var plainItem: (ItemRequest) async throws -> Item
    }

    @Test("a @Sendable endpoint closure can be handed to other tasks, mocked and restored")
    func sendableClosures() async throws {
        // Given
        let transport = RecordingTransport { params in .json(#"{"id":\#(params.encodedPath.split(separator: "/").last ?? "0")}"#) }
        let api = Api(transport: transport)
        let fetch = api.item

        // When
        let fetched = try await withThrowingTaskGroup(of: Item.self) { group in
            for id in 1...3 { group.addTask { try await fetch(ItemRequest(id: id)) } }
            return try await group.reduce(into: []) { $0.append($1) }
        }
        _ = try await api.health()
        api.item = { @Sendable _ in Item(id: -1) }
        let mocked = try await api.item(ItemRequest(id: 9))
        api.$item.removeMock()

        // Then
        #expect(Set(fetched.map(\.id)) == [1, 2, 3])
        #expect(mocked == Item(id: -1))
        #expect(try await api.item(ItemRequest(id: 4)) == Item(id: 4))
        #expect(try await api.plainItem(ItemRequest(id: 5)) == Item(id: 5))
        let paths = transport.requests.map(\.encodedPath)
        #expect(Set(paths.prefix(3)) == ["/items/1", "/items/2", "/items/3"])
        #expect(Array(paths.dropFirst(3)) == ["/health", "/items/4", "/items/5"])
    }
}
