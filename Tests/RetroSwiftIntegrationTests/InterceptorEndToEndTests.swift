import Foundation
import RetroSwift
import RetroSwiftTestServer
import RetroSwiftTesting
import Testing

@Suite("End to end: interceptors", .timeLimit(.minutes(4)))
struct InterceptorEndToEndTests {
    private struct Item: Codable, Equatable {
        var id: Int
    }

    private struct ItemRequest {
        @Path var id: Int = 0
    }

    // @unchecked Sendable: the fixture adds only endpoint wrappers, set up in init and never reassigned.
    private final class Api: Domain, @unchecked Sendable {
        @Get("/items/{id}") var item: (ItemRequest) async throws -> Item
        @Post("/items") var create: () async throws -> Empty
        @Get("/items/{id}") var keyedItem: (KeyedItemRequest) async throws -> Item
    }

    /// Counts calls per target so a script can fail the first ones.
    private final class Attempts: Sendable {
        private let counts = Protected<[String: Int]>([:])

        func next(_ key: String) -> Int {
            counts.mutate { counts in
                counts[key, default: 0] += 1
                return counts[key]!
            }
        }
    }

    @Test("a token that expires mid-run with 20 concurrent calls causes exactly one refresh", arguments: TransportKind.allCases)
    func tokenExpiry(kind: TransportKind) async throws {
        let validToken = Protected("old")
        try await withServer(
            kind,
            respond: { request in
                guard request.header("Authorization") == "Bearer \(validToken.value)" else { return .text("expired", status: 401) }
                return .json(#"{"id":\#(request.pathSegments.last ?? "0")}"#)
            }
        ) { transport, server in
            // Given: a refresh as slow as a token server's (a delay under test: calls pile up behind it)
            let refreshes = Protected(0)
            let store = BearerTokenStore(token: "old") { _ in
                refreshes.mutate { $0 += 1 }
                try await Task.sleep(nanoseconds: 30_000_000)
                return "new"
            }
            let api = Api(transport: transport)
            api.interceptors = [BearerAuthInterceptor(store: store)]
            _ = try await api.item(ItemRequest(id: 0))

            // When
            validToken.mutate { $0 = "new" }
            let items = try await withThrowingTaskGroup(of: Item.self) { group in
                for id in 1...20 { group.addTask { try await api.item(ItemRequest(id: id)) } }
                return try await group.reduce(into: []) { $0.append($1) }
            }

            // Then
            #expect(Set(items.map(\.id)) == Set(1...20))
            #expect(refreshes.value == 1)
            #expect(server.requests.filter { $0.header("Authorization") == "Bearer new" }.count == 20)
        }
    }

    @Test(
        "an app with no token yet (an empty one) fetches one once and the call succeeds with it, however many calls start together",
        arguments: TransportKind.allCases)
    func emptyToken(kind: TransportKind) async throws {
        try await withServer(
            kind,
            respond: { request in
                guard request.header("Authorization") == "Bearer fresh" else { return .text("who are you?", status: 401) }
                return .json(#"{"id":\#(request.pathSegments.last ?? "0")}"#)
            }
        ) { transport, server in
            // Given: a store an app made before its user signed in
            let refreshes = Protected<[String?]>([])
            let store = BearerTokenStore(token: "") { rejected in
                refreshes.mutate { $0.append(rejected) }
                // A delay under test: a token server's answer takes a moment, and the other calls come meanwhile.
                try await Task.sleep(nanoseconds: 30_000_000)
                return "fresh"
            }
            let api = Api(transport: transport)
            api.interceptors = [BearerAuthInterceptor(store: store)]

            // When
            let items = try await withThrowingTaskGroup(of: Item.self) { group in
                for id in 1...5 { group.addTask { try await api.item(ItemRequest(id: id)) } }
                return try await group.reduce(into: []) { $0.append($1) }
            }

            // Then: one refresh, asked with no rejected token, and every call went out once, with the fresh token
            #expect(items.map(\.id).sorted() == [1, 2, 3, 4, 5])
            #expect(refreshes.value == [nil])
            #expect(server.requests.count == 5)
            #expect(server.requests.allSatisfy { $0.header("Authorization") == "Bearer fresh" })
        }
    }

    /// An app's own error, thrown from its interceptor.
    private struct NotSignedIn: Error, Equatable {
        let reason: String
    }

    /// Throws the app's own error for one endpoint, and records what the transport's failures look like to an
    /// interceptor.
    private struct Gatekeeper: Interceptor {
        let seen: Protected<[String]>

        func intercept(_ request: HttpRequestParams, next: InterceptorNext) async throws -> HttpOperationResult {
            if request.endpoint.name == "create" { throw NotSignedIn(reason: "no session") }
            do {
                return try await next(request)
            } catch let error as TransportError {
                seen.mutate { $0.append("TransportError \(error.code.map { "\($0.rawValue)" } ?? "-") at \(error.endpoint)") }
                throw error
            }
        }
    }

    @Test(
        "an interceptor's own error reaches the caller as it was thrown; a transport's failure is a TransportError to interceptors and caller alike",
        arguments: TransportKind.allCases)
    func errorsKeepTheirShape(kind: TransportKind) async throws {
        let closed = try await TestServer.unusedPort()
        try await withServer(kind) { transport, _ in
            // Given
            let seen = Protected<[String]>([])
            let api = Api(transport: transport)
            api.interceptors = [Gatekeeper(seen: seen)]
            let unreachable = Api(transport: kind.make())
            unreachable.baseURL = URL(string: "http://127.0.0.1:\(closed)")!
            unreachable.interceptors = [Gatekeeper(seen: seen)]

            // When
            let own = await #expect(throws: NotSignedIn.self) { _ = try await api.create() }
            let failed = await #expect(throws: TransportError.self) { _ = try await unreachable.item(ItemRequest(id: 1)) }

            // Then
            #expect(own == NotSignedIn(reason: "no session"))
            #expect(failed?.code == .cannotConnectToHost)
            #expect(failed?.endpoint.description == "Api.item (GET /items/{id})")
            #expect(seen.value == ["TransportError -1004 at Api.item (GET /items/{id})"])
        }
    }

    @Test("a server that fails twice then succeeds takes three attempts", arguments: TransportKind.allCases)
    func failsTwice(kind: TransportKind) async throws {
        let attempts = Attempts()
        try await withServer(
            kind,
            respond: { request in
                attempts.next(request.target) <= 2 ? .text("busy", status: 503) : .json(#"{"id":7}"#)
            }
        ) { transport, server in
            // Given
            let sleeps = Protected<[TimeInterval]>([])
            let api = Api(transport: transport)
            api.interceptors = [
                RetryInterceptor(maxAttempts: 3, baseDelay: 0.05, maxDelay: 1) { seconds in
                    sleeps.mutate { $0.append(seconds) }
                    try await Task.sleep(nanoseconds: UInt64(seconds * 1e9))
                }
            ]

            // When
            let item = try await api.item(ItemRequest(id: 7))

            // Then
            #expect(item == Item(id: 7))
            #expect(server.requests.count == 3)
            #expect(sleeps.value.count == 2 && sleeps.value[0] <= 0.05 && sleeps.value[1] <= 0.1)
        }
    }

    @Test("a POST is not retried", arguments: TransportKind.allCases)
    func postNotRetried(kind: TransportKind) async throws {
        try await withServer(kind, respond: { _ in .text("busy", status: 503) }) { transport, server in
            // Given
            let api = Api(transport: transport)
            api.interceptors = [RetryInterceptor(maxAttempts: 3, baseDelay: 0.01)]

            // When
            await #expect(throws: HTTPError.self) { _ = try await api.create() }

            // Then
            #expect(server.requests.count == 1)
        }
    }

    @Test("429 with Retry-After is waited for, then retried", arguments: TransportKind.allCases)
    func retryAfter(kind: TransportKind) async throws {
        let attempts = Attempts()
        try await withServer(
            kind,
            respond: { request in
                attempts.next(request.target) == 1
                    ? ScriptedResponse(status: 429, headers: [("Retry-After", "1")], body: Data("slow down".utf8))
                    : .json(#"{"id":1}"#)
            }
        ) { transport, server in
            // Given
            let sleeps = Protected<[TimeInterval]>([])
            let api = Api(transport: transport)
            api.interceptors = [RetryInterceptor { seconds in sleeps.mutate { $0.append(seconds) } }]

            // When
            _ = try await api.item(ItemRequest(id: 1))

            // Then
            #expect(sleeps.value == [1])
            #expect(server.requests.count == 2)
        }
    }

    private struct KeyedItemRequest {
        @Path var id: Int = 0
        @Query("api_key") var apiKey: String = "query-secret"
        @Query var view: String = "full"
        @Header("X-Api-Key") var headerKey: String = "header-secret"
        @Header("X-Trace") var trace: String = "trace-1"
    }

    /// Adds the credentials an app's own interceptors typically add, so the logger placed after them sees each one.
    private struct AddingCredentials: Interceptor {
        func intercept(_ request: HttpRequestParams, next: InterceptorNext) async throws -> HttpOperationResult {
            try await next(
                request.settingHeader("Proxy-Authorization", to: "Basic proxy-secret").settingHeader("Cookie", to: "session=cookie-secret")
            )
        }
    }

    @Test(
        "the log has method, target, status and duration, and each secret header and query value redacted",
        arguments: TransportKind.allCases)
    func logging(kind: TransportKind) async throws {
        try await withServer(
            kind,
            respond: { _ in
                ScriptedResponse(
                    status: 200, headers: [("Content-Type", "application/json"), ("Set-Cookie", "session=server-secret")],
                    body: Data(#"{"id":3}"#.utf8))
            }
        ) { transport, server in
            // Given: the logger last, so every credential the interceptors add reaches it
            let entries = Protected<[HTTPLogEntry]>([])
            let api = Api(transport: transport)
            api.interceptors = [
                BearerAuthInterceptor(store: BearerTokenStore(token: "token-secret") { _ in "token-secret" }),
                AddingCredentials(),
                LoggingInterceptor(redacting: ["X-Api-Key"]) { entry in entries.mutate { $0.append(entry) } },
            ]

            // When
            _ = try await api.keyedItem(KeyedItemRequest(id: 3))

            // Then: the server got every secret, the log none of them
            let received = try #require(server.requests.first)
            #expect(received.header("Authorization") == "Bearer token-secret")
            #expect(received.header("Proxy-Authorization") == "Basic proxy-secret")
            #expect(received.header("Cookie") == "session=cookie-secret")
            #expect(received.header("X-Api-Key") == "header-secret")
            #expect(received.target == "/items/3?api_key=query-secret&view=full")
            let entry = try #require(entries.value.first)
            let logged = Dictionary(uniqueKeysWithValues: entry.requestHeaders.map { ($0.name, $0.value) })
            #expect(
                logged == [
                    "Authorization": "<redacted>", "Proxy-Authorization": "<redacted>", "Cookie": "<redacted>",
                    "X-Api-Key": "<redacted>", "X-Trace": "trace-1",
                ])
            #expect(entry.responseHeaders.values(for: "Set-Cookie") == ["<redacted>"])
            #expect(entry.responseHeaders["Content-Type"] == "application/json")
            #expect(entry.target == "/items/3?api_key=<redacted>&view=full")
            #expect(entry.summary.hasPrefix("GET /items/3?api_key=<redacted>&view=full -> 200 ("))
            #expect(!"\(entry.summary) \(entry.requestHeaders) \(entry.responseHeaders)".contains("secret"))
        }
    }
}
