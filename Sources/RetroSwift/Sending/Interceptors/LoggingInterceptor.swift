/// Reports every call to a sink you provide, with `Authorization`, `Proxy-Authorization`, `Cookie`,
/// `Set-Cookie` and any headers you name replaced by `<redacted>`, and the values of secret query parameters
/// (``QueryRedaction/defaultNames`` and any you name) too.
///
/// An entry lists the request's own header fields as they reach this interceptor: those the endpoint declared and
/// those the interceptors before it added (``Domain/interceptors`` run in order, the first outermost). Place it after
/// ``BearerAuthInterceptor`` to see each attempt as sent, its `Authorization` redacted. The domain's shared headers
/// (``Domain/sharedHeaders``, and those a transport's `setConfiguration` recorded) are not listed: RetroSwift joins
/// them to the request only in ``HttpRequestParams/headerFields``, so a secret placed there never reaches the log.
/// Redirects are followed below the interceptors: an entry shows the request as built and the final response's
/// status and headers.
public struct LoggingInterceptor: Interceptor {
    /// Receives one entry per call.
    typealias Sink = @Sendable (HTTPLogEntry) -> Void

    /// Header names whose values are never logged, lowercased.
    let redactedHeaders: Set<String>
    /// The query parameters whose values are never logged.
    let queryRedaction: QueryRedaction
    private let sink: Sink

    /// Creates the interceptor.
    ///
    /// - Parameters:
    ///   - extraHeaders: Header names to redact besides `Authorization`, `Proxy-Authorization`, `Cookie` and `Set-Cookie`.
    ///   - extraQueryNames: Query parameter names to redact besides ``QueryRedaction/defaultNames``.
    ///   - sink: Receives one entry per call.
    public init(
        redacting extraHeaders: Set<String> = [], redactingQuery extraQueryNames: Set<String> = [],
        sink: @escaping @Sendable (HTTPLogEntry) -> Void
    ) {
        redactedHeaders = Set(["authorization", "proxy-authorization", "cookie", "set-cookie"] + extraHeaders.map(HeaderName.key))
        queryRedaction = QueryRedaction(adding: extraQueryNames)
        self.sink = sink
    }

    /// Sends the request on and logs what happened.
    public func intercept(_ request: HttpRequestParams, next: InterceptorNext) async throws -> HttpOperationResult {
        let clock = ContinuousClock()
        let start = clock.now
        do {
            let response = try await next(request)
            sink(entry(request, response: response, error: nil, duration: clock.now - start))
            return response
        } catch {
            sink(entry(request, response: nil, error: error, duration: clock.now - start))
            throw error
        }
    }

    private func entry(_ request: HttpRequestParams, response: HttpOperationResult?, error: (any Error)?, duration: Duration)
        -> HTTPLogEntry
    {
        HTTPLogEntry(
            endpoint: request.endpoint, method: request.method, target: queryRedaction.redact(request.encodedPathAndQuery),
            requestHeaders: request.headers.map { HTTPHeader(name: $0.name, value: redact($0.name, $0.value)) },
            statusCode: response?.statusCode,
            responseHeaders: HTTPHeaderFields(
                (response?.headers ?? [:]).map { HTTPHeader(name: $0.name, value: redact($0.name, $0.value)) }),
            duration: duration, error: error?.localizedDescription
        )
    }

    private func redact(_ name: String, _ value: String) -> String {
        redactedHeaders.contains(HeaderName.key(name)) ? "<redacted>" : value
    }
}
