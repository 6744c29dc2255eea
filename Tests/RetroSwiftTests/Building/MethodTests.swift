import Foundation
import RetroSwiftTesting
import Testing

@testable import RetroSwift

/// WebDAV's `PROPFIND`: a body, idempotent.
enum PropfindMethod: EndpointMethod {
    static var method: HTTPMethod { HTTPMethod("PROPFIND", allowsBody: true, isIdempotent: true) }
}

typealias Propfind<Signature> = Endpoint<PropfindMethod, Signature>

/// WebDAV's `LOCK`: a body, not idempotent.
enum LockMethod: EndpointMethod {
    static var method: HTTPMethod { HTTPMethod("LOCK", allowsBody: true) }
}

typealias Lock<Signature> = Endpoint<LockMethod, Signature>

/// A method declared without a body.
enum PurgeMethod: EndpointMethod {
    static var method: HTTPMethod { HTTPMethod("PURGE", allowsBody: false) }
}

typealias Purge<Signature> = Endpoint<PurgeMethod, Signature>

/// A name that is not a token.
enum BrokenMethod: EndpointMethod {
    static var method: HTTPMethod { HTTPMethod("PROP FIND", allowsBody: true) }
}

typealias Broken<Signature> = Endpoint<BrokenMethod, Signature>

@Suite("Methods: OPTIONS and methods of your own")
struct MethodTests {
    private struct Properties: Encodable {
        var depth = 1
    }

    private struct PropfindRequest {
        @Path var id: Int = 0
        @Header("Depth") var depth: String = "1"
        @JsonBody var body = Properties()
    }

    private struct FormRequest {
        @FormParam var reason: String = ""
    }

    // @unchecked Sendable: the fixture adds only endpoint wrappers, set up in init and never reassigned.
    private final class Api: Domain, @unchecked Sendable {
        @Options("/files") var allowed: () async throws -> Empty
        @Propfind("/files/{id}") var properties: (PropfindRequest) async throws -> Empty
        @Lock("/files/1") var lock: () async throws -> Empty
        @Purge("/cache") var purge: () async throws -> Empty
        @Purge("/cache") var purgeWithBody: (FormRequest) async throws -> Empty
        @Broken("/x") var broken: () async throws -> Empty
    }

    @Test("an OPTIONS endpoint and a method of your own send their names, headers and bodies")
    func customMethods() async throws {
        // Given
        let transport = RecordingTransport()
        let api = Api(transport: transport)

        // When
        _ = try await api.allowed()
        _ = try await api.properties(PropfindRequest(id: 7))
        _ = try await api.lock()

        // Then
        let requests = transport.requests
        #expect(requests.map(\.method.rawValue) == ["OPTIONS", "PROPFIND", "LOCK"])
        #expect(requests[1].encodedPath == "/files/7")
        #expect(try requests[1].payload?.data() == Data(#"{"depth":1}"#.utf8))
        #expect(requests[1].headerFields.map(\.name) == ["Depth", "Content-Type"])
        #expect("\(requests[1].endpoint)" == "Api.properties (PROPFIND /files/{id})")
    }

    @Test("methods compare by their case-sensitive name; unknown names allow a body and are not idempotent")
    func identity() {
        #expect(HTTPMethod(rawValue: "GET") == .get)
        #expect(HTTPMethod(rawValue: "GET")?.allowsBody == false)
        #expect(HTTPMethod(rawValue: "get") != .get)
        #expect(HTTPMethod(rawValue: "PROPFIND")?.allowsBody == true)
        #expect(HTTPMethod(rawValue: "PROPFIND")?.isIdempotent == false)
        #expect(HTTPMethod("QUERY", allowsBody: true, isIdempotent: true) == HTTPMethod(rawValue: "QUERY"))
    }

    @Test("RetryInterceptor retries a method of your own only when it is declared idempotent")
    func retries() async throws {
        // Given
        let transport = RecordingTransport { _ in HttpOperationResult(statusCode: 503) }
        let api = Api(transport: transport)
        api.interceptors = [RetryInterceptor(maxAttempts: 2, sleep: { _ in })]

        // When
        await #expect(throws: HTTPError.self) { _ = try await api.properties(PropfindRequest(id: 1)) }
        await #expect(throws: HTTPError.self) { _ = try await api.lock() }

        // Then
        #expect(transport.requests.map(\.method.rawValue) == ["PROPFIND", "PROPFIND", "LOCK"])
    }

    @Test("a method name that is not a token, and a body on a method declared without one, are declaration mistakes")
    func mistakes() async throws {
        // Given
        let transport = RecordingTransport()
        let api = Api(transport: transport)

        // When
        let broken = await #expect(throws: DeclarationError.self) { _ = try await api.broken() }
        let body = await #expect(throws: DeclarationError.self) { _ = try await api.purgeWithBody(FormRequest(reason: "x")) }
        _ = try await api.purge()

        // Then
        #expect(
            broken?.description == """
                RetroSwift found 1 declaration mistake:
                - Api.broken (PROP FIND /x): method 'PROP FIND' contains ' ', which is not allowed in a method name (an \
                RFC 9110 token). Fix: name the method with letters, digits and !#$%&'*+-.^_`|~ only, such as PROPFIND.
                """)
        #expect(
            body?.description == """
                RetroSwift found 1 declaration mistake:
                - Api.purgeWithBody (PURGE /cache): a PURGE request cannot have a body. \
                Fix: send the values as @Query fields, or make the method with allowsBody: true.
                """)
        #expect(transport.requests.map(\.method.rawValue) == ["PURGE"])
    }
}
