import Foundation
import RetroSwift
import RetroSwiftTesting
import Testing

@Suite("Nested domains: a parent binds a path once")
struct NestedDomainTests {
    struct IssuesRequest {
        @Query var state: String = "open"
    }

    struct IssueRequest {
        @Path var number: Int = 0
    }

    struct LinkRequest {
        @Url var url: String = ""
    }

    // @unchecked Sendable: the fixtures add only endpoint wrappers, set up in init and never reassigned.
    final class HubApi: RetroSwift.ApiDomain, @unchecked Sendable {
        @Get("/user") var user: () async throws -> Empty

        func repository(owner: String, name: String) -> RepositoryApi {
            RepositoryApi(parent: self, path: "/repos/{owner}/{name}", values: ["owner": owner, "name": name])
        }
    }

    final class RepositoryApi: Domain, @unchecked Sendable {
        @Get("/issues") var issues: (IssuesRequest) async throws -> Empty
        @Get("/issues/{number}") var issue: (IssueRequest) async throws -> Empty
        @Get() var link: (LinkRequest) async throws -> Empty

        var labels: LabelsApi { LabelsApi(parent: self, path: "/labels") }
    }

    final class LabelsApi: Domain, @unchecked Sendable {
        @Get("/{label}") var label: (LabelRequest) async throws -> Empty
    }

    struct LabelRequest {
        @Path var label: String = ""
    }

    final class ClashingApi: Domain, @unchecked Sendable {
        @Get("/things/{owner}") var thing: (OwnerRequest) async throws -> Empty
    }

    struct OwnerRequest {
        @Path var owner: String = ""
    }

    private func github() -> (HubApi, RecordingTransport) {
        let transport = RecordingTransport()
        let api = HubApi(transport: transport, baseURL: URL(string: "https://api.example/v3")!, sharedHeaders: ["X-Key": "k"])
        return (api, transport)
    }

    @Test("a nested domain's paths go after the parent's bound path, encoded like @Path values; nesting adds up")
    func paths() async throws {
        // Given
        let (api, transport) = github()
        let repository = api.repository(owner: "a b", name: "ü/x")

        // When
        _ = try await repository.issues(IssuesRequest(state: "closed"))
        _ = try await repository.issue(IssueRequest(number: 7))
        _ = try await repository.labels.label(LabelRequest(label: "bug fix"))
        _ = try await repository.link(LinkRequest(url: "pulls?page=2"))
        _ = try await repository.link(LinkRequest(url: "https://api.example/elsewhere"))
        let _: Empty = try await repository.invoke(.get, path: "stargazers", arguments: ["per_page": 5])

        // Then
        let urls = transport.requests.map { $0.url.absoluteString }
        #expect(
            urls == [
                "https://api.example/v3/repos/a%20b/%C3%BC%2Fx/issues?state=closed",
                "https://api.example/v3/repos/a%20b/%C3%BC%2Fx/issues/7",
                "https://api.example/v3/repos/a%20b/%C3%BC%2Fx/labels/bug%20fix",
                "https://api.example/v3/repos/a%20b/%C3%BC%2Fx/pulls?page=2",
                "https://api.example/elsewhere",
                "https://api.example/v3/repos/a%20b/%C3%BC%2Fx/stargazers?per_page=5",
            ])
    }

    @Test("a nested domain shares the parent's transport and settings: interceptors, shared headers, base URL")
    func sharedSettings() async throws {
        // Given
        let (api, transport) = github()
        let repository = api.repository(owner: "apple", name: "swift")
        api.interceptors = [Tagging()]

        // When
        _ = try await repository.issues(IssuesRequest())
        repository.setConfiguration(baseURL: URL(string: "https://staging.example")!, sharedHeaders: ["X-Key": "staging"])
        _ = try await api.user()

        // Then
        #expect(repository.transport as? RecordingTransport === transport)
        #expect(transport.requests.map { $0.header("X-Tag") } == ["tagged", "tagged"])
        #expect(transport.requests.map { $0.header("X-Key") } == ["k", "staging"])
        #expect(try #require(transport.lastRequest).url.absoluteString == "https://staging.example/user")
    }

    private struct Tagging: Interceptor {
        func intercept(_ request: HttpRequestParams, next: InterceptorNext) async throws -> HttpOperationResult {
            try await next(request.settingHeader("X-Tag", to: "tagged"))
        }
    }

    @Test("a bound value that cannot fill its placeholder is a RequestError naming it, on every call; nothing is sent")
    func badValues() async throws {
        // Given
        let (api, transport) = github()

        // When
        let traversal = await #expect(throws: RequestError.self) {
            _ = try await api.repository(owner: "..", name: "swift").issues(IssuesRequest())
        }
        let empty = await #expect(throws: RequestError.self) {
            _ = try await api.repository(owner: "apple", name: "").issue(IssueRequest(number: 1))
        }

        // Then
        #expect(
            traversal?.description
                == "RepositoryApi.issues (GET /issues), field 'owner': the nested path '/repos/{owner}/{name}': path value '..' "
                + "is not allowed (path traversal); nothing was sent")
        #expect(empty?.field == "name")
        #expect(transport.requests.isEmpty)
    }

    @Test("declaration mistakes of a nested path are thrown by every call and reported by validateEndpoints()")
    func declarationMistakes() async throws {
        // Given
        let (api, transport) = github()
        let malformed = RepositoryApi(parent: api, path: "/repos/{owner}/?x=1", values: ["owner": "a", "extra": 1])
        let clashing = ClashingApi(parent: api, path: "/users/{owner}", values: ["owner": "a"])

        // When
        let error = await #expect(throws: DeclarationError.self) { _ = try await malformed.issues(IssuesRequest()) }
        let clash = #expect(throws: DeclarationError.self) { try clashing.validateEndpoints() }

        // Then
        #expect(
            error?.description == """
                RetroSwift found 3 declaration mistakes:
                - RepositoryApi.issues (GET /issues): the nested path '/repos/{owner}/?x=1' has a query. Fix: declare \
                query items on the endpoints, or with @Query fields.
                - RepositoryApi.issues (GET /issues): the nested path '/repos/{owner}/?x=1' ends with '/', which would \
                double the endpoints' own. Fix: drop the last '/'.
                - RepositoryApi.issues (GET /issues): value 'extra' matches no placeholder of the nested path \
                '/repos/{owner}/?x=1'. Fix: add {extra} to the path, or drop the value.
                """)
        #expect(
            clash?.description == """
                RetroSwift found 1 declaration mistake:
                - ClashingApi.thing (GET /things/{owner}): placeholder {owner} is already bound by the enclosing path \
                '/users/{owner}'. Fix: rename the endpoint's placeholder.
                """)
        #expect(transport.requests.isEmpty)
    }

    @Test("a placeholder without a value, and one the enclosing nested path already binds, are declaration mistakes")
    func missingAndTwiceBound() async throws {
        // Given
        let (api, transport) = github()
        let missing = RepositoryApi(parent: api, path: "/repos/{owner}/{name}", values: ["owner": "a"])
        let twice = LabelsApi(parent: api.repository(owner: "a", name: "b"), path: "/x/{owner}", values: ["owner": "c"])

        // When
        let missingError = #expect(throws: DeclarationError.self) { try missing.validateEndpoints() }
        let twiceError = await #expect(throws: DeclarationError.self) { _ = try await twice.label(LabelRequest(label: "l")) }

        // Then
        #expect(
            missingError?.issues.map(\.description) == [
                "RepositoryApi.issues (GET /issues): placeholder {name} of the nested path '/repos/{owner}/{name}' has no "
                    + "value. Fix: pass values: [\"name\": ...].",
                "RepositoryApi.issue (GET /issues/{number}): placeholder {name} of the nested path '/repos/{owner}/{name}' "
                    + "has no value. Fix: pass values: [\"name\": ...].",
                "RepositoryApi.link (GET @Url): placeholder {name} of the nested path '/repos/{owner}/{name}' has no value. "
                    + "Fix: pass values: [\"name\": ...].",
            ])
        #expect(
            twiceError?.description == """
                RetroSwift found 1 declaration mistake:
                - LabelsApi.label (GET /{label}): placeholder {owner} of '/x/{owner}' is already bound by the enclosing \
                path '/repos/{owner}/{name}'. Fix: rename one of them.
                """)
        #expect(transport.requests.isEmpty)
    }
}
