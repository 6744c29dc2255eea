import Foundation
import RetroSwift
import RetroSwiftTesting
import Testing

@Suite("RetryInterceptor: backoff, Retry-After and what is retried")
struct RetryInterceptorTests {
    private final class Api: Domain, @unchecked Sendable {
        @Get("/r") var get: () async throws -> Empty
        @Head("/r") var head: () async throws -> Empty
        @Put("/r") var put: () async throws -> Empty
        @Delete("/r") var delete: () async throws -> Empty
        @Post("/r") var post: () async throws -> Empty
        @Patch("/r") var patch: () async throws -> Empty
        @Options("/r") var options: () async throws -> Empty
    }

    /// Answers `status` every time (or throws `error`), recording requests.
    private static func failing(status: Int = 503, headers: HTTPHeaderFields = [:], error: (any Error & Sendable)? = nil)
        -> RecordingTransport
    {
        RecordingTransport { _ in
            if let error { throw error }
            return HttpOperationResult(statusCode: status, headers: headers)
        }
    }

    private static func api(_ transport: RecordingTransport, _ policy: RetryInterceptor) -> Api {
        let api = Api(transport: transport)
        api.interceptors = [policy]
        return api
    }

    @Test("the backoff bound doubles from baseDelay each attempt until maxDelay caps it")
    func growthAndCap() async throws {
        // Given: a jitter that waits the whole bound, so the bounds themselves are seen
        let sleeps = Protected<[TimeInterval]>([])
        let bounds = Protected<[TimeInterval]>([])
        let policy = RetryInterceptor(
            maxAttempts: 6, baseDelay: 1, maxDelay: 5, sleep: { seconds in sleeps.mutate { $0.append(seconds) } },
            jitter: { bound in
                bounds.mutate { $0.append(bound) }
                return bound
            })
        let transport = Self.failing()

        // When
        await #expect(throws: HTTPError.self) { _ = try await Self.api(transport, policy).get() }

        // Then
        #expect(bounds.value == [1, 2, 4, 5, 5])
        #expect(sleeps.value == [1, 2, 4, 5, 5])
        #expect(transport.requests.count == 6)
    }

    @Test(
        "a Retry-After no HTTP date can be (a combining mark, non-ASCII) falls back to the backoff; hundreds of digits mean too long",
        arguments: ["T\u{334}", "Tu \u{334}\u{FE}\u{1F}e, 19 Nov 204 0724 07:10:0 GMT", "\u{EDA28}", String(repeating: "9", count: 400)])
    func hostileRetryAfter(value: String) async throws {
        // Given: values the fuzzer found (Fuzz/Corpus/retry-after/regression-*): the first two trapped inside
        // DateFormatter, the third leaked in it, the last was an infinite delay
        let sleeps = Protected<[TimeInterval]>([])
        let policy = RetryInterceptor(
            maxAttempts: 2, baseDelay: 1, maxDelay: 60, sleep: { seconds in sleeps.mutate { $0.append(seconds) } }, jitter: { $0 })
        let transport = Self.failing(headers: ["Retry-After": value])

        // When
        await #expect(throws: HTTPError.self) { _ = try await Self.api(transport, policy).get() }

        // Then: an unreadable value waits the backoff; a delay past maxDelay is not waited for at all
        let tooLong = value.utf8.allSatisfy { $0 == UInt8(ascii: "9") }
        #expect(sleeps.value == (tooLong ? [] : [1]))
        #expect(transport.requests.count == (tooLong ? 1 : 2))
    }

    @Test("the default jitter waits a uniformly random time within the bound")
    func defaultJitter() async throws {
        // Given
        let sleeps = Protected<[TimeInterval]>([])
        let policy = RetryInterceptor(maxAttempts: 2, baseDelay: 1, maxDelay: 5) { seconds in sleeps.mutate { $0.append(seconds) } }
        let api = Self.api(Self.failing(), policy)

        // When
        for _ in 0..<400 {
            await #expect(throws: HTTPError.self) { _ = try await api.get() }
        }

        // Then: all within [0, 1], spread over it (a constant, or always the bound, fails)
        let values = sleeps.value
        #expect(values.count == 400)
        #expect(values.allSatisfy { (0...1).contains($0) })
        #expect(values.filter { $0 < 0.25 }.count > 40)
        #expect(values.filter { $0 > 0.75 }.count > 40)
        let mean = values.reduce(0, +) / Double(values.count)
        #expect((0.4...0.6).contains(mean))
    }

    @Test("a jitter outside the bound is clamped into it")
    func jitterClamped() async throws {
        // Given
        let sleeps = Protected<[TimeInterval]>([])
        let policy = RetryInterceptor(
            maxAttempts: 3, baseDelay: 1, maxDelay: 5, sleep: { seconds in sleeps.mutate { $0.append(seconds) } },
            jitter: { $0 > 1 ? -3 : 100 })

        // When
        await #expect(throws: HTTPError.self) { _ = try await Self.api(Self.failing(), policy).get() }

        // Then
        #expect(sleeps.value == [1, 0])
    }

    /// Sunday, 6 November 1994, 08:49:30 GMT: seven seconds before the dates below.
    private static let now = Date(timeIntervalSince1970: 784_111_770)

    @Test(
        "Retry-After is read as seconds and in all three HTTP-date formats",
        arguments: [
            ("7", 7.0), ("Sun, 06 Nov 1994 08:49:37 GMT", 7), ("Sunday, 06-Nov-94 08:49:37 GMT", 7), ("Sun Nov  6 08:49:37 1994", 7),
            ("Sun, 06 Nov 1994 08:49:00 GMT", 0),
        ])
    func retryAfterFormats(value: String, wait: TimeInterval) async throws {
        // Given
        let sleeps = Protected<[TimeInterval]>([])
        let policy = RetryInterceptor(
            maxAttempts: 2, baseDelay: 0.5, maxDelay: 30, sleep: { seconds in sleeps.mutate { $0.append(seconds) } },
            jitter: { _ in 0.123 }, now: { Self.now })
        let transport = Self.failing(status: 429, headers: ["Retry-After": value])

        // When
        await #expect(throws: HTTPError.self) { _ = try await Self.api(transport, policy).get() }

        // Then
        #expect(sleeps.value == [wait])
    }

    @Test("an unreadable Retry-After falls back to the backoff", arguments: ["soon", "-5", "1.5", ""])
    func unreadableRetryAfter(value: String) async throws {
        // Given
        let sleeps = Protected<[TimeInterval]>([])
        let policy = RetryInterceptor(
            maxAttempts: 2, baseDelay: 0.5, maxDelay: 30, sleep: { seconds in sleeps.mutate { $0.append(seconds) } },
            jitter: { _ in 0.123 }, now: { Self.now })

        // When
        await #expect(throws: HTTPError.self) {
            _ = try await Self.api(Self.failing(status: 503, headers: ["Retry-After": value]), policy).get()
        }

        // Then
        #expect(sleeps.value == [0.123])
    }

    @Test(
        "retried statuses: 408, 429, 502, 503, 504; not 500, 501 or 4xx",
        arguments: [
            (408, true), (429, true), (502, true), (503, true), (504, true), (500, false), (501, false), (400, false), (404, false),
        ])
    func statuses(status: Int, retried: Bool) async throws {
        // Given
        let transport = Self.failing(status: status)
        let policy = RetryInterceptor(maxAttempts: 3, sleep: { _ in })

        // When
        await #expect(throws: HTTPError.self) { _ = try await Self.api(transport, policy).get() }

        // Then
        #expect(transport.requests.count == (retried ? 3 : 1))
    }

    @Test(
        "GET, HEAD, OPTIONS, PUT and DELETE are retried; POST and PATCH only when opted in",
        arguments: [HTTPMethod.get, .post, .put, .patch, .delete, .head, .options])
    func methods(method: HTTPMethod) async throws {
        // Given
        let plain = Self.failing()
        let optedIn = Self.failing()
        let call: (Api) async throws -> Empty =
            switch method {
            case .get: { try await $0.get() }
            case .head: { try await $0.head() }
            case .put: { try await $0.put() }
            case .delete: { try await $0.delete() }
            case .post: { try await $0.post() }
            case .patch: { try await $0.patch() }
            case .options: { try await $0.options() }
            default: { _ in throw CancellationError() }
            }

        // When
        await #expect(throws: HTTPError.self) { _ = try await call(Self.api(plain, RetryInterceptor(maxAttempts: 2, sleep: { _ in }))) }
        await #expect(throws: HTTPError.self) {
            _ = try await call(Self.api(optedIn, RetryInterceptor(maxAttempts: 2, retriesNonIdempotent: true, sleep: { _ in })))
        }

        // Then
        let idempotent = [.get, .head, .options, .put, .delete].contains(method)
        #expect(plain.requests.count == (idempotent ? 2 : 1))
        #expect(optedIn.requests.count == 2)
    }

    @Test(
        "transient connection errors are retried; other errors are thrown at once",
        arguments: [
            (URLError(.cannotConnectToHost), true), (URLError(.networkConnectionLost), true), (URLError(.timedOut), true),
            (URLError(.badURL), false), (URLError(.cancelled), false), (URLError(.secureConnectionFailed), false),
        ])
    func errors(error: URLError, retried: Bool) async throws {
        // Given
        let transport = Self.failing(error: error)

        // When
        await #expect(throws: TransportError.self) {
            _ = try await Self.api(transport, RetryInterceptor(maxAttempts: 3, sleep: { _ in })).get()
        }

        // Then
        #expect(transport.requests.count == (retried ? 3 : 1))
    }

    @Test("a RequestError from further down the chain is not retried")
    func requestErrorsNotRetried() async throws {
        // Given
        let transport = Self.failing(error: RequestError(.invalidValue, endpoint: nil, reason: "no"))

        // When
        await #expect(throws: RequestError.self) {
            _ = try await Self.api(transport, RetryInterceptor(maxAttempts: 3, sleep: { _ in })).get()
        }

        // Then
        #expect(transport.requests.count == 1)
    }

    @Test("with maxDelay .infinity, a Retry-After of thousands of years waits (until cancelled) instead of crashing")
    func unboundedRetryAfter() async throws {
        // Given: 10^14 seconds overflows UInt64 nanoseconds
        let transport = Self.failing(headers: ["Retry-After": "100000000000000"])
        let api = Self.api(transport, RetryInterceptor(maxAttempts: 2, maxDelay: .infinity))

        // When
        let task = Task { try await api.get() }
        while transport.requests.isEmpty { await Task.yield() }
        task.cancel()
        let result = await task.result

        // Then
        #expect(throws: CancellationError.self) { try result.get() }
        #expect(transport.requests.count == 1)
    }
}
