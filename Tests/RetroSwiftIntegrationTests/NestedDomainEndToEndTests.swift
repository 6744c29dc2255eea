import Foundation
import RetroSwift
import RetroSwiftTestServer
import Testing

/// A domain nested in another, against the scripted server on every transport.
@Suite("End to end: nested domains", .timeLimit(.minutes(4)))
struct NestedDomainEndToEndTests {
    struct Issue: Decodable, Equatable, Sendable {
        var path: String
    }

    struct IssuesRequest {
        @Query var state: String = "open"
        @Header("X-Trace") var trace: String = "t1"
    }

    // @unchecked Sendable: the fixtures add only endpoint wrappers, set up in init and never reassigned.
    final class HubApi: RetroSwift.ApiDomain, @unchecked Sendable {
        func repository(owner: String, name: String) -> RepositoryApi {
            RepositoryApi(parent: self, path: "/repos/{owner}/{name}", values: ["owner": owner, "name": name])
        }
    }

    final class RepositoryApi: Domain, @unchecked Sendable {
        @Get("/issues") var issues: (IssuesRequest) async throws -> Issue
    }

    @Test(
        "a nested endpoint reaches the bound path under the base path, with the parent's shared headers", arguments: TransportKind.allCases)
    func nestedCall(kind: TransportKind) async throws {
        try await withServer(
            kind,
            respond: { request in
                ScriptedResponse(
                    status: 200, headers: [("Content-Type", "application/json")],
                    body: Data(#"{"path":"\#(request.target)"}"#.utf8))
            }
        ) { transport, server in
            // Given
            let api = HubApi(
                transport: transport, baseURL: URL(string: server.baseURL.absoluteString + "/api")!, sharedHeaders: ["X-Key": "k"])

            // When
            let issue = try await api.repository(owner: "swift lang", name: "swift").issues(IssuesRequest(state: "closed"))

            // Then
            let received = try #require(server.requests.last)
            #expect(received.target == "/api/repos/swift%20lang/swift/issues?state=closed")
            #expect(received.pathSegments == ["api", "repos", "swift lang", "swift", "issues"])
            #expect(received.header("X-Key") == "k")
            #expect(received.header("X-Trace") == "t1")
            #expect(issue.path == received.target)
        }
    }
}
