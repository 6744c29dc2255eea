import Foundation
import RetroSwift
import RetroSwiftTestServer
import Testing

/// The DocC articles' examples that do not come from the README: they must match `DocCExamples.swift` (or, for the
/// README's own declarations, the README fixtures) line for line, and they must do what the articles say, against a
/// real server.
@Suite("DocC examples", .timeLimit(.minutes(4)))
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
        let compiled = try [
            "Tests/RetroSwiftIntegrationTests/DocCExamples/DocCExamples.swift", "Tests/ReadmeFixtures/Shared/ReadmeDeclarations.swift",
        ]
        .map { try String(contentsOf: Self.root.appendingPathComponent($0), encoding: .utf8) }.joined(separator: "\n")

        // When
        let blocks = article.components(separatedBy: "```swift\n").dropFirst().map { $0.components(separatedBy: "```")[0] }
        let block = try #require(blocks.first { $0.hasPrefix(example.firstLine) }, "no block starts with \(example.firstLine)")
        var wanted = Self.lines(block).filter { !example.skipped.contains($0) }
        if let end = example.end, let cut = wanted.firstIndex(where: { $0.hasPrefix(end) }) { wanted = Array(wanted[..<cut]) }

        // Then: each top-level declaration of the block stands somewhere, whole (the README's may be apart or nested)
        let have = Self.lines(compiled)
        let topLevel = Set(
            block.split(separator: "\n").filter { $0.first.map { !$0.isWhitespace && $0 != "}" } ?? false }
                .map { $0.trimmingCharacters(in: .whitespaces) })
        var declarations: [[String]] = []
        for line in wanted {
            if topLevel.contains(line) || declarations.isEmpty {
                declarations.append([line])
            } else {
                declarations[declarations.count - 1].append(line)
            }
        }
        for declaration in declarations {
            let found = have.indices.contains { start in have[start...].starts(with: declaration) }
            #expect(found, "\(example): '\(declaration[0])' differs from DocCExamples.swift and the README fixtures; copy it there")
        }
    }

    // @unchecked Sendable: the fixture adds only endpoint wrappers, set up in init and never reassigned.
    private final class PlacesApi: Domain, @unchecked Sendable {
        @Get("/nearby") var nearby: (DocCExamples.NearbyRequest) async throws -> DocCExamples.CSV
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

            // When
            let csv = try await api.nearby(.init(location: .init(latitude: 52.5, longitude: 13.25)))
            _ = try await api.nearby(.init(location: .init(latitude: -1, longitude: 0.5)))

            // Then
            #expect(csv.rows == [["a", "b"], ["c", "d"]])
            let requests = server.requests
            #expect(requests.map(\.target) == ["/nearby?near=52.5,13.25", "/nearby?near=-1.0,0.5"])
            #expect(requests.allSatisfy { UUID(uuidString: $0.header("X-Request-Id") ?? "") != nil })
            #expect(Set(requests.compactMap { $0.header("X-Request-Id") }).count == 2)
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
        let result = await Result { try await api.nearby(.init(location: .init(latitude: 2, longitude: 5))) }
        await server.stop()

        // Then
        #expect(try result.get().rows == [["made"]])
        let request = try #require(server.requests.first)
        #expect(request.target == "/nearby?near=2.0,5.0")
        #expect(request.header("X-Client") == "docs")
    }
}
