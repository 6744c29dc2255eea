import Foundation
import RetroSwift
import RetroSwiftTestServer
import Testing

/// The DocC articles' examples must do what the articles say, against a real server, on every transport.
@Suite("DocC examples", .timeLimit(.minutes(4)))
struct DocCExampleTests {
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
        let transport = SimpleSessionTransport()
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

    @Test("the Transports article's one-file transport is the one these tests run, line for line, and under 100 lines")
    func articleTransportIsTheTestedOne() throws {
        // Given
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent()
        let article = try String(
            contentsOf: root.appendingPathComponent("Sources/RetroSwift/RetroSwift.docc/Transports.md"), encoding: .utf8)
        let tested = try String(
            contentsOf: root.appendingPathComponent("Tests/RetroSwiftIntegrationTests/DocCExamples/SimpleSessionTransport.swift"),
            encoding: .utf8)

        // When: the article's block after "This transport, whole,", and the file without its comment and Linux import
        let after = try #require(article.range(of: "This transport, whole,")).upperBound
        let start = try #require(article.range(of: "```swift\n", range: after..<article.endIndex)).upperBound
        let end = try #require(article.range(of: "\n```\n", range: start..<article.endIndex)).lowerBound
        let block = article[start..<end].split(separator: "\n", omittingEmptySubsequences: false)
        let linuxImport = "\n#if canImport(FoundationNetworking)\n    import FoundationNetworking\n#endif\n"
        let code = tested.replacingOccurrences(of: linuxImport, with: "").split(separator: "\n", omittingEmptySubsequences: false)
            .filter { !$0.hasPrefix("//") }

        // Then
        #expect(Array(code.prefix(block.count)) == Array(block))
        #expect(code.dropFirst(block.count).allSatisfy { $0.isEmpty })
        #expect(block.count <= 100)
    }
}
