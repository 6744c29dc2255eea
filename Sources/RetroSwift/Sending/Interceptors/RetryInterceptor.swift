import Foundation

/// Retries transient failures with exponential backoff and full jitter, honouring `Retry-After`.
///
/// Retried: connection errors (a ``TransportError`` whose ``TransportError/code`` is `.cannotConnectToHost`,
/// `.networkConnectionLost`, `.timedOut` and the like) and the statuses in `retryableStatuses:`; only for idempotent methods (``HTTPMethod/isIdempotent``:
/// `GET`, `HEAD`, `OPTIONS`, `PUT`, `DELETE`, and methods of your own declared so) unless `retriesNonIdempotent:`
/// is set. Cancellation ends the wait at once.
public struct RetryInterceptor: Interceptor {
    /// Waits the given number of seconds; replaceable in tests.
    typealias Sleep = @Sendable (TimeInterval) async throws -> Void
    /// Picks the wait before a retry from `0...bound` (full jitter); replaceable so tests see exact delays.
    typealias Jitter = @Sendable (_ bound: TimeInterval) -> TimeInterval

    /// The total number of tries, the first included.
    let maxAttempts: Int
    /// The backoff before the second try; it doubles each time, with full jitter.
    let baseDelay: TimeInterval
    /// The longest wait; a `Retry-After` longer than this is not waited for and the response is returned.
    let maxDelay: TimeInterval
    /// Whether `POST` and `PATCH` are retried too (only when the server is known to deduplicate them).
    let retriesNonIdempotent: Bool
    /// Statuses worth another try.
    let retryableStatuses: Set<Int>
    private let sleep: Sleep
    private let jitter: Jitter
    private let now: @Sendable () -> Date

    /// Creates a retry policy.
    ///
    /// - Parameters:
    ///   - maxAttempts: The total number of tries, the first included.
    ///   - baseDelay: The backoff bound before the second try, in seconds; it doubles for each later try.
    ///   - maxDelay: The longest wait, in seconds; it caps the backoff, and a longer `Retry-After` is not waited for.
    ///   - retriesNonIdempotent: Whether `POST` and `PATCH` are retried too.
    ///   - retryableStatuses: Statuses worth another try.
    ///   - sleep: Waits the given number of seconds.
    ///   - jitter: Picks the wait from `0...bound`; uniformly at random by default (full jitter).
    ///   - now: The current time, against which a `Retry-After` date is measured.
    public init(
        maxAttempts: Int = 3, baseDelay: TimeInterval = 0.5, maxDelay: TimeInterval = 30,
        retriesNonIdempotent: Bool = false, retryableStatuses: Set<Int> = [408, 429, 502, 503, 504],
        // At most a year: a `maxDelay` of `.infinity` lets any `Retry-After` through, which would overflow `UInt64`.
        sleep: @escaping @Sendable (TimeInterval) async throws -> Void = {
            try await Task.sleep(nanoseconds: UInt64(min(max(0, $0), 365 * 24 * 3600) * 1_000_000_000))
        },
        jitter: @escaping @Sendable (_ bound: TimeInterval) -> TimeInterval = { $0 > 0 ? Double.random(in: 0...$0) : 0 },
        now: @escaping @Sendable () -> Date = { Date() }
    ) {
        self.maxAttempts = max(1, maxAttempts)
        self.baseDelay = baseDelay
        self.maxDelay = maxDelay
        self.retriesNonIdempotent = retriesNonIdempotent
        self.retryableStatuses = retryableStatuses
        self.sleep = sleep
        self.jitter = jitter
        self.now = now
    }

    /// Sends the request, trying again while the failure is transient and attempts remain.
    ///
    /// - Parameters:
    ///   - request: The request.
    ///   - next: The rest of the chain.
    /// - Returns: The first response that is not retried.
    /// - Throws: The last transient error once attempts run out, any other error at once, and
    ///   `CancellationError` when the calling task is cancelled while waiting.
    public func intercept(_ request: HttpRequestParams, next: InterceptorNext) async throws -> HttpOperationResult {
        let retryable = retriesNonIdempotent || request.method.isIdempotent
        var attempt = 1
        var request = request
        while true {
            let delay: TimeInterval
            do {
                request.attempt = attempt
                let response = try await next(request)
                guard retryable, attempt < maxAttempts, retryableStatuses.contains(response.statusCode) else { return response }
                guard let wait = retryAfter(response) ?? Optional(backoff(attempt)), wait <= maxDelay else { return response }
                delay = wait
            } catch {
                guard retryable, attempt < maxAttempts, Self.isTransient(error) else { throw error }
                delay = backoff(attempt)
            }
            try Task.checkCancellation()
            try await sleep(delay)
            attempt += 1
        }
    }

    /// Full jitter (AWS Architecture Blog): uniformly random up to the exponential bound, so clients that failed
    /// together do not retry together.
    func backoff(_ attempt: Int) -> TimeInterval {
        let bound = max(0, min(maxDelay, baseDelay * pow(2, Double(attempt - 1))))
        return min(bound, max(0, jitter(bound)))
    }

    /// `Retry-After` as delay-seconds or an HTTP date (RFC 9110 §10.2.3), in any of the three date formats
    /// recipients must accept (§5.6.7): IMF-fixdate, the obsolete RFC 850 form, and asctime.
    func retryAfter(_ response: HttpOperationResult) -> TimeInterval? {
        guard let value = response.header("Retry-After")?.trimmingCharacters(in: .whitespaces) else { return nil }
        if !value.isEmpty, value.allSatisfy(\.isASCII), value.allSatisfy(\.isNumber), let seconds = TimeInterval(value) {
            // Hundreds of digits spell infinity; the largest finite delay says the same and keeps the arithmetic finite.
            return min(seconds, .greatestFiniteMagnitude)
        }
        guard let date = HTTPDate.parse(value, now: now()) else { return nil }
        return max(0, date.timeIntervalSince(now()))
    }

    private static func isTransient(_ error: any Error) -> Bool {
        guard let urlError = (error as? TransportError)?.underlyingError as? URLError ?? error as? URLError else { return false }
        let transient: Set<URLError.Code> = [
            .cannotConnectToHost, .networkConnectionLost, .timedOut, .notConnectedToInternet,
            .cannotFindHost, .dnsLookupFailed, .badServerResponse,
        ]
        return transient.contains(urlError.code)
    }
}
