import Foundation
import RetroSwiftTesting
import Testing

@testable import RetroSwift

/// README.md's interceptor example promises that its log shows `Authorization` as `<redacted>`. What the log sees
/// depends on where the logger stands in the list, so this test reads the list from README.md itself, builds the
/// same chain in the same order, and checks the promise: moving the logger back to the front fails it.
@Suite("README's interceptor example")
struct ReadmeLoggingExampleTests {
    private struct User: Decodable {
        var login: String
    }

    private struct UserRequest {
        @Path var username: String
    }

    private final class GitHubApi: Domain, @unchecked Sendable {
        @Get("/users/{username}") var user: (UserRequest) async throws -> User
    }

    /// The interceptors of the README's `github.interceptors = [ … ]`, by type name, in order.
    private static func readmeInterceptors() throws -> [String] {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let readme = try String(contentsOf: root.appendingPathComponent("README.md"), encoding: .utf8)
        let lines = readme.split(separator: "\n", omittingEmptySubsequences: false)
        let start = try #require(lines.firstIndex { $0.hasPrefix("github.interceptors = [") }, "README.md has no github.interceptors list")
        var names: [String] = []
        for line in lines[(start + 1)...] {
            let code = line.trimmingCharacters(in: .whitespaces)
            if code.hasPrefix("]") { break }
            if code.hasPrefix("//") || code.isEmpty { continue }
            let name = code.prefix { $0.isLetter }
            names.append(String(name))
        }
        return names
    }

    @Test("its logger sees every attempt with Authorization shown as <redacted>")
    func logsAuthorizationRedacted() async throws {
        // Given: the README's interceptors in the README's order, and a server that refuses the saved token once
        let names = try Self.readmeInterceptors()
        #expect(Set(names) == ["LoggingInterceptor", "RetryInterceptor", "BearerAuthInterceptor"], "README lists \(names)")
        let entries = Protected<[HTTPLogEntry]>([])
        let tokens = BearerTokenStore(token: "saved-token") { _ in "fresh-token" }
        let interceptors: [any Interceptor] = try names.map { name in
            switch name {
            case "LoggingInterceptor": LoggingInterceptor { entry in entries.mutate { $0.append(entry) } }
            case "RetryInterceptor": RetryInterceptor(maxAttempts: 3)
            case "BearerAuthInterceptor": BearerAuthInterceptor(store: tokens)
            default: throw CocoaError(.featureUnsupported, userInfo: [NSDebugDescriptionErrorKey: "README names \(name)"])
            }
        }
        let transport = RecordingTransport { request in
            request.headerFields.contains { $0.name == "Authorization" && $0.value == "Bearer fresh-token" }
                ? .json(#"{"login":"swiftlang"}"#) : HttpOperationResult(statusCode: 401)
        }
        let api = GitHubApi(transport: transport)
        api.baseURL = URL(string: "https://api.github.com")
        api.interceptors = interceptors

        // When
        let user = try await api.user(UserRequest(username: "swiftlang"))

        // Then: both attempts were logged, each with its Authorization redacted, and no token reached the log
        #expect(user.login == "swiftlang")
        #expect(transport.requests.count == 2)
        #expect(entries.value.map(\.statusCode) == [401, 200])
        for entry in entries.value {
            #expect(entry.requestHeaders.contains(HTTPHeader(name: "Authorization", value: "<redacted>")), "logged \(entry.requestHeaders)")
            #expect(!"\(entry.summary) \(entry.requestHeaders)".contains("token"))
        }
    }
}
