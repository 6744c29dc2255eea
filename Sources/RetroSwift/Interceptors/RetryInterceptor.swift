import Foundation

/// Retries transient failures with exponential backoff and full jitter, honouring `Retry-After`.
///
/// Retried: connection errors (`URLError` such as `.cannotConnectToHost`, `.networkConnectionLost`,
/// `.timedOut`) and the statuses in ``retryableStatuses``; only for idempotent methods (`GET`, `HEAD`, `PUT`,
/// `DELETE`) unless ``retriesNonIdempotent`` is set. Cancellation ends the wait at once.
public struct RetryInterceptor: Interceptor {
    /// Waits the given number of seconds; replaceable in tests.
    public typealias Sleep = @Sendable (TimeInterval) async throws -> Void

    /// The total number of tries, the first included.
    public var maxAttempts: Int
    /// The backoff before the second try; it doubles each time, with full jitter.
    public var baseDelay: TimeInterval
    /// The longest wait; a `Retry-After` longer than this is not waited for and the response is returned.
    public var maxDelay: TimeInterval
    /// Whether `POST` and `PATCH` are retried too (only when the server is known to deduplicate them).
    public var retriesNonIdempotent: Bool
    /// Statuses worth another try.
    public var retryableStatuses: Set<Int>
    private let sleep: Sleep

    /// Creates a retry policy.
    public init(
        maxAttempts: Int = 3, baseDelay: TimeInterval = 0.5, maxDelay: TimeInterval = 30,
        retriesNonIdempotent: Bool = false, retryableStatuses: Set<Int> = [408, 429, 502, 503, 504],
        sleep: @escaping Sleep = { try await Task.sleep(nanoseconds: UInt64(max(0, $0) * 1_000_000_000)) }
    ) {
        self.maxAttempts = max(1, maxAttempts)
        self.baseDelay = baseDelay
        self.maxDelay = maxDelay
        self.retriesNonIdempotent = retriesNonIdempotent
        self.retryableStatuses = retryableStatuses
        self.sleep = sleep
    }

    /// Sends the request, trying again while the failure is transient and attempts remain.
    public func intercept(_ request: HttpRequestParams, next: InterceptorNext) async throws -> HttpOperationResult {
        let retryable = retriesNonIdempotent || [.get, .head, .put, .delete].contains(request.method)
        var attempt = 1
        while true {
            let delay: TimeInterval
            do {
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
        let bound = min(maxDelay, baseDelay * pow(2, Double(attempt - 1)))
        return bound > 0 ? Double.random(in: 0...bound) : 0
    }

    /// `Retry-After` as seconds or an HTTP date (RFC 9110 §10.2.3).
    func retryAfter(_ response: HttpOperationResult) -> TimeInterval? {
        guard let value = response.header("Retry-After")?.trimmingCharacters(in: .whitespaces) else { return nil }
        if let seconds = TimeInterval(value) { return max(0, seconds) }
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "GMT")
        formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss zzz"
        return formatter.date(from: value).map { max(0, $0.timeIntervalSinceNow) }
    }

    private static func isTransient(_ error: any Error) -> Bool {
        guard let urlError = error as? URLError else { return false }
        let transient: Set<URLError.Code> = [
            .cannotConnectToHost, .networkConnectionLost, .timedOut, .notConnectedToInternet,
            .cannotFindHost, .dnsLookupFailed, .badServerResponse,
        ]
        return transient.contains(urlError.code)
    }
}
