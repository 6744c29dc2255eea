import Foundation
import RetroSwiftTesting
import Testing

@testable import RetroSwift

/// ``ReplayTransport``: what it writes, what it replays, and what it says when a call was never recorded. Recording
/// and replaying against a real server (httpbin) on every transport is in `ReplayEndToEndTests`.
@Suite("ReplayTransport records HAR 1.2 and replays it")
struct ReplayTransportTests {
    struct Item: Codable, Equatable {
        var id: Int
    }

    struct ItemRequest {
        @Path var id: Int = 1
        @Query("api_key") var apiKey: String = "query-secret"
        @Header("Authorization") var authorization: String = "Bearer header-secret"
    }

    // @unchecked Sendable: endpoint wrappers only, set up in init and never reassigned.
    final class Api: Domain, @unchecked Sendable {
        @Get("/items/{id}") var item: (ItemRequest) async throws -> Item
        @Get("/events") var events: () async throws -> HTTPBodyStream
        @Get("/export") var export: () async throws -> DownloadedFile
    }

    /// A live server stand-in that answers `/items/{id}` with the id, and counts what it was asked.
    static func live() -> RecordingTransport {
        RecordingTransport { request in
            if request.encodedPath == "/events" { return .streamed(["first ", "second ", "third"]) }
            if request.encodedPath == "/export" { return .text("exported bytes", status: 200) }
            let id = request.encodedPath.split(separator: "/").last.map(String.init) ?? "0"
            return .json(#"{"id":\#(id)}"#, headers: ["Set-Cookie": "session=cookie-secret", "X-Served": "live"])
        }
    }

    static func api(_ transport: any HttpTransport) -> Api {
        let api = Api(transport: transport)
        api.baseURL = URL(string: "http://127.0.0.1:8080/v1")!
        return api
    }

    static func withFile(_ body: (URL) async throws -> Void) async throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("retroswift-replay-\(UUID().uuidString).har")
        defer { try? FileManager.default.removeItem(at: file) }
        try await body(file)
    }

    @Test("recorded exchanges replay offline, and the file is HAR 1.2 without a credential, cookie or secret query value")
    func recordThenReplay() async throws {
        try await Self.withFile { file in
            // Given: two calls recorded
            let live = Self.live()
            let recorder = try ReplayTransport(file: file, mode: .record, live: live)
            let recorded = [try await Self.api(recorder).item(ItemRequest(id: 1)), try await Self.api(recorder).item(ItemRequest(id: 2))]
            try recorder.save()

            // When: replayed strictly, with no live transport at all
            let replayer = try ReplayTransport(file: file, mode: .replayStrict)
            let api = Self.api(replayer)
            let replayed = [try await api.item(ItemRequest(id: 2)), try await api.item(ItemRequest(id: 1))]

            // Then
            #expect(recorded == [Item(id: 1), Item(id: 2)] && replayed == [Item(id: 2), Item(id: 1)])
            #expect(live.requests.count == 2 && replayer.entryCount == 2)
            let text = try String(contentsOf: file, encoding: .utf8)
            let json = try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
            let log = try #require(json["log"] as? [String: Any])
            #expect(log["version"] as? String == "1.2")
            #expect((log["entries"] as? [Any])?.count == 2)
            for secret in ["header-secret", "cookie-secret", "query-secret"] { #expect(!text.contains(secret), "\(secret) was written") }
            #expect(text.contains(#""name" : "Authorization","#) && text.contains("<redacted>"))
            #expect(text.contains("api_key=%3Credacted%3E") || text.contains("api_key=<redacted>"))
        }
    }

    @Test("a call the recording does not hold fails strictly, naming the closest recorded request and how it differs")
    func unmatchedStrict() async throws {
        try await Self.withFile { file in
            // Given
            let recorder = try ReplayTransport(file: file, mode: .record, live: Self.live())
            _ = try await Self.api(recorder).item(ItemRequest(id: 1))
            try recorder.save()
            let api = Self.api(try ReplayTransport(file: file, mode: .replayStrict))

            // When
            let error = await #expect(throws: TransportError.self) { try await api.item(ItemRequest(id: 3)) }

            // Then
            let replayError = try #require(error?.underlyingError as? ReplayError)
            #expect(
                replayError.description == """
                    ReplayTransport (strict): \(file.lastPathComponent) holds no exchange for \
                    GET http://127.0.0.1:8080/v1/items/3?api_key=<redacted>; the closest, entry 1 \
                    (GET http://127.0.0.1:8080/v1/items/1?api_key=<redacted>), differs in:
                    - path: recorded /v1/items/1, sent /v1/items/3
                    Record it with RETROSWIFT_REPLAY=record (or replay, to add calls it lacks).
                    """)
        }
    }

    @Test("a streamed body replays in the pieces it arrived in; a downloaded file replays into a new file")
    func streamsAndFiles() async throws {
        try await Self.withFile { file in
            // Given
            let recorder = try ReplayTransport(file: file, mode: .record, live: Self.live())
            var recordedPieces: [String] = []
            for try await piece in try await Self.api(recorder).events() { recordedPieces.append(String(decoding: piece, as: UTF8.self)) }
            let recordedFile = try await Self.api(recorder).export()
            try recorder.save()

            // When
            let api = Self.api(try ReplayTransport(file: file, mode: .replayStrict))
            var pieces: [String] = []
            for try await piece in try await api.events() { pieces.append(String(decoding: piece, as: UTF8.self)) }
            let exported = try await api.export()
            defer { try? FileManager.default.removeItem(at: exported.url) }

            // Then
            #expect(recordedPieces == ["first ", "second ", "third"] && pieces == recordedPieces)
            #expect(try Data(contentsOf: exported.url) == Data("exported bytes".utf8))
            #expect(exported.url != recordedFile.url)
        }
    }

    @Test("replay mode answers what it holds and sends the rest live, adding it; repeated calls take entries in order")
    func replayAddsWhatItLacks() async throws {
        try await Self.withFile { file in
            // Given: item 1 recorded twice, then changed on the server
            let recorder = try ReplayTransport(file: file, mode: .record, live: Self.live())
            _ = try await Self.api(recorder).item(ItemRequest(id: 1))
            _ = try await Self.api(recorder).item(ItemRequest(id: 1))
            try recorder.save()
            let live = Self.live()
            let replayer = try ReplayTransport(file: file, mode: .replay, live: live)

            // When
            let api = Self.api(replayer)
            for _ in 0..<3 { _ = try await api.item(ItemRequest(id: 1)) }
            _ = try await api.item(ItemRequest(id: 5))
            try replayer.save()

            // Then: only item 5 went live, and the file now holds it too
            #expect(live.requests.map(\.encodedPath) == ["/items/5"])
            #expect(try ReplayTransport(file: file, mode: .replayStrict).entryCount == 3)
        }
    }

    @Test("matching on a header or the body: a differing value is a difference")
    func matchingRules() async throws {
        try await Self.withFile { file in
            // Given
            let recorder = try ReplayTransport(file: file, mode: .record, live: Self.live())
            _ = try await Self.api(recorder).item(ItemRequest(id: 1))
            try recorder.save()
            let strict = try ReplayTransport(file: file, mode: .replayStrict, matching: ReplayMatching(headers: ["X-Tenant"]))
            let api = Self.api(strict)
            api.sharedHeaders = ["X-Tenant": "b"]

            // When
            let error = await #expect(throws: TransportError.self) { try await api.item(ItemRequest(id: 1)) }

            // Then
            #expect(
                (error?.underlyingError as? ReplayError)?.description.contains(#"- header x-tenant: recorded nothing, sent "b""#) == true)
        }
    }

    @Test("strict replay without a recording, and recording without a live transport, are refused at once")
    func refusedSetups() throws {
        let missing = FileManager.default.temporaryDirectory.appendingPathComponent("retroswift-missing-\(UUID().uuidString).har")
        #expect(throws: ReplayError.self) { try ReplayTransport(file: missing, mode: .replayStrict) }
        #expect(throws: ReplayError.self) { try ReplayTransport(file: missing, mode: .record) }
    }

    @Test(.replaying("Fixtures/items.har", mode: .replayStrict))
    func traitReplaysCommittedRecording() async throws {
        // Given: the trait opened the committed recording
        let transport = try #require(ReplayTransport.current)

        // When
        let item = try await Self.api(transport).item(ItemRequest(id: 42))

        // Then
        #expect(item == Item(id: 42))
    }
}
