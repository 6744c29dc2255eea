import Foundation
import RetroSwift
import RetroSwiftTesting
import Testing

@Suite("Mocking and concurrency")
struct MockingTests {
    private struct Echo: Codable, Equatable {
        var value: Int
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
                return .json(#"{"value":\#(value)}"#)
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
                    if value % 50 == 0 { api.echo = { request in Echo(value: request.value) } }
                    if value % 50 == 25 { api.$echo.removeMock() }
                    return (value, try await api.echo(EchoRequest(value: value)))
                }
            }
            return try await group.reduce(into: []) { $0.append($1) }
        }

        // Then
        #expect(results.count == 400)
        #expect(results.allSatisfy { $0.0 == $0.1.value })
        #expect(!transport.requests.isEmpty)
    }
}
