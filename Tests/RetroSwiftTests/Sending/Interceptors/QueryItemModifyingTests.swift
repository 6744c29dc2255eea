import Foundation
import RetroSwiftTesting
import Testing

@testable import RetroSwift

@Suite("Interceptors change query items: settingQueryItem, addingQueryItem, removingQueryItem, SharedQueryItemsInterceptor")
struct QueryItemModifyingTests {
    private struct SearchRequest {
        @Query var q: String = ""
        @Query var page: Int? = nil
        @Query var tag: [String] = []
    }

    private struct LinkRequest {
        @Url var url: String = ""
    }

    // @unchecked Sendable: the fixture adds only endpoint wrappers, set up in init and never reassigned.
    private final class Api: Domain, @unchecked Sendable {
        @Get("/search?sort=a%2Cb&x=1") var search: (SearchRequest) async throws -> Empty
        @Get() var link: (LinkRequest) async throws -> Empty
        @Get(otherHosts: .allowing(["cdn.example"])) var cdn: (LinkRequest) async throws -> Empty
    }

    /// Runs `change` on every request.
    private struct Changing: Interceptor {
        let change: @Sendable (HttpRequestParams) throws -> HttpRequestParams
        func intercept(_ request: HttpRequestParams, next: InterceptorNext) async throws -> HttpOperationResult {
            try await next(change(request))
        }
    }

    private func api(_ interceptors: [any Interceptor]) -> (Api, RecordingTransport) {
        let transport = RecordingTransport()
        transport.setConfiguration(baseURL: URL(string: "https://api.example/v1")!, sharedHeaders: nil)
        let api = Api(transport: transport)
        api.interceptors = interceptors
        return (api, transport)
    }

    @Test("setting replaces every item of the name at the end, adding repeats it, removing drops it; other bytes stay")
    func modifiers() async throws {
        // Given
        let (api, transport) = api([
            Changing { request in
                try request.settingQueryItem("tag", to: "a&b c").addingQueryItem("tag", value: "é").removingQueryItem("x")
                    .settingQueryItem("page", to: "2")
            }
        ])

        // When
        _ = try await api.search(SearchRequest(q: "swift", page: 1, tag: ["old", "older"]))

        // Then
        let request = try #require(transport.lastRequest)
        #expect(request.encodedQuery == "sort=a%2Cb&q=swift&tag=a%26b%20c&tag=%C3%A9&page=2")
        #expect(
            request.queryItems == [
                .init(name: "sort", value: "a,b"), .init(name: "q", value: "swift"), .init(name: "tag", value: "a&b c"),
                .init(name: "tag", value: "é"), .init(name: "page", value: "2"),
            ])
        #expect(request.url.absoluteString == "https://api.example/v1/search?" + (request.encodedQuery ?? ""))
    }

    @Test("removing the last item leaves no '?'; an empty name is a RequestError and nothing is sent")
    func emptyQueryAndEmptyName() async throws {
        // Given
        let (api, transport) = api([Changing { $0.removingQueryItem("sort").removingQueryItem("x").removingQueryItem("q") }])
        let (failing, failingTransport) = self.api([Changing { try $0.addingQueryItem("", value: "v") }])

        // When
        _ = try await api.search(SearchRequest())
        let error = await #expect(throws: RequestError.self) { _ = try await failing.search(SearchRequest()) }

        // Then
        #expect(transport.lastRequest?.encodedQuery == nil)
        #expect(try #require(transport.lastRequest).url.absoluteString == "https://api.example/v1/search")
        #expect(error?.description == "Api.search (GET /search?sort=a%2Cb&x=1): a query item needs a name; nothing was sent")
        #expect(failingTransport.requests.isEmpty)
    }

    @Test("a @Url full URL keeps its absolute URL in step with the changed query")
    func absoluteURL() async throws {
        // Given
        let (api, transport) = api([Changing { try $0.settingQueryItem("cursor", to: "b c") }])

        // When
        _ = try await api.link(LinkRequest(url: "https://api.example/feed?cursor=a&n=1"))

        // Then
        #expect(transport.lastRequest?.absoluteURL?.absoluteString == "https://api.example/feed?n=1&cursor=b%20c")
    }

    @Test("SharedQueryItemsInterceptor adds its items in name order unless the request sends the name, and never to another origin")
    func sharedItems() async throws {
        // Given
        let (api, transport) = api([SharedQueryItemsInterceptor(["format": "json", "api_key": "k&1", "q": "ignored"])])

        // When
        _ = try await api.search(SearchRequest(q: "swift"))
        _ = try await api.link(LinkRequest(url: "/photos"))
        _ = try await api.cdn(LinkRequest(url: "https://cdn.example/p.jpg?size=m"))

        // Then
        #expect(
            transport.requests.map(\.encodedPathAndQuery) == [
                "/search?sort=a%2Cb&x=1&q=swift&api_key=k%261&format=json",
                "/photos?api_key=k%261&format=json&q=ignored",
                "/p.jpg?size=m",
            ])
    }
}
