import Foundation
import RetroSwift
import RetroSwiftTestServer
import Testing

/// Responses a broken or hostile server sends, written byte for byte: each gives the same clear error on every
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
        defer { Task { await server.stop() } }
        return try await body(Api(transport: transport), server)
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

    static let framingCases: [(String, [String])] = [
        ("two Content-Length fields that disagree", ["Content-Length: 8", "Content-Length: 11"]),
        ("one Content-Length listing two values", ["Content-Length: 8, 11"]),
        ("a Content-Length that is not a number", ["Content-Length: 8x"]),
        ("a Content-Length past any integer", ["Content-Length: 99999999999999999999999999"]),
        ("a bare CR inside a field value", ["X-Evil: a\rX-Injected: yes", "Content-Length: 8"]),
    ]

    @Test(
        "broken framing and smuggled fields are refused as malformed, never answered",
        arguments: TransportKind.allCases, 0..<framingCases.count)
    func brokenFraming(kind: TransportKind, index: Int) async throws {
        // Given
        let (name, fields) = Self.framingCases[index]
        try await Self.withHostileServer(
            kind,
            { _ in
                .head(["HTTP/1.1 200 OK", "Content-Type: application/json"] + fields, body: Self.json + Data("abc".utf8), ending: .close)
            }
        ) { api, _ in
            // When
            let error = await Self.requestError { _ = try await api.item() }

            // Then
            #expect(error?.kind == .malformedResponse, "\(name): \(String(describing: error))")
            #expect(error?.endpoint?.description == "Api.item (GET /item)", "\(name)")
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

    @Test("a head just over the field-count limit is refused with the limit named", arguments: TransportKind.allCases)
    func fieldCountMessage(kind: TransportKind) async throws {
        let fields = (0..<300).map { "X-F\($0): v" }
        try await Self.withHostileServer(kind, { _ in .head(["HTTP/1.1 200 OK", "Content-Length: 8"] + fields, body: Self.json) }) {
            api, _ in
            let error = await Self.requestError { _ = try await api.item() }
            #expect(
                error?.description
                    == "Api.item (GET /item): the response is refused: the head has 301 fields, more than the 256 allowed "
                    + "(ResponseLimits.maxHeaderFields)")
        }
    }

    @Test("a body announced over the memory limit is refused before it is read", arguments: TransportKind.allCases)
    func announcedBodyOverTheLimit(kind: TransportKind) async throws {
        // Given: a gibibyte announced, a kilobyte sent, and the connection held open
        try await Self.withHostileServer(kind, { _ in .head(["HTTP/1.1 200 OK", "Content-Length: 1073741824"], body: Data(count: 1_024)) })
        {
            api, _ in
            // When
            let error = await Self.requestError { _ = try await api.item() }

            // Then
            #expect(
                error?.description
                    == "Api.item (GET /item): the response is refused: its Content-Length is 1073741824 bytes, more than the "
                    + "67108864 allowed in memory (ResponseLimits.maxBodyBytes)")
        }
    }

    @Test("a chunked body past the memory limit stops at the limit", arguments: TransportKind.allCases)
    func chunkedBodyOverTheLimit(kind: TransportKind) async throws {
        // Given: 2 MB in 64 KiB chunks against a 1 MB limit
        let chunk = Data(String(repeating: "a", count: 65_536).utf8)
        let body =
            (0..<32).reduce(into: Data()) { body, _ in body.append(Data("10000\r\n".utf8) + chunk + Data("\r\n".utf8)) }
            + Data("0\r\n\r\n".utf8)
        try await Self.withHostileServer(kind, { _ in .head(["HTTP/1.1 200 OK", "Transfer-Encoding: chunked"], body: body) }) { api, _ in
            api.responseLimits.maxBodyBytes = 1_000_000

            // When
            let error = await Self.requestError { _ = try await api.data() }

            // Then
            #expect(error?.kind == .responseTooLarge)
            #expect(error?.description.hasPrefix("Api.data (GET /data): the response is refused: the body passed 1000000 bytes") == true)
        }
    }

    @Test("a gzip bomb stops at the memory limit", arguments: TransportKind.allCases)
    func gzipBomb(kind: TransportKind) async throws {
        // Given: 32 MiB of zeros in 210 kB against a 4 MiB limit (a 100-fold expansion would allow 21 MB), so the limit
        // on memory, not the ratio, stops it; small enough to inflate quickly under the sanitizers
        let bomb = GzipBomb.zeros(32 << 20)
        try await Self.withHostileServer(
            kind, { _ in .head(["HTTP/1.1 200 OK", "Content-Encoding: gzip", "Content-Length: \(bomb.count)"], body: bomb) }
        ) {
            api, _ in
            api.responseLimits.maxBodyBytes = 4 << 20

            // When
            let error = await Self.requestError { _ = try await api.data() }

            // Then
            #expect(error?.kind == .responseTooLarge, "\(String(describing: error))")
            #expect(error?.reason == "the response is refused: the body passed 4194304 bytes (ResponseLimits.maxBodyBytes)")
        }
    }

    @Test("a compressed body past the decompression ratio stops there, also when it goes to a file", arguments: TransportKind.allCases)
    func decompressionRatio(kind: TransportKind) async throws {
        // Given: 4 MiB of zeros in 26 kB, against a ratio of 10
        let bomb = GzipBomb.zeros(4 << 20)
        try await Self.withHostileServer(
            kind, { _ in .head(["HTTP/1.1 200 OK", "Content-Encoding: gzip", "Content-Length: \(bomb.count)"], body: bomb) }
        ) {
            api, _ in
            api.responseLimits.maxDecompressionRatio = 10

            // When
            let inMemory = await Self.requestError { _ = try await api.data() }
            let toFile = await Self.requestError { _ = try await api.file() }

            // Then
            for error in [inMemory, toFile] {
                #expect(error?.kind == .responseTooLarge, "\(String(describing: error))")
                #expect(error?.reason.contains("ResponseLimits.maxDecompressionRatio: 10 times its \(bomb.count) compressed bytes") == true)
            }
        }
    }

    @Test("a 204 with a body ends at its head, and the next call on that connection still succeeds", arguments: TransportKind.allCases)
    func noContentWithABody(kind: TransportKind) async throws {
        // Given: the 204's stray bytes stay on the kept-alive connection
        let count = Locked(0)
        try await Self.withHostileServer(
            kind,
            { _ in
                let number = count.withLock { count in
                    count += 1
                    return count
                }
                return number == 1
                    ? .head(["HTTP/1.1 204 No Content", "Content-Length: 5"], body: Data("hello".utf8))
                    : .head(["HTTP/1.1 200 OK", "Content-Type: application/json", "Content-Length: 8"], body: Self.json)
            }
        ) { api, _ in
            // When
            _ = try await api.empty()
            let next = try await api.item()

            // Then
            #expect(next.id == 1)
        }
    }
}
