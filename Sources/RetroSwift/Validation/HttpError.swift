import Foundation

/// The server answered with a status outside 2xx (and the response type did not take it, as `Either` does).
public struct HttpError: Error, Sendable, CustomStringConvertible, LocalizedError {
    /// The HTTP status code.
    public let statusCode: Int
    /// The response headers, every field in the order received.
    public let headers: HttpHeaderFields
    /// The response body.
    public let body: Data
    /// The endpoint that was called.
    public let endpoint: EndpointIdentity

    /// Creates an error from a response.
    public init(response: HttpOperationResult, endpoint: EndpointIdentity) {
        statusCode = response.statusCode
        headers = response.headers
        body = response.body
        self.endpoint = endpoint
    }

    /// The body as text when the server sent `text/plain` (as Echo does), else `nil`.
    public var bodyText: String? {
        let result = HttpOperationResult(statusCode: statusCode, headers: headers, body: body)
        guard result.mediaType == "text/plain" else { return nil }
        return String(decoding: body, as: UTF8.self)
    }

    /// `HTTP 404 from SchedulesApi.deleteSchedule (DELETE /api/v1/schedule/{schedule_id}): Schedule not found`.
    public var description: String {
        var text = "HTTP \(statusCode)"
        if let phrase = Self.reasonPhrases[statusCode] { text += " \(phrase)" }
        text += " from \(endpoint)"
        if let bodyText, !bodyText.isEmpty {
            text += ": " + (bodyText.count > 1_000 ? String(bodyText.prefix(1_000)) + "…" : bodyText)
        }
        return text
    }

    // HTTPURLResponse.localizedString lives in FoundationNetworking on Linux, which the core must not import.
    private static let reasonPhrases: [Int: String] = [
        400: "Bad Request", 401: "Unauthorized", 403: "Forbidden", 404: "Not Found", 405: "Method Not Allowed",
        408: "Request Timeout", 409: "Conflict", 410: "Gone", 413: "Content Too Large", 415: "Unsupported Media Type",
        422: "Unprocessable Content", 429: "Too Many Requests", 500: "Internal Server Error", 501: "Not Implemented",
        502: "Bad Gateway", 503: "Service Unavailable", 504: "Gateway Timeout",
    ]

    /// The same as ``description``, so `error.localizedDescription` carries a `text/plain` body.
    public var errorDescription: String? {
        description
    }
}
