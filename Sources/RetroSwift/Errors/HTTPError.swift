import Foundation

/// The server answered with a status outside 2xx (and the response type did not take it, as `Either` does).
public struct HTTPError: Error, Sendable, CustomStringConvertible, LocalizedError {
    /// The HTTP status code.
    public let statusCode: Int
    /// The response headers, every field in the order received.
    public let headers: HTTPHeaderFields
    /// The response body.
    public let body: Data
    /// The endpoint that was called.
    public let endpoint: EndpointIdentity

    /// Creates an error from a response.
    public init(response: HttpOperationResult, endpoint: EndpointIdentity) {
        statusCode = response.statusCode
        headers = response.headers
        body = response.data
        self.endpoint = endpoint
    }

    /// The body as text when the server sent any `text/*` type (`text/plain` as Echo does, `text/html` from a proxy),
    /// read in the `charset` it names (UTF-8 unless it says ISO-8859-1 or US-ASCII); `nil` for other types.
    public var bodyText: String? {
        let result = HttpOperationResult(statusCode: statusCode, headers: headers, body: body)
        guard let mediaType = result.mediaType, mediaType.hasPrefix("text/") else { return nil }
        let charset = result.header("Content-Type").flatMap(Self.charset)
        if charset == "iso-8859-1" || charset == "latin1" || charset == "us-ascii" {
            return String(data: body, encoding: .isoLatin1) ?? String(decoding: body, as: UTF8.self)
        }
        return String(decoding: body, as: UTF8.self)
    }

    /// The longest text body the description quotes whole; longer ones are cut there and say how much was left out.
    static let quotedCharacterLimit = 1_000

    /// `HTTP 404 Not Found from SchedulesApi.deleteSchedule (DELETE /api/v1/schedule/{schedule_id}): Schedule not found`.
    ///
    /// A `text/*` or JSON body (`application/json`, `application/problem+json`, any `+json`) is quoted with
    /// surrounding whitespace trimmed, so the server's own explanation reaches the log; past 1,000 characters it is cut
    /// and ends with `… (N more characters)`, so a proxy's error page cannot flood a log.
    public var description: String {
        var text = "HTTP \(statusCode)"
        if let phrase = Self.reasonPhrases[statusCode] { text += " \(phrase)" }
        text += " from \(endpoint)"
        if let bodyText = (bodyText ?? jsonText)?.trimmingCharacters(in: .whitespacesAndNewlines), !bodyText.isEmpty {
            let limit = Self.quotedCharacterLimit
            let quoted = bodyText.prefix(limit)
            text += ": " + quoted
            if quoted.endIndex < bodyText.endIndex { text += "… (\(bodyText.count - limit) more characters)" }
        }
        return text
    }

    /// A JSON body as UTF-8 text (RFC 8259 §8.1), for the description; `nil` for other types.
    private var jsonText: String? {
        let result = HttpOperationResult(statusCode: statusCode, headers: headers, body: body)
        guard let mediaType = result.mediaType, mediaType == "application/json" || mediaType.hasSuffix("+json") else { return nil }
        return String(decoding: body, as: UTF8.self)
    }

    /// The `charset` parameter of a `Content-Type` value, lowercased and unquoted.
    private static func charset(in contentType: String) -> String? {
        for parameter in contentType.split(separator: ";").dropFirst() {
            let pair = parameter.split(separator: "=", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespaces) }
            if pair.count == 2, pair[0].lowercased() == "charset" {
                return pair[1].trimmingCharacters(in: CharacterSet(charactersIn: "\"")).lowercased()
            }
        }
        return nil
    }

    // HTTPURLResponse.localizedString lives in FoundationNetworking on Linux, which the core must not import.
    private static let reasonPhrases: [Int: String] = [
        400: "Bad Request", 401: "Unauthorized", 403: "Forbidden", 404: "Not Found", 405: "Method Not Allowed",
        408: "Request Timeout", 409: "Conflict", 410: "Gone", 413: "Content Too Large", 415: "Unsupported Media Type",
        422: "Unprocessable Content", 429: "Too Many Requests", 500: "Internal Server Error", 501: "Not Implemented",
        502: "Bad Gateway", 503: "Service Unavailable", 504: "Gateway Timeout",
    ]

    /// The same as ``description``, so `error.localizedDescription` carries a `text/*` body.
    public var errorDescription: String? {
        description
    }
}
