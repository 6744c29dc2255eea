import Foundation
import RetroSwiftTesting
import Testing

@testable import RetroSwift

@Suite("Headers")
struct HeaderTests {
    private struct TokenRequest {
        @Header("Authorization") var authorization: String = ""
        @Header("X-Trace") var trace: String? = nil
        @Header("Accept-Language") var languages: [String] = []
    }

    private final class Api: Domain, @unchecked Sendable {
        @Get("/me", headers: ["Accept": "application/json", "X-Trace": "static"])
        var me: (TokenRequest) async throws -> Empty
    }

    private func makeApi(shared: [String: String]? = nil) -> (Api, RecordingTransport) {
        let transport = RecordingTransport()
        transport.setConfiguration(baseURL: URL(string: "https://example.test")!, sharedHeaders: shared)
        return (Api(transport: transport), transport)
    }

    @Test("nil headers are omitted and arrays are joined with a comma")
    func omitsNilAndJoinsArrays() async throws {
        // Given
        let (api, transport) = makeApi()

        // When
        _ = try await api.me(TokenRequest(authorization: "Bearer t", trace: nil, languages: ["en", "fr;q=0.8"]))

        // Then
        #expect(
            transport.lastRequest?.headerFields == [
                HTTPHeader(name: "Accept", value: "application/json"),
                HTTPHeader(name: "X-Trace", value: "static"),
                HTTPHeader(name: "Authorization", value: "Bearer t"),
                HTTPHeader(name: "Accept-Language", value: "en, fr;q=0.8"),
            ])
    }

    @Test("request fields win over endpoint headers, which win over shared headers")
    func requestHeadersWin() async throws {
        // Given
        let (api, transport) = makeApi(shared: ["authorization": "Shared", "X-App": "demo"])

        // When
        _ = try await api.me(TokenRequest(authorization: "Mine", trace: "t-1"))
        let sent = try #require(transport.lastRequest).headerFields

        // Then
        #expect(
            sent == [
                HTTPHeader(name: "X-App", value: "demo"),
                HTTPHeader(name: "Accept", value: "application/json"),
                HTTPHeader(name: "Authorization", value: "Mine"),
                HTTPHeader(name: "X-Trace", value: "t-1"),
            ])
    }

    @Test(
        "CR, LF and NUL in a value are rejected (no header injection)",
        arguments: [
            ("Bearer x\r\nX-Admin: 1", "a carriage return (CR)"),
            ("Bearer x\nX-Admin: 1", "a line feed (LF)"),
            ("Bearer \u{0}", "a NUL byte"),
        ])
    func rejectsInjection(value: String, culprit: String) async throws {
        // Given
        let (api, transport) = makeApi()

        // When
        let error = await #expect(throws: RequestError.self) {
            _ = try await api.me(TokenRequest(authorization: value))
        }

        // Then
        #expect(
            error?.description
                == "Api.me (GET /me), field 'authorization': header value contains \(culprit); CR, LF and other control characters are not allowed (they would allow header injection)"
        )
        #expect(transport.requests.isEmpty)
    }

    @Test("shared headers with CR or LF make requests fail instead of being sent")
    func rejectsInjectedSharedHeader() async throws {
        // Given
        let (api, transport) = makeApi(shared: ["X-Evil": "a\r\nb"])

        // When
        let error = await #expect(throws: RequestError.self) { _ = try await api.me(TokenRequest(authorization: "ok")) }

        // Then
        #expect(transport.requests.isEmpty)
        #expect(error?.kind == .transportNotConfigured)
        #expect(error?.reason.hasPrefix("shared header 'X-Evil': header value contains a carriage return (CR)") == true)
    }
}
