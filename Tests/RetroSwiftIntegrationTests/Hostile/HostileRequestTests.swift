import Foundation
import RetroSwift
import RetroSwiftTestServer
import Testing

/// Extreme or dangerous values in a request: each is refused before anything is sent, with a `RequestError` naming the
/// endpoint and the field, on every transport — never a crash, never a request other than the one asked for.
@Suite("End to end: hostile request values", .timeLimit(.minutes(4)))
struct HostileRequestTests {
    private struct Event: Encodable {
        var at: Date
    }

    private struct SearchRequest {
        @Query var since: Date? = nil
        @Query var score: Double? = nil
        @HeaderMap var extra: [String: String] = [:]
        @JsonBody var event: Event? = nil
    }

    // @unchecked Sendable: the fixture adds only endpoint wrappers, set up in init and never reassigned.
    private final class Api: Domain, @unchecked Sendable {
        @Post("/search") var search: (SearchRequest) async throws -> Empty
        @Get("/hop") var hop: () async throws -> Empty
    }

    private static let refusedValues: [(SearchRequest, String)] = [
        (
            SearchRequest(since: Date(timeIntervalSince1970: 1e17)),
            "Api.search (POST /search), field 'since': the date 1e+17 seconds since 1970 cannot be sent: its milliseconds "
                + "since 1970 must fit a 64-bit integer (about 292 million years either side of 1970)"
        ),
        (
            SearchRequest(since: Date(timeIntervalSince1970: -.infinity)),
            "Api.search (POST /search), field 'since': the date -infinity seconds since 1970 cannot be sent: its "
                + "milliseconds since 1970 must fit a 64-bit integer (about 292 million years either side of 1970)"
        ),
        (
            SearchRequest(score: .nan),
            "Api.search (POST /search), field 'score': NaN cannot be sent: only finite numbers have a wire form"
        ),
        (
            SearchRequest(extra: ["Content-Length": "100"]),
            "Api.search (POST /search), field 'extra[\"Content-Length\"]': 'Content-Length' frames the body and is set "
                + "from the body actually sent; it cannot be set by a request, a shared header or an interceptor"
        ),
        (
            SearchRequest(extra: ["transfer-encoding": "chunked"]),
            "Api.search (POST /search), field 'extra[\"transfer-encoding\"]': 'transfer-encoding' frames the body and is "
                + "set by the transport; it cannot be set by a request, a shared header or an interceptor"
        ),
        (
            SearchRequest(event: Event(at: Date(timeIntervalSince1970: -1e300))),
            "Api.search (POST /search), field 'event': the JSON body could not be encoded: at 'at': the date -1e+300 "
                + "seconds since 1970 cannot be sent: its milliseconds since 1970 must fit a 64-bit integer (about 292 "
                + "million years either side of 1970)"
        ),
    ]

    @Test(
        "extreme dates, non-finite numbers and framing fields are refused naming the field; nothing is sent",
        arguments: TransportKind.allCases, 0..<refusedValues.count)
    func refusedBeforeSending(kind: TransportKind, index: Int) async throws {
        // Given
        let (request, message) = Self.refusedValues[index]
        try await withServer(kind) { transport, server in
            let api = Api(transport: transport)

            // When
            let error = await #expect(throws: RequestError.self) { try await api.search(request) }

            // Then
            #expect(error?.description == message)
            #expect(server.requests.isEmpty)
        }
    }

    @Test(
        "a redirect whose Location carries user:password@ is refused, and no Authorization is ever sent",
        arguments: TransportKind.allCases)
    func redirectWithUserInfo(kind: TransportKind) async throws {
        // Given
        let target = Locked("")
        try await withServer(
            kind,
            respond: { request in
                request.target == "/hop"
                    ? ScriptedResponse(status: 302, headers: [("Location", target.withLock { $0 })]) : ScriptedResponse(status: 204)
            }
        ) { transport, server in
            target.withLock { $0 = "http://user:secret@127.0.0.1:\(server.port)/landed" }

            // When
            let error = await #expect(throws: RequestError.self) { try await Api(transport: transport).hop() }

            // Then
            #expect(error?.kind == .redirectRefused)
            #expect(
                error?.description
                    == "Api.hop (GET /hop): the 302 redirect's Location 'http://***@127.0.0.1:\(server.port)/landed' carries "
                    + "user information; credentials in a redirect are never used, so it is not followed")
            #expect(server.requests.map(\.target) == ["/hop"])
            #expect(server.requests.allSatisfy { $0.header("Authorization") == nil })
        }
    }
}
