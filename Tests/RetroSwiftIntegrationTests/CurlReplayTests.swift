import Foundation
import RetroSwift
import RetroSwiftTestServer
import RetroSwiftTesting
import Testing

/// The rendered `curl` command, run by the real curl, sends what RetroSwift sends.
@Suite(
    "End to end: curl replays the rendered command",
    .enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/curl"), "needs /usr/bin/curl"),
    .timeLimit(.minutes(4))
)
struct CurlReplayTests {
    private struct Note: Codable {
        var text: String
    }

    private struct NoteRequest {
        @Path var id: String = "n 1"
        @Query var q: String = "a&b é"
        @Header("Authorization") var authorization: String = "Bearer it's"
        @JsonBody var note = Note(text: "it's \"quoted\"\nsecond line $HOME `x`")
    }

    private struct FormRequest {
        @FormParam var title: String = "a&b = c"
        @FormParam var mode: String = "@literal"
    }

    private struct UploadRequest {
        @FormParam var title: String = "<not a file>"
        @FormFile("file") var file = .empty
    }

    // @unchecked Sendable: the fixture adds only endpoint wrappers, set up in init and never reassigned.
    private final class Api: Domain, @unchecked Sendable {
        @Patch("/notes/{id}") var update: (NoteRequest) async throws -> Empty
        @Post("/forms") var form: (FormRequest) async throws -> Empty
        @Post("/uploads") var upload: (UploadRequest) async throws -> Empty
    }

    /// Runs `command` with `/bin/sh`, as a user pasting it would.
    private static func run(_ command: String) throws -> Int32 {
        try ChildProcess("/bin/sh", ["-c", command + " --silent --output /dev/null"]).waitUntilExit().status
    }

    @Test("JSON, form and multipart-from-file requests arrive the same from curl as from RetroSwift")
    func replay() async throws {
        // Given
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("retroswift curl's-\(UUID().uuidString).bin")
        try Data((0..<5_000).map { UInt8(truncatingIfNeeded: $0 &* 13) }).write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        let server = try await TestServer.start { _ in ScriptedResponse(status: 204) }
        let recording = RecordingTransport()
        let api = Api(transport: recording)
        recording.setConfiguration(baseURL: server.baseURL, sharedHeaders: ["X-Client": "app"])
        // RetroSwift's own requests go to the server through a real transport; the recorded ones are rendered.
        let real = TransportKind.urlSession.make()
        real.setConfiguration(baseURL: server.baseURL, sharedHeaders: ["X-Client": "app"])
        let realApi = Api(transport: real)

        // When: each request once through RetroSwift, once through curl
        let upload = UploadRequest(file: .init(fileName: "data.bin", mimeType: "application/octet-stream", fileURL: file))
        _ = try await realApi.update(NoteRequest())
        _ = try await api.update(NoteRequest())
        _ = try await realApi.form(FormRequest())
        _ = try await api.form(FormRequest())
        _ = try await realApi.upload(upload)
        _ = try await api.upload(upload)
        var statuses: [Int32] = []
        for request in recording.requests {
            statuses.append(
                try Self.run(request.curlCommand(redactingSecrets: false)))
        }
        await server.stop()

        // Then
        #expect(statuses == [0, 0, 0])
        let received = server.requests
        try #require(received.count == 6)
        let (fromRetroSwift, fromCurl) = ([received[0], received[1], received[2]], [received[3], received[4], received[5]])
        for (ours, theirs) in zip(fromRetroSwift, fromCurl) {
            #expect(theirs.method == ours.method)
            #expect(theirs.target == ours.target)
            for name in ["Authorization", "X-Client"] {
                #expect(theirs.header(name) == ours.header(name), "\(name)")
            }
        }
        #expect(fromCurl[0].body == fromRetroSwift[0].body)
        #expect(fromCurl[0].header("Content-Type") == "application/json")
        #expect(fromCurl[1].formItems.map { "\($0.name)=\($0.value)" } == fromRetroSwift[1].formItems.map { "\($0.name)=\($0.value)" })
        // Multipart: curl picks its own boundary, so compare the parts' contents.
        let content = try Data(contentsOf: file)
        #expect(fromCurl[2].body.range(of: content) != nil)
        #expect(fromCurl[2].body.range(of: Data("<not a file>".utf8)) != nil)
        #expect(fromCurl[2].body.range(of: Data(#"filename="data.bin""#.utf8)) != nil)
    }
}
