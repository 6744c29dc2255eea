import Foundation
import RetroSwift
import RetroSwiftTestServer
import Testing

/// Responses a broken or hostile server sends, written byte for byte, beyond the cases of the transport conformance
/// suite (Conformance/TransportConformanceTests.swift, which runs the rest): each gives the same clear error on every
/// transport, in bounded time and memory, and never comes back as an answer.
@Suite("End to end: hostile responses", .timeLimit(.minutes(4)))
struct HostileResponseTests {
    private struct Item: Decodable {
        var id: Int
    }

    // @unchecked Sendable: the fixture adds only endpoint wrappers, set up in init and never reassigned.
    private final class Api: Domain, @unchecked Sendable {
        @Get("/item") var item: () async throws -> Item
        @Get("/data") var data: () async throws -> Data
        @Get("/file") var file: () async throws -> DownloadedFile
        @Get("/empty") var empty: () async throws -> Empty
    }

    /// Starts a hostile server answering every request with `response`, and an API on `kind` pointed at it.
    private static func withHostileServer<T>(
        _ kind: TransportKind, _ respond: @escaping @Sendable (RecordedRequest) -> RawResponse,
        _ body: (Api, TestServer) async throws -> T
    ) async throws -> T {
        let server = try await TestServer.startHostile(respond)
        let transport = kind.make()
        transport.setConfiguration(baseURL: server.baseURL, sharedHeaders: nil)
        return try await stopping(server) { server in try await body(Api(transport: transport), server) }
    }

    private static let json = Data(#"{"id":1}"#.utf8)

    /// The `RequestError` a call threw, or a failed expectation showing what came back instead.
    private static func requestError(_ call: () async throws -> Void) async -> RequestError? {
        do {
            try await call()
            Issue.record("the call succeeded")
            return nil
        } catch let error as RequestError {
            return error
        } catch {
            Issue.record("expected a RequestError, got \(error)")
            return nil
        }
    }

    @Test(
        "a bare CR in a field value is named in the error (URLSession hands the field over; async-http-client's parser refuses it)",
        arguments: TransportKind.allCases)
    func bareCarriageReturnMessage(kind: TransportKind) async throws {
        try await Self.withHostileServer(
            kind, { _ in .head(["HTTP/1.1 200 OK", "X-Evil: a\rX-Injected: yes", "Content-Length: 8"], body: Self.json) }
        ) { api, _ in
            let error = await Self.requestError { _ = try await api.item() }
            #expect(error?.kind == .malformedResponse)
            if kind == .urlSession {
                #expect(
                    error?.description
                        == "Api.item (GET /item): the response is refused: the field 'X-Evil' has a carriage return (CR) in its value, "
                        + "which RFC 9110 forbids (it can smuggle in another field)")
            }
        }
    }

    @Test("thousands of header fields are refused as too large", arguments: TransportKind.allCases)
    func tooManyFields(kind: TransportKind) async throws {
        // Given: 20,000 fields; 2,000 through URLSession, whose Linux Foundation parses a head in time quadratic in its
        // fields (seconds for 20,000) on a work queue every URLSession of the process shares: the larger head stalled
        // every other URLSession transfer of the run past its timeout (the Limits article says so)
        let fields = (0..<(kind == .urlSession ? 2_000 : 20_000)).map { "X-F\($0): v" }
        try await Self.withHostileServer(kind, { _ in .head(["HTTP/1.1 200 OK", "Content-Length: 8"] + fields, body: Self.json) }) {
            api, _ in
            // When
            let error = await Self.requestError { _ = try await api.item() }

            // Then
            #expect(error?.kind == .responseTooLarge, "\(String(describing: error))")
        }
    }
}
