import Foundation
import RetroSwift
import RetroSwiftTestServer
import Testing

/// The `QUERY` method (a safe, idempotent request with a body).
enum QueryMethod: EndpointMethod {
    static var method: HTTPMethod { HTTPMethod("QUERY", allowsBody: true, isIdempotent: true) }
}

typealias HttpQuery<Signature> = Endpoint<QueryMethod, Signature>

/// WebDAV's `PROPFIND`.
enum PropfindMethod: EndpointMethod {
    static var method: HTTPMethod { HTTPMethod("PROPFIND", allowsBody: true, isIdempotent: true) }
}

typealias Propfind<Signature> = Endpoint<PropfindMethod, Signature>

@Suite("End to end: OPTIONS and methods of your own", .timeLimit(.minutes(4)))
struct MethodEndToEndTests {
    private struct Search: Codable, Equatable {
        var text: String
    }

    private struct QueryRequest {
        @JsonBody var search: Search
    }

    private struct PropfindRequest {
        @Path var name: String = ""
        @Header("Depth") var depth: Int = 1
    }

    // @unchecked Sendable: the fixture adds only endpoint wrappers, set up in init and never reassigned.
    private final class Api: Domain, @unchecked Sendable {
        @Options("/files") var allowed: () async throws -> HTTPResponse<Empty>
        @HttpQuery("/contacts") var query: (QueryRequest) async throws -> [Search]
        @Propfind("/dav/{name}") var properties: (PropfindRequest) async throws -> String
    }

    @Test("OPTIONS, QUERY with a JSON body and PROPFIND reach the server with their names and bodies", arguments: TransportKind.allCases)
    func methods(kind: TransportKind) async throws {
        try await withServer(
            kind,
            respond: { request in
                switch request.method {
                case "OPTIONS": ScriptedResponse(status: 204, headers: [("Allow", "GET, OPTIONS, QUERY")])
                case "QUERY": .json(#"[{"text":"found"}]"#)
                case "PROPFIND":
                    ScriptedResponse(status: 207, headers: [("Content-Type", "application/xml")], body: Data("<multistatus/>".utf8))
                default: .text("unexpected \(request.method)", status: 405)
                }
            }
        ) { transport, server in
            // Given
            let api = Api(transport: transport)

            // When
            let allowed = try await api.allowed()
            let found = try await api.query(QueryRequest(search: Search(text: "ann")))
            let properties = try await api.properties(PropfindRequest(name: "notes.txt", depth: 0))

            // Then
            #expect(allowed.header("Allow") == "GET, OPTIONS, QUERY")
            #expect(found == [Search(text: "found")])
            #expect(properties == "<multistatus/>")
            let requests = server.requests
            #expect(requests.map(\.method) == ["OPTIONS", "QUERY", "PROPFIND"])
            #expect(requests.map(\.target) == ["/files", "/contacts", "/dav/notes.txt"])
            #expect(requests[1].body == Data(#"{"text":"ann"}"#.utf8))
            #expect(requests[1].header("Content-Type") == "application/json")
            #expect(requests[2].header("Depth") == "0")
        }
    }
}
