import Foundation
import RetroSwift
import RetroSwiftTesting
import Testing

/// Code written against the earlier `Http…` spellings still compiles and means the same types (each test is
/// deprecated itself, so the deprecation warnings it exists to trigger do not fail the build).
@Suite("Earlier spellings of HTTP names")
struct DeprecatedSpellingsTests {
    private struct Profile: Decodable, Equatable { var name: String }

    @available(*, deprecated)
    private final class Api: Domain, @unchecked Sendable {
        @Get("/profile") var profile: () async throws -> HttpResponse<Profile>
        @Get("/missing") var missing: () async throws -> Profile
    }

    @available(*, deprecated)
    @Test("each earlier spelling names the same type as its HTTP spelling")
    func sameTypes() {
        // Given the pairs of spellings, When their types are compared, Then each pair is one type
        let pairs: [(Any.Type, Any.Type)] = [
            (HttpCache.self, HTTPCache.self), (HttpError.self, HTTPError.self),
            (HttpResponse<Data>.self, HTTPResponse<Data>.self), ((any HttpResponseDecodable).self, (any HTTPResponseDecodable).self),
            (HttpHeaderFields.self, HTTPHeaderFields.self), (HttpHeader.self, HTTPHeader.self), (HttpMethod.self, HTTPMethod.self),
            (HttpBodyStream.self, HTTPBodyStream.self), (HttpLogEntry.self, HTTPLogEntry.self),
            (HttpQueryItem.self, HTTPQueryItem.self), (HttpRequestBody.self, HTTPRequestBody.self),
            (HttpTransportConfiguration.self, HTTPTransportConfiguration.self),
            (HttpTransportConfigurationStore.self, HTTPTransportConfigurationStore.self),
            ((any ConfigurableHttpTransport).self, (any ConfigurableHTTPTransport).self),
        ]
        for (earlier, current) in pairs {
            #expect(ObjectIdentifier(earlier) == ObjectIdentifier(current), "\(earlier) is not \(current)")
        }
    }

    @available(*, deprecated)
    @Test("a declaration and a catch written with the earlier spellings still work")
    func earlierSpellingsInUse() async throws {
        // Given
        let transport = RecordingTransport { params in
            params.encodedPath == "/profile"
                ? .json(#"{"name":"Ann"}"#, headers: ["X-Request-Id": "r1"]) : .text("gone", status: 410)
        }
        let api = Api(transport: transport)

        // When
        let response: HttpResponse<Profile> = try await api.profile()
        let error = await #expect(throws: HttpError.self) { _ = try await api.missing() }

        // Then
        let method: HttpMethod = .get
        #expect(transport.requests.map(\.method) == [method, method])
        #expect(response.body == Profile(name: "Ann"))
        #expect(response.headers["X-Request-Id"] == "r1")
        #expect(error?.statusCode == 410)
    }
}
