import Foundation
import RetroSwift
import RetroSwiftTesting
import Testing

@Suite("Response header fields")
struct HTTPHeaderFieldsTests {
    @Test("the subscript combines repeated fields in order with ', ' under any case of the name; values(for:) keeps each")
    func combinesRepeats() {
        // Given
        let headers = HTTPHeaderFields([
            HTTPHeader(name: "X-Foo", value: "a"), HTTPHeader(name: "Content-Type", value: "text/plain"),
            HTTPHeader(name: "x-foo", value: "b"), HTTPHeader(name: "X-FOO", value: ""),
        ])

        // When / Then
        #expect(headers["x-foo"] == "a, b, ")
        #expect(headers.values(for: "X-Foo") == ["a", "b", ""])
        #expect(headers["Content-Type"] == "text/plain")
        #expect(headers["Absent"] == nil)
    }

    @Test("Set-Cookie is never combined: the subscript gives the first cookie, values(for:) each one")
    func setCookieIsNeverCombined() {
        // Given: an Expires date holds a comma, so joined cookies could not be told apart again
        let headers: HTTPHeaderFields = [
            "Set-Cookie": "id=1; Expires=Wed, 21 Oct 2015 07:28:00 GMT", "set-cookie": "theme=dark",
        ]

        // When / Then
        #expect(headers["SET-COOKIE"] == "id=1; Expires=Wed, 21 Oct 2015 07:28:00 GMT")
        #expect(headers.values(for: "Set-Cookie") == ["id=1; Expires=Wed, 21 Oct 2015 07:28:00 GMT", "theme=dark"])
    }

    private final class Api: Domain, @unchecked Sendable {
        @Get("/hop") var hop: () async throws -> Empty
    }

    @Test("a redirect with two Location fields is refused: which one to follow is unknowable")
    func twoLocations() async throws {
        // Given
        let transport = RecordingTransport { _ in
            HttpOperationResult(statusCode: 302, headers: ["Location": "/a", "location": "/b"])
        }
        transport.setConfiguration(baseURL: URL(string: "https://example.test")!, sharedHeaders: nil)

        // When
        let error = await #expect(throws: RequestError.self) { try await Api(transport: transport).hop() }

        // Then
        #expect(error?.kind == .redirectRefused)
        #expect(error?.description == "Api.hop (GET /hop): the 302 redirect has 2 Location fields; which one to follow is unknowable")
        #expect(transport.requests.count == 1)
    }
}
