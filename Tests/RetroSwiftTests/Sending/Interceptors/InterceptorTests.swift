import Foundation
import RetroSwiftTestServer
import RetroSwiftTesting
import Testing

@testable import RetroSwift

@Suite("Interceptors")
struct InterceptorTests {
    private struct Profile: Codable, Equatable {
        var name: String
    }

    private struct ProfileRequest {
        @Header("Cookie") var cookie: String? = nil
        @Query var id: Int = 0
    }

    private final class Api: Domain, @unchecked Sendable {
        @Get("/profile") var profile: (ProfileRequest) async throws -> Profile
        @Get("/profile") var profileWithMetadata: (ProfileRequest) async throws -> HTTPResponse<Profile>
        @Post("/profile") var update: () async throws -> Empty
        @Put("/profile") var replace: () async throws -> Empty
    }

    /// Adds a header and records the order it ran in.
    private struct Tagging: Interceptor {
        let tag: String
        let order: Protected<[String]>

        func intercept(_ request: HttpRequestParams, next: InterceptorNext) async throws -> HttpOperationResult {
            order.mutate { $0.append(tag) }
            return try await next(request.settingHeader("X-Tag-\(tag)", to: tag))
        }
    }

    /// Answers without calling the transport.
    private struct Offline: Interceptor {
        func intercept(_ request: HttpRequestParams, next: InterceptorNext) async throws -> HttpOperationResult {
            .json(#"{"name":"cached"}"#)
        }
    }

    @Test("interceptors run in order and can change the request")
    func order() async throws {
        // Given
        let transport = RecordingTransport { _ in .json(#"{"name":"Ann"}"#) }
        let api = Api(transport: transport)
        let order = Protected<[String]>([])
        api.interceptors = [Tagging(tag: "A", order: order), Tagging(tag: "B", order: order)]

        // When
        _ = try await api.profile(ProfileRequest())

        // Then
        #expect(order.value == ["A", "B"])
        #expect(transport.lastRequest?.headers.map(\.name) == ["X-Tag-A", "X-Tag-B"])
    }

    @Test("an interceptor can answer without the transport")
    func shortCircuit() async throws {
        // Given
        let transport = RecordingTransport()
        let api = Api(transport: transport)
        api.interceptors = [Offline()]

        // When
        let profile = try await api.profile(ProfileRequest())

        // Then
        #expect(profile == Profile(name: "cached"))
        #expect(transport.requests.isEmpty)
    }

    @Test("settingHeader refuses CR and LF")
    func settingHeaderValidates() async throws {
        // Given
        let transport = RecordingTransport()
        let api = Api(transport: transport)
        api.interceptors = [Tagging(tag: "bad\r\nX-Evil: 1", order: Protected([]))]

        // When / Then
        await #expect(throws: RequestError.self) { _ = try await api.profile(ProfileRequest()) }
        #expect(transport.requests.isEmpty)
    }

    @Test("HTTPResponse gives the decoded body with status and headers")
    func metadata() async throws {
        // Given
        let api = Api(transport: RecordingTransport { _ in .json(#"{"name":"Ann"}"#, status: 203, headers: ["ETag": "v1"]) })

        // When
        let response = try await api.profileWithMetadata(ProfileRequest())

        // Then
        #expect(response.body == Profile(name: "Ann"))
        #expect(response.statusCode == 203)
        #expect(response.header("etag") == "v1")
    }
}

@Suite("Bearer authentication")
struct BearerAuthTests {
    private struct Item: Codable, Equatable {
        var id: Int
    }

    private struct ItemRequest {
        @Path var id: Int = 0
    }

    private final class Api: Domain, @unchecked Sendable {
        @Get("/items/{id}") var item: (ItemRequest) async throws -> Item
    }

    /// A server that accepts only the current token and echoes the item id.
    private static func server(validToken: Protected<String>) -> RecordingTransport {
        RecordingTransport { request in
            guard request.header("Authorization") == "Bearer \(validToken.value)" else { return .text("expired", status: 401) }
            return .json(#"{"id":\#(request.encodedPath.split(separator: "/").last!)}"#)
        }
    }

    @Test("20 concurrent calls with an expired token cause exactly one refresh")
    func singleFlight() async throws {
        // Given: a refresh that ends when the test says
        let valid = Protected("fresh")
        let refreshes = Protected(0)
        let gate = AsyncStream<Void>.makeStream()
        let store = BearerTokenStore(token: "stale") { rejected in
            #expect(rejected == "stale")
            refreshes.mutate { $0 += 1 }
            for await _ in gate.stream { break }
            return "fresh"
        }
        let api = Api(transport: Self.server(validToken: valid))
        api.interceptors = [BearerAuthInterceptor(store: store)]

        // When: all 20 calls wait for the refresh before it ends
        let calls = Task {
            try await withThrowingTaskGroup(of: Item.self) { group in
                for id in 0..<20 { group.addTask { try await api.item(ItemRequest(id: id)) } }
                return try await group.reduce(into: []) { $0.append($1) }
            }
        }
        let allWaiting = try await eventually { await store.waitingCallCount == 20 }
        gate.continuation.yield()
        let items = try await calls.value

        // Then
        #expect(allWaiting)
        #expect(Set(items.map(\.id)) == Set(0..<20))
        #expect(refreshes.value == 1)
    }

    @Test("a failed refresh fails every waiting call with the refresher's own error, as it threw it")
    func failedRefresh() async throws {
        // Given: a refresh that fails when the test says
        struct RefreshFailed: Error {}
        let gate = AsyncStream<Void>.makeStream()
        let store = BearerTokenStore(token: "stale") { _ in
            for await _ in gate.stream { break }
            throw RefreshFailed()
        }
        let api = Api(transport: Self.server(validToken: Protected("fresh")))
        api.interceptors = [BearerAuthInterceptor(store: store)]

        // When: all 5 calls wait for the refresh before it fails
        let calls = Task {
            await withTaskGroup(of: Bool.self) { group in
                for id in 0..<5 {
                    group.addTask {
                        do {
                            _ = try await api.item(ItemRequest(id: id))
                            return false
                        } catch { return error is RefreshFailed }
                    }
                }
                return await group.reduce(into: 0) { $0 += $1 ? 1 : 0 }
            }
        }
        let allWaiting = try await eventually { await store.waitingCallCount == 5 }
        gate.continuation.yield()
        let failures = await calls.value

        // Then
        #expect(allWaiting)
        #expect(failures == 5)
    }

    @Test("a token is fetched on first use when the store starts empty")
    func firstToken() async throws {
        // Given
        let store = BearerTokenStore { rejected in
            #expect(rejected == nil)
            return "fresh"
        }
        let api = Api(transport: Self.server(validToken: Protected("fresh")))
        api.interceptors = [BearerAuthInterceptor(store: store)]

        // When
        let item = try await api.item(ItemRequest(id: 3))

        // Then
        #expect(item == Item(id: 3))
    }

    @Test("an empty token is no token: fetched before the first call, as nil is")
    func emptyFirstToken() async throws {
        // Given
        let refreshes = Protected<[String?]>([])
        let store = BearerTokenStore(token: "") { rejected in
            refreshes.mutate { $0.append(rejected) }
            return "fresh"
        }
        let api = Api(transport: Self.server(validToken: Protected("fresh")))
        api.interceptors = [BearerAuthInterceptor(store: store)]

        // When
        let item = try await api.item(ItemRequest(id: 3))

        // Then
        #expect(item == Item(id: 3))
        #expect(refreshes.value == [nil])
    }

    @Test("a refresher with no token to give sends the call without Authorization, so its 401 comes back as HTTPError")
    func refresherWithoutToken() async throws {
        // Given
        let transport = Self.server(validToken: Protected("fresh"))
        let api = Api(transport: transport)
        api.interceptors = [BearerAuthInterceptor(store: BearerTokenStore { _ in " " })]

        // When
        let error = await #expect(throws: HTTPError.self) { try await api.item(ItemRequest(id: 3)) }

        // Then: both attempts went out, neither with a value RetroSwift would refuse
        #expect(error?.statusCode == 401)
        #expect(transport.requests.count == 2)
        #expect(transport.requests.allSatisfy { $0.header("Authorization") == nil })
    }

    @Test("a second 401 after a refresh is returned, not refreshed again")
    func secondUnauthorized() async throws {
        // Given: a server that accepts no token at all
        let refreshes = Protected(0)
        let store = BearerTokenStore(token: "stale") { _ in
            refreshes.mutate { $0 += 1 }
            return "fresh-\(refreshes.value)"
        }
        let transport = Self.server(validToken: Protected("never"))
        let api = Api(transport: transport)
        api.interceptors = [BearerAuthInterceptor(store: store)]

        // When
        let error = await #expect(throws: HTTPError.self) { _ = try await api.item(ItemRequest(id: 1)) }

        // Then
        #expect(error?.statusCode == 401)
        #expect(refreshes.value == 1)
        #expect(transport.requests.map { $0.header("Authorization") } == ["Bearer stale", "Bearer fresh-1"])
    }

    @Test("a call cancelled while it waits for a refresh stops at once; the refresh goes on for the others", .timeLimit(.minutes(4)))
    func cancelledDuringRefresh() async throws {
        // Given: a refresh that takes as long as the test wants, started by the call to be cancelled
        let started = AsyncStream<Void>.makeStream()
        let gate = AsyncStream<Void>.makeStream()
        let store = BearerTokenStore(token: "stale") { _ in
            started.continuation.yield()
            for await _ in gate.stream { break }
            return "fresh"
        }
        let transport = Self.server(validToken: Protected("fresh"))
        let api = Api(transport: transport)
        api.interceptors = [BearerAuthInterceptor(store: store)]
        let cancelled = Task { try await api.item(ItemRequest(id: 1)) }
        // The store runs the refresh only once the call that asked for it is waiting for it (both on the store's actor).
        for await _ in started.stream { break }
        let patient = Task { try await api.item(ItemRequest(id: 2)) }
        let bothWaiting = try await eventually { await store.waitingCallCount == 2 }
        #expect(bothWaiting)

        // When
        cancelled.cancel()
        let cancelledResult = await cancelled.result
        gate.continuation.yield()
        let patientItem = try await patient.value

        // Then
        #expect(throws: CancellationError.self) { try cancelledResult.get() }
        #expect(patientItem == Item(id: 2))
        #expect(transport.requests.filter { $0.header("Authorization") == "Bearer fresh" }.count == 1)
    }
}

@Suite("Retries")
struct RetryTests {
    private final class Api: Domain, @unchecked Sendable {
        @Get("/flaky") var flaky: () async throws -> Empty
        @Post("/flaky") var create: () async throws -> Empty
    }

    /// Fails with `failures` in order, then answers 204.
    private static func flaky(_ failures: [Result<HttpOperationResult, URLError>]) -> RecordingTransport {
        let remaining = Protected(failures)
        return RecordingTransport { _ in
            guard let next = remaining.mutate({ $0.isEmpty ? nil : $0.removeFirst() }) else { return HttpOperationResult(statusCode: 204) }
            return try next.get()
        }
    }

    private static func policy(sleeps: Protected<[TimeInterval]>, retriesPost: Bool = false) -> RetryInterceptor {
        RetryInterceptor(maxAttempts: 3, baseDelay: 0.1, maxDelay: 5, retriesNonIdempotent: retriesPost) { seconds in
            sleeps.mutate { $0.append(seconds) }
        }
    }

    @Test("a server that fails twice then succeeds takes 3 attempts, with delays within the backoff bounds")
    func failsTwice() async throws {
        // Given
        let transport = Self.flaky([.success(.text("busy", status: 503)), .failure(URLError(.networkConnectionLost))])
        let sleeps = Protected<[TimeInterval]>([])
        let api = Api(transport: transport)
        api.interceptors = [Self.policy(sleeps: sleeps)]

        // When
        _ = try await api.flaky()

        // Then
        #expect(transport.requests.count == 3)
        #expect(sleeps.value.count == 2)
        #expect((0...0.1).contains(sleeps.value[0]))
        #expect((0...0.2).contains(sleeps.value[1]))
    }

    @Test("attempts are bounded; the last response is returned")
    func bounded() async throws {
        // Given
        let transport = Self.flaky(Array(repeating: .success(.text("busy", status: 503)), count: 5))
        let api = Api(transport: transport)
        api.interceptors = [Self.policy(sleeps: Protected([]))]

        // When
        let error = await #expect(throws: HTTPError.self) { _ = try await api.flaky() }

        // Then
        #expect(error?.statusCode == 503)
        #expect(transport.requests.count == 3)
    }

    @Test("POST is not retried unless opted in")
    func postNotRetried() async throws {
        // Given
        let transport = Self.flaky([.success(.text("busy", status: 503))])
        let optedIn = Self.flaky([.success(.text("busy", status: 503))])
        let api = Api(transport: transport)
        api.interceptors = [Self.policy(sleeps: Protected([]))]
        let retryingApi = Api(transport: optedIn)
        retryingApi.interceptors = [Self.policy(sleeps: Protected([]), retriesPost: true)]

        // When
        await #expect(throws: HTTPError.self) { _ = try await api.create() }
        _ = try await retryingApi.create()

        // Then
        #expect(transport.requests.count == 1)
        #expect(optedIn.requests.count == 2)
    }

    @Test("429 waits for Retry-After")
    func retryAfter() async throws {
        // Given
        let transport = Self.flaky([.success(.text("slow down", status: 429, headers: ["Retry-After": "2"]))])
        let sleeps = Protected<[TimeInterval]>([])
        let api = Api(transport: transport)
        api.interceptors = [Self.policy(sleeps: sleeps)]

        // When
        _ = try await api.flaky()

        // Then
        #expect(sleeps.value == [2])
        #expect(transport.requests.count == 2)
    }

    @Test("a Retry-After beyond maxDelay is not waited for")
    func retryAfterTooLong() async throws {
        // Given
        let transport = Self.flaky([.success(.text("later", status: 503, headers: ["Retry-After": "3600"]))])
        let api = Api(transport: transport)
        api.interceptors = [Self.policy(sleeps: Protected([]))]

        // When
        let error = await #expect(throws: HTTPError.self) { _ = try await api.flaky() }

        // Then
        #expect(error?.statusCode == 503)
        #expect(transport.requests.count == 1)
    }

    @Test("cancellation stops the wait", .timeLimit(.minutes(4)))
    func cancellation() async throws {
        // Given
        let transport = Self.flaky(Array(repeating: .success(.text("busy", status: 503)), count: 5))
        let api = Api(transport: transport)
        api.interceptors = [RetryInterceptor(maxAttempts: 5, baseDelay: 600, maxDelay: 600)]

        // When
        let task = Task { try await api.flaky() }
        while transport.requests.isEmpty { await Task.yield() }
        task.cancel()
        let result = await task.result

        // Then
        #expect(throws: CancellationError.self) { try result.get() }
        #expect(transport.requests.count == 1)
    }
}

@Suite("Logging")
struct LoggingTests {
    private struct LoginRequest {
        @Header("Authorization") var authorization: String = ""
        @Header("Cookie") var cookie: String = ""
        @Header("X-Api-Key") var apiKey: String = ""
        @Query var user: String = ""
    }

    private final class Api: Domain, @unchecked Sendable {
        @Get("/login") var login: (LoginRequest) async throws -> Empty
    }

    @Test("log entries carry method, target, status and duration, and no secret")
    func redacts() async throws {
        // Given
        let entries = Protected<[HTTPLogEntry]>([])
        let transport = RecordingTransport { _ in
            HttpOperationResult(statusCode: 204, headers: ["Set-Cookie": "session=s3cr3t", "X-Trace": "t"])
        }
        let api = Api(transport: transport)
        api.interceptors = [LoggingInterceptor(redacting: ["x-api-key"]) { entry in entries.mutate { $0.append(entry) } }]

        // When
        _ = try await api.login(LoginRequest(authorization: "Bearer s3cr3t", cookie: "id=s3cr3t", apiKey: "s3cr3t", user: "ann"))

        // Then
        let entry = try #require(entries.value.first)
        #expect(entry.method == .get)
        #expect(entry.target == "/login?user=ann")
        #expect(entry.statusCode == 204)
        #expect(entry.summary.hasPrefix("GET /login?user=ann -> 204 ("))
        #expect(entry.requestHeaders.map(\.value) == ["<redacted>", "<redacted>", "<redacted>"])
        #expect(entry.responseHeaders == ["Set-Cookie": "<redacted>", "X-Trace": "t"])
        #expect(!"\(entry)".contains("s3cr3t"))
    }

    @Test("secret query values are redacted by name, case-insensitively and after percent-decoding; others are kept")
    func redactsQuery() {
        // Given
        let redaction = QueryRedaction(adding: ["Session"])

        // When
        let redacted = redaction.redact("/search?q=a%20b&API%5Fkey=s3cr3t&page=2&Token=t0k&session=x&flag&sig=#frag")

        // Then
        #expect(redacted == "/search?q=a%20b&API%5Fkey=<redacted>&page=2&Token=<redacted>&session=<redacted>&flag&sig=<redacted>#frag")
        #expect(redaction.redact("/plain") == "/plain")
        #expect(QueryRedaction().redact("https://h/p?key=1") == "https://h/p?key=<redacted>")
    }

    @Test("the logging interceptor redacts secret query values in its target")
    func interceptorRedactsQuery() async throws {
        // Given
        let entries = Protected<[HTTPLogEntry]>([])
        let api = Api(transport: RecordingTransport())
        api.interceptors = [LoggingInterceptor(redactingQuery: ["user"]) { entry in entries.mutate { $0.append(entry) } }]

        // When
        _ = try await api.login(LoginRequest(user: "ann"))

        // Then
        #expect(entries.value.first?.target == "/login?user=<redacted>")
    }
}
