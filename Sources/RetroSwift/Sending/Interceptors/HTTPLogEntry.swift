import Foundation

/// One logged call, with secrets already redacted.
public struct HTTPLogEntry: Sendable {
    /// The endpoint called.
    public let endpoint: EndpointIdentity
    /// The HTTP method.
    public let method: HTTPMethod
    /// The encoded path and query, without the base URL, secret query values redacted.
    public let target: String
    /// The request's own header fields, redacted: those its endpoint declared and those the interceptors before the
    /// logger added; not the domain's shared headers (see ``LoggingInterceptor``).
    public let requestHeaders: [HTTPHeader]
    /// The status code, or `nil` when no response arrived.
    public let statusCode: Int?
    /// The response headers, redacted, every field in the order received.
    public let responseHeaders: HTTPHeaderFields
    /// Time from sending to the response or the failure.
    public let duration: Duration
    /// The failure, when no response arrived.
    public let error: String?

    /// `GET /api/v1/schedule?page=1 -> 200 (12 ms)`.
    public var summary: String {
        let outcome = statusCode.map(String.init) ?? "failed: \(error ?? "unknown error")"
        let milliseconds = Double(duration.components.seconds) * 1_000 + Double(duration.components.attoseconds) / 1e15
        return "\(method.rawValue) \(target) -> \(outcome) (\(Int(milliseconds.rounded())) ms)"
    }
}
