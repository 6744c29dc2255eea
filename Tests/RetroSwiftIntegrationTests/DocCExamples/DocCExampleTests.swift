import Foundation
import RetroSwift
import RetroSwiftTestServer
import Testing

/// The DocC articles' examples that do not come from the README: they must match `DocCExamples.swift` line for
/// line, and they must do what the articles say, against a real server.
@Suite("DocC examples", .timeLimit(.minutes(1)))
struct DocCExampleTests {
    /// An article's `swift` code block, found by its first line, up to `end` when the block goes on with usage.
    struct Example: CustomStringConvertible, Sendable {
        var article: String
        var firstLine: String
        var end: String?
        /// Lines of the block that `DocCExamples.swift` leaves out (its own imports are at the top of the file).
        var skipped: Set<String> = []

        var description: String { "\(article): \(firstLine)" }
    }

    static let examples = [
        Example(article: "ParametersAndEncoding.md", firstLine: "struct GetSchedulesRequest {"),
        Example(article: "ParametersAndEncoding.md", firstLine: "struct Coordinate: ParameterValueConvertible {"),
        Example(article: "ResponsesAndErrors.md", firstLine: "struct CSV: HttpResponseDecodable {"),
        Example(article: "Interceptors.md", firstLine: "struct RequestIdInterceptor: Interceptor {"),
        Example(
            article: "Transports.md", firstLine: "import Foundation", skipped: ["import Foundation", "import RetroSwift"]),
        Example(article: "Redirects.md", firstLine: "final class FilesApi: ApiDomain, @unchecked Sendable {", end: "let api"),
    ]

    private static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()

    /// Lines with their indentation and blank lines dropped: the examples sit inside an enum in the test file.
    private static func lines(_ text: some StringProtocol) -> [String] {
        text.split(separator: "\n", omittingEmptySubsequences: false).map { $0.trimmingCharacters(in: .whitespaces) }
            .filter { !$0.isEmpty }
    }

    @Test("each example is in DocCExamples.swift as the article writes it", arguments: examples)
    func examplesMatchTheArticles(example: Example) throws {
        // Given
        let article = try String(
            contentsOf: Self.root.appendingPathComponent("Sources/RetroSwift/RetroSwift.docc/\(example.article)"), encoding: .utf8)
        let compiled = try String(
            contentsOf: Self.root.appendingPathComponent("Tests/RetroSwiftIntegrationTests/DocCExamples/DocCExamples.swift"),
            encoding: .utf8)

        // When
        let blocks = article.components(separatedBy: "```swift\n").dropFirst().map { $0.components(separatedBy: "```")[0] }
        let block = try #require(blocks.first { $0.hasPrefix(example.firstLine) }, "no block starts with \(example.firstLine)")
        var wanted = Self.lines(block).filter { !example.skipped.contains($0) }
        if let end = example.end, let cut = wanted.firstIndex(where: { $0.hasPrefix(end) }) { wanted = Array(wanted[..<cut]) }

        // Then
        let have = Self.lines(compiled)
        let found = have.indices.contains { start in have[start...].starts(with: wanted) }
        #expect(found, "\(example) differs from DocCExamples.swift; copy the article's block there")
    }

    // @unchecked Sendable: the fixture adds only endpoint wrappers, set up in init and never reassigned.
    private final class PlacesApi: Domain, @unchecked Sendable {
        @Get("/nearby") var nearby: (DocCExamples.NearbyRequest) async throws -> DocCExamples.CSV
        @Get("/schedules") var schedules: (DocCExamples.GetSchedulesRequest) async throws -> Empty
        @Post("/speech") var speech: (DocCExamples.SpeechToTextApiRequest) async throws -> Empty
    }

    @Test("the parameter, response and interceptor examples do what the articles say", arguments: TransportKind.allCases)
    func parametersResponsesAndInterceptors(kind: TransportKind) async throws {
        try await withServer(
            kind,
            respond: { request in
                request.target.hasPrefix("/nearby")
                    ? ScriptedResponse(status: 200, headers: [("Content-Type", "text/csv")], body: Data("a,b\nc,d\n".utf8))
                    : ScriptedResponse(status: 204)
            }
        ) { transport, server in
            // Given
            let api = PlacesApi(transport: transport)
            // Its "slow" report depends on the machine's speed, so it is not checked (no timing in tests).
            api.interceptors = [DocCExamples.RequestIdInterceptor(report: { _ in })]
            api.multipartBoundary = { "doc-boundary" }

            // When
            let csv = try await api.nearby(.init(location: .init(latitude: 52.5, longitude: 13.25)))
            _ = try await api.schedules(.init(page: 1, schedulesPerPage: 30, accountId: "acc_id"))
            _ = try await api.speech(
                .init(
                    modelId: "scribe", languageCode: "en", tagAudioEvents: true, numSpeakers: 2,
                    recording: .init(fileName: "a.wav", mimeType: "audio/wav", content: Data("RIFF".utf8))))

            // Then
            #expect(csv.rows == [["a", "b"], ["c", "d"]])
            let requests = server.requests
            #expect(requests.map(\.target) == ["/nearby?near=52.5,13.25", "/schedules?page=1&limit=30", "/speech"])
            #expect(requests[1].header("X-Account-Id") == "acc_id")
            #expect(requests.allSatisfy { UUID(uuidString: $0.header("X-Request-Id") ?? "") != nil })
            #expect(Set(requests.compactMap { $0.header("X-Request-Id") }).count == 3)
            let speech = String(decoding: requests[2].body, as: UTF8.self)
            #expect(speech.contains("name=\"num_speakers\"\r\n\r\n2\r\n"))
            #expect(speech.contains("name=\"file\"; filename=\"a.wav\"\r\nContent-Type: audio/wav\r\n\r\nRIFF\r\n"))
        }
    }

    @Test("FilesApi follows a redirect for the file and hands back the 302 for the link", arguments: TransportKind.allCases)
    func redirectsExample(kind: TransportKind) async throws {
        try await withServer(
            kind,
            respond: { request in
                request.target == "/files/7"
                    ? ScriptedResponse(status: 302, headers: [("Location", "/blobs/7")])
                    : ScriptedResponse(status: 200, body: Data("file seven".utf8))
            }
        ) { transport, server in
            // Given
            let api = DocCExamples.FilesApi(transport: transport, baseURL: server.baseURL)

            // When
            let file = try await api.file(.init(id: 7))
            let link = try await api.fileLink(.init(id: 7))

            // Then
            #expect(String(decoding: file, as: UTF8.self) == "file seven")
            #expect(link.statusCode == 302)
            #expect(link.header("Location") == "/blobs/7")
            #expect(server.requests.map(\.target) == ["/files/7", "/blobs/7", "/files/7"])
        }
    }

    @Test("SimpleSessionTransport sends what RetroSwift built and returns what the server answered")
    func simpleSessionTransport() async throws {
        // Given
        let server = try await TestServer.start { request in
            ScriptedResponse(status: 201, headers: [("X-Seen", request.target)], body: Data("made".utf8))
        }
        let transport = DocCExamples.SimpleSessionTransport()
        transport.setConfiguration(baseURL: server.baseURL, sharedHeaders: ["X-Client": "docs"])
        let api = PlacesApi(transport: transport)

        // When
        let result = await Result { try await api.schedules(.init(page: 2, schedulesPerPage: 5, accountId: "a b")) }
        await server.stop()

        // Then
        #expect(throws: Never.self) { try result.get() }
        let request = try #require(server.requests.first)
        #expect(request.target == "/schedules?page=2&limit=5")
        #expect(request.header("X-Account-Id") == "a b")
        #expect(request.header("X-Client") == "docs")
    }
}
