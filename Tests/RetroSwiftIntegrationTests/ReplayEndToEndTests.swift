import Foundation
import RetroSwift
import RetroSwiftTesting
import Testing

/// ``ReplayTransport`` against a real server: exchanges recorded from the local httpbin through each transport
/// replay offline (no live transport at all) with the same status, fields and bytes, a stream in the same pieces.
@Suite(
    "End to end: recording httpbin to HAR and replaying it offline",
    .enabled(if: Httpbin.enabled, "set RETROSWIFT_HTTPBIN_URL to a local httpbin (bash .ci/run starts one)"),
    .timeLimit(.minutes(4))
)
struct ReplayEndToEndTests {
    struct Echo: Decodable, Equatable {
        var args: [String: String]
        var url: String
        var json: [String: String]?
    }

    struct SearchRequest {
        @Query("q") var query: String = "caf\u{E9} & bar"
        @Header("Authorization") var authorization: String = "Bearer recorded-secret"
    }

    struct PostRequest {
        @JsonBody var note = ["text": "h\u{E9}llo"]
    }

    struct Count {
        @Path var n: Int
    }

    // @unchecked Sendable: endpoint wrappers only, set up in init and never reassigned.
    final class Api: Domain, @unchecked Sendable {
        @Get("/get") var search: (SearchRequest) async throws -> HTTPResponse<Echo>
        @Post("/post") var post: (PostRequest) async throws -> Echo
        @Get("/bytes/{n}") var bytes: (Count) async throws -> Data
        @Get("/stream/{n}") var stream: (Count) async throws -> HTTPBodyStream
        @Get("/status/418") var teapot: () async throws -> HTTPResponse<Either<Data, Data>>
    }

    /// What the calls brought, to compare recording with replay.
    struct Outcome: Equatable {
        var search: Echo
        var searchHeaders: [String]
        var post: Echo
        var bytes: Data
        var pieces: [Data]
        var teapotStatus: Int
    }

    static func run(_ api: Api) async throws -> Outcome {
        let search = try await api.search(SearchRequest())
        var pieces: [Data] = []
        for try await piece in try await api.stream(Count(n: 5)) { pieces.append(piece) }
        return Outcome(
            search: search.body,
            // Content-Length aside: httpbin echoes the Authorization, which the recording scrubs, so its body is shorter.
            searchHeaders: search.headers.filter { $0.name.lowercased() != "content-length" }.map { "\($0.name): \($0.value)" },
            post: try await api.post(PostRequest()),
            bytes: try await api.bytes(Count(n: 300)), pieces: pieces, teapotStatus: try await api.teapot().statusCode)
    }

    @Test(
        "every exchange replays offline as it was recorded: JSON, binary, a stream in its pieces, an error status",
        arguments: TransportKind.allCases)
    func recordThenReplayOffline(kind: TransportKind) async throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("retroswift-httpbin-\(UUID().uuidString).har")
        defer { try? FileManager.default.removeItem(at: file) }
        let baseURL = try Httpbin.baseURL()

        // Given: the calls recorded through the transport from httpbin
        let recorder = try ReplayTransport(file: file, mode: .record, live: kind.make())
        let recordingApi = Api(transport: recorder)
        recordingApi.baseURL = baseURL
        let recorded = try await Self.run(recordingApi)
        try recorder.save()

        // When: replayed strictly, with no transport that could reach the network, for another base URL
        let replayingApi = Api(transport: try ReplayTransport(file: file, mode: .replayStrict))
        replayingApi.baseURL = URL(string: "https://api.example.com")!
        let replayed = try await Self.run(replayingApi)

        // Then
        #expect(replayed == recorded)
        #expect(recorded.search.args == ["q": "caf\u{E9} & bar"] && recorded.post.json == ["text": "h\u{E9}llo"])
        #expect(recorded.bytes.count == 300 && recorded.teapotStatus == 418)
        #expect(recorded.pieces.count >= 1 && recorded.pieces.reduce(0) { $0 + $1.count } > 0)
        let text = try String(contentsOf: file, encoding: .utf8)
        #expect(!text.contains("recorded-secret"))
        #expect(text.contains(#""encoding" : "base64""#))
    }
}
