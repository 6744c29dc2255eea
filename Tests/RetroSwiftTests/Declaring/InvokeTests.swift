import Foundation
import RetroSwiftTesting
import Testing

@testable import RetroSwift

@Suite("invoke: one-off calls without a declared endpoint")
struct InvokeTests {
    private struct Note: Codable, Equatable {
        var text: String
        var at: Date
    }

    // @unchecked Sendable: no endpoints; the domain's settings are behind its lock.
    private final class Api: Domain, @unchecked Sendable {}

    private struct StampInterceptor: Interceptor {
        func intercept(_ request: HttpRequestParams, next: InterceptorNext) async throws -> HttpOperationResult {
            try await next(request.settingHeader("X-Stamp", to: "1"))
        }
    }

    @Test("Echo's Fibonacci call: GET with query arguments, decoded into the inferred type")
    func fibonacci() async throws {
        // Given
        let transport = RecordingTransport { _ in .json("[0, 1, 1, 2, 3, 5, 8, 13]") }
        let api = Api(transport: transport)
        api.baseURL = URL(string: "https://echo.example/api")!

        // When
        let numbers: [Int] = try await api.invoke(.get, path: "test/fibonacci", arguments: ["count": 8])

        // Then
        #expect(numbers == [0, 1, 1, 2, 3, 5, 8, 13])
        let request = try #require(transport.lastRequest)
        #expect(request.url.absoluteString == "https://echo.example/api/test/fibonacci?count=8")
        #expect("\(request.endpoint)" == "Api.invoke (GET /test/fibonacci)")
    }

    @Test("arguments follow the @Query rules in name order; placeholders are filled as @Path values; interceptors run")
    func arguments() async throws {
        // Given
        let transport = RecordingTransport()
        let api = Api(transport: transport)
        api.interceptors = [StampInterceptor()]
        let unset: Int? = nil

        // When
        _ =
            try await api.invoke(
                .delete, path: "/users/{id}/tags",
                arguments: ["id": "a b", "tag": ["x", "y&z"], "since": Date(timeIntervalSince1970: 2.5), "page": unset as Any],
                returning: Empty.self)

        // Then
        let request = try #require(transport.lastRequest)
        #expect(request.method == .delete)
        #expect(request.encodedPathAndQuery == "/users/a%20b/tags?since=2500&tag=x&tag=y%26z")
        #expect(request.headers.map(\.name) == ["X-Stamp"])
    }

    @Test("a JSON body with the domain's encoder, and a raw body with its media type")
    func bodies() async throws {
        // Given
        let transport = RecordingTransport { request in
            request.method == .post ? .json(#"{"text":"saved","at":5}"#, status: 201) : HttpOperationResult(statusCode: 204)
        }
        let api = Api(transport: transport)

        // When
        let saved: Note = try await api.invoke(.post, path: "notes", json: Note(text: "hi", at: Date(timeIntervalSince1970: 1)))
        try await api.invoke(
            .put, path: "notes/1/raw", body: RawBodyContent(text: "plain", contentType: "text/markdown"), returning: Empty.self)

        // Then
        #expect(saved == Note(text: "saved", at: Date(timeIntervalSince1970: 0.005)))
        let (post, put) = (transport.requests[0], transport.requests[1])
        let sent = try JSONSerialization.jsonObject(with: #require(try post.payload?.data())) as? [String: Any]
        #expect(sent?["text"] as? String == "hi")
        #expect(sent?["at"] as? Int == 1_000)
        #expect(post.payload?.contentType == "application/json")
        #expect(try put.payload?.data() == Data("plain".utf8))
        #expect(put.payload?.contentType == "text/markdown")
    }

    @Test("errors: a status outside 2xx, a path traversal value, a body on GET, a placeholder with no argument")
    func errors() async throws {
        // Given
        let transport = RecordingTransport { _ in .text("Forbidden for you", status: 403) }
        let api = Api(transport: transport)

        // When
        let status = await #expect(throws: HTTPError.self) { try await api.invoke(.get, path: "secret", returning: Empty.self) }
        let traversal = await #expect(throws: RequestError.self) {
            try await api.invoke(.get, path: "files/{name}", arguments: ["name": ".."], returning: Data.self)
        }
        let bodyOnGet = await #expect(throws: DeclarationError.self) {
            try await api.invoke(.get, path: "search", body: RawBodyContent(text: "q"), returning: Empty.self)
        }
        let unfilled = await #expect(throws: DeclarationError.self) {
            try await api.invoke(.get, path: "users/{id}", returning: Empty.self)
        }

        // Then
        #expect(status?.description == "HTTP 403 Forbidden from Api.invoke (GET /secret): Forbidden for you")
        #expect(
            traversal?.description
                == "Api.invoke (GET /files/{name}), field 'name': path value '..' is not allowed (path traversal)")
        #expect(
            bodyOnGet?.description == """
                RetroSwift found 1 declaration mistake:
                - Api.invoke (GET /search): a GET request cannot have a body. \
                Fix: send the values as @Query fields, or declare the endpoint with @Post, @Put or @Patch.
                """)
        #expect(
            unfilled?.description == """
                RetroSwift found 1 declaration mistake:
                - Api.invoke (GET /users/{id}): placeholder {id} has no @Path field. \
                Fix: add `@Path("id") var id: String = ""` to the endpoint, or remove {id} from the path.
                """)
        #expect(transport.requests.count == 1)
    }
}
