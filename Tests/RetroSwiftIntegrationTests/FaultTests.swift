import Foundation
import RetroSwift
import RetroSwiftTestServer
import Testing
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

@Suite("End to end: faults end in clear errors, never hangs", .timeLimit(.minutes(1)))
struct FaultTests {
    // @unchecked Sendable: the fixture adds only endpoint wrappers, set up in init and never reassigned.
    private final class Api: Domain, @unchecked Sendable {
        @Get("/data") var data: () async throws -> Data
        @Get("/slow", timeout: 0.5) var slow: () async throws -> Data
    }

    @Test("connection refused", arguments: TransportKind.allCases)
    func refused(kind: TransportKind) async throws {
        // Given
        let port = try await TestServer.unusedPort()
        let transport = kind.make()
        transport.setConfiguration(baseURL: URL(string: "http://127.0.0.1:\(port)")!, sharedHeaders: nil)

        // When
        let error = await #expect(throws: URLError.self) { _ = try await Api(transport: transport).data() }

        // Then
        #expect(error?.code == .cannotConnectToHost)
    }

    @Test("the server closing the connection mid-response", arguments: TransportKind.allCases)
    func closedMidResponse(kind: TransportKind) async throws {
        try await withServer(kind, respond: { _ in ScriptedResponse(status: 200, body: Data(repeating: 7, count: 100), behavior: .closeMidResponse) }) { transport, _ in
            // When
            let error = await #expect(throws: URLError.self) { _ = try await Api(transport: transport).data() }

            // Then
            #expect(error?.code == .networkConnectionLost)
        }
    }

    @Test("a server slower than the endpoint's timeout", arguments: TransportKind.allCases)
    func timeout(kind: TransportKind) async throws {
        try await withServer(kind, respond: { _ in ScriptedResponse(behavior: .silent) }) { transport, _ in
            // When
            let error = await #expect(throws: URLError.self) { _ = try await Api(transport: transport).slow() }

            // Then
            #expect(error?.code == .timedOut)
        }
    }

    @Test("cancelling the calling task while it waits", arguments: TransportKind.allCases)
    func cancellation(kind: TransportKind) async throws {
        try await withServer(kind, respond: { _ in ScriptedResponse(behavior: .silent) }) { transport, server in
            // Given
            let api = Api(transport: transport)
            let call = Task { try await api.data() }
            while server.requests.isEmpty { try await Task.sleep(nanoseconds: 5_000_000) }

            // When
            call.cancel()
            let result = await call.result

            // Then
            #expect(throws: CancellationError.self) { try result.get() }
        }
    }
}
