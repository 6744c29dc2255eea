import Foundation
import RetroSwift
import RetroSwiftTesting
import Testing

/// Fields that frame the message or manage the connection are set by RetroSwift and the transport from the request
/// actually sent; set by hand they are refused wherever they come from, and nothing is sent.
@Suite("Framing and connection fields")
struct FramingHeaderTests {
    private struct DeclaredRequest {
        @Header("Content-Length") var length: String = "100"
    }

    private struct MapRequest {
        @HeaderMap var extra: [String: String] = [:]
    }

    // @unchecked Sendable: the fixture adds only endpoint wrappers, set up in init and never reassigned.
    private final class Api: Domain, @unchecked Sendable {
        @Get("/declared") var declared: (DeclaredRequest) async throws -> Empty
        @Get("/static", headers: ["Connection": "close"]) var staticHeader: () async throws -> Empty
        @Get("/map") var map: (MapRequest) async throws -> Empty
        @Get("/plain") var plain: () async throws -> Empty
    }

    private struct SettingHost: Interceptor {
        func intercept(_ request: HttpRequestParams, next: InterceptorNext) async throws -> HttpOperationResult {
            try await next(try request.settingHeader("Host", to: "evil.example"))
        }
    }

    private func makeApi() -> (Api, RecordingTransport) {
        let transport = RecordingTransport()
        transport.setConfiguration(baseURL: URL(string: "https://example.test")!, sharedHeaders: nil)
        return (Api(transport: transport), transport)
    }

    @Test("a declared @Header or endpoint header that frames the message is a declaration mistake")
    func declared() async throws {
        // Given
        let (api, transport) = makeApi()

        // When
        let field = await #expect(throws: DeclarationError.self) { try await api.declared(DeclaredRequest()) }
        let endpointHeader = await #expect(throws: DeclarationError.self) { try await api.staticHeader() }

        // Then
        #expect(
            field?.description.contains(
                "'Content-Length' frames the body and is set from the body actually sent; it cannot be set by a request, a "
                    + "shared header or an interceptor") == true, "\(String(describing: field))")
        #expect(
            endpointHeader?.description.contains(
                "'Connection' manages the connection, which the transport owns; it cannot be set by a request, a shared header "
                    + "or an interceptor") == true, "\(String(describing: endpointHeader))")
        #expect(transport.requests.isEmpty)
    }

    @Test(
        "@HeaderMap keys, shared headers and interceptors cannot set them either",
        arguments: ["Upgrade", "keep-alive", "TE", "Trailer", "Proxy-Connection", "Host"])
    func runTime(name: String) async throws {
        // Given
        let (api, transport) = makeApi()

        // When
        let mapped = await #expect(throws: RequestError.self) { try await api.map(MapRequest(extra: [name: "x"])) }
        api.sharedHeaders = [name: "x"]
        let shared = await #expect(throws: RequestError.self) { try await api.plain() }
        api.sharedHeaders = [:]
        api.interceptors = [SettingHost()]
        let intercepted = await #expect(throws: RequestError.self) { try await api.plain() }

        // Then
        #expect(mapped?.kind == .invalidValue)
        #expect(mapped?.field == "extra[\"\(name)\"]")
        #expect(mapped?.reason.hasPrefix("'\(name)' ") == true)
        #expect(shared?.kind == .transportNotConfigured)
        #expect(shared?.reason.contains("'\(name)'") == true, "\(String(describing: shared))")
        #expect(
            intercepted?.description
                == "Api.plain (GET /plain), field 'Host': 'Host' is set from the URL; it cannot be set by a request, a shared "
                + "header or an interceptor")
        #expect(transport.requests.isEmpty)
    }
}
