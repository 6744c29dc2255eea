import Foundation
import RetroSwiftTesting
import Testing

@testable import RetroSwift

@Suite("Path placeholders")
struct PathEncodingTests {
    private struct ItemRequest {
        @Path("item_id") var itemId: String = ""
    }

    private struct NumberedRequest {
        @Path var owner: String = ""
        @Path var number: Int = 0
    }

    private struct SearchRequest {
        @Query var q: String = ""
    }

    private final class Api: Domain, @unchecked Sendable {
        @Get("/items/{item_id}/detail")
        var item: (ItemRequest) async throws -> Empty

        @Get("/repos/{owner}/issues/{number}.json")
        var issue: (NumberedRequest) async throws -> Empty

        @Get("/search?sort=desc&scope=all")
        var search: (SearchRequest) async throws -> Empty
    }

    private func makeApi() -> (Api, RecordingTransport) {
        let transport = RecordingTransport()
        transport.setConfiguration(baseURL: URL(string: "http://127.0.0.1:8080/api/v2")!, sharedHeaders: nil)
        return (Api(transport: transport), transport)
    }

    @Test(
        "a value is percent-encoded as one path segment",
        arguments: [
            ("plain-value_1.2~", "plain-value_1.2~"),
            ("a/b", "a%2Fb"),
            ("what?", "what%3F"),
            ("#hash", "%23hash"),
            ("100%", "100%25"),
            ("two words", "two%20words"),
            ("café", "caf%C3%A9"),
            ("😀", "%F0%9F%98%80"),
            ("a;b=c&d+e", "a%3Bb%3Dc%26d%2Be"),
            ("user@host:1", "user@host:1"),
            ("...", "..."),
        ])
    func encodesSegment(value: String, encoded: String) async throws {
        // Given
        let (api, transport) = makeApi()

        // When
        _ = try await api.item(ItemRequest(itemId: value))

        // Then
        #expect(transport.lastRequest?.encodedPath == "/items/\(encoded)/detail")
    }

    @Test("placeholders inside segments and of other types are filled")
    func fillsSeveralPlaceholders() async throws {
        // Given
        let (api, transport) = makeApi()

        // When
        _ = try await api.issue(NumberedRequest(owner: "swift lang", number: 42))

        // Then
        let request = try #require(transport.lastRequest)
        #expect(request.encodedPath == "/repos/swift%20lang/issues/42.json")
        #expect(request.url.absoluteString == "http://127.0.0.1:8080/api/v2/repos/swift%20lang/issues/42.json")
    }

    @Test("'.' and '..' are rejected so a value cannot climb the path", arguments: [".", ".."])
    func rejectsTraversal(value: String) async throws {
        // Given
        let (api, transport) = makeApi()

        // When
        let error = await #expect(throws: RequestError.self) {
            _ = try await api.item(ItemRequest(itemId: value))
        }

        // Then
        #expect(error?.kind == .invalidValue)
        #expect(
            error?.description
                == "Api.item (GET /items/{item_id}/detail), field 'itemId': path value '\(value)' is not allowed (path traversal)")
        #expect(transport.requests.isEmpty)
    }

    @Test("an empty value is rejected instead of silently changing the path")
    func rejectsEmpty() async throws {
        // Given
        let (api, transport) = makeApi()

        // When
        let error = await #expect(throws: RequestError.self) {
            _ = try await api.item(ItemRequest(itemId: ""))
        }

        // Then
        #expect(
            error?.description == "Api.item (GET /items/{item_id}/detail), field 'itemId': path value is empty, which would change the path"
        )
        #expect(transport.requests.isEmpty)
    }

    @Test("a static query in the template is kept before the declared ones")
    func keepsStaticQuery() async throws {
        // Given
        let (api, transport) = makeApi()

        // When
        _ = try await api.search(SearchRequest(q: "a b"))

        // Then
        let request = try #require(transport.lastRequest)
        #expect(request.encodedPathAndQuery == "/search?sort=desc&scope=all&q=a%20b")
        #expect(request.queryItems.map(\.name) == ["sort", "scope", "q"])
    }
}
