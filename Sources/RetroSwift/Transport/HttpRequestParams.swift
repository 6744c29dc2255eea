import Foundation

/// A fully built request, handed by RetroSwift to an ``HttpTransport``.
///
/// Everything here is already validated and encoded: ``encodedPath`` and ``encodedQuery`` are percent-encoded,
/// header values contain no CR, LF or NUL. A transport only joins them with its base URL through
/// ``url(relativeTo:)`` and merges its shared headers through ``headerFields(sharedHeaders:)``, so it has no
/// encoding decisions left to get wrong.
public struct HttpRequestParams: Sendable {
    /// The HTTP method.
    public let method: HttpMethod
    /// The percent-encoded path, starting with `/`, relative to the transport's base URL.
    public let encodedPath: String
    /// The percent-encoded query without the leading `?`, or `nil` when there is none.
    public let encodedQuery: String?
    /// The query parameters in wire order, decoded (static ones from the template first).
    public let queryItems: [HttpQueryItem]
    /// The request's own headers in declaration order; shared headers are merged by ``headerFields(sharedHeaders:)``.
    public internal(set) var headers: [HttpHeader]
    /// The body, or `nil` when the request has none.
    public let body: HttpRequestBody?
    /// The timeout for this call (endpoint's, else domain's), or `nil` for the transport's default.
    public let timeout: TimeInterval?
    /// Where the transport should put a successful response body.
    public let responseDestination: ResponseDestination
    /// The endpoint that built this request.
    public let endpoint: EndpointIdentity

    init(
        method: HttpMethod, encodedPath: String, encodedQuery: String?, queryItems: [HttpQueryItem],
        headers: [HttpHeader], body: HttpRequestBody?, timeout: TimeInterval?,
        responseDestination: ResponseDestination, endpoint: EndpointIdentity
    ) {
        self.method = method
        self.encodedPath = encodedPath
        self.encodedQuery = encodedQuery
        self.queryItems = queryItems
        self.headers = headers
        self.body = body
        self.timeout = timeout
        self.responseDestination = responseDestination
        self.endpoint = endpoint
    }

    /// The path and query as sent in the request line, for example `/api/v1/schedule?page=1&limit=30`.
    public var encodedPathAndQuery: String {
        guard let encodedQuery else { return encodedPath }
        return encodedPath + "?" + encodedQuery
    }

    /// The full URL: the base URL's scheme, host, port and path, followed by ``encodedPath`` and ``encodedQuery``.
    ///
    /// Any query or fragment of `baseURL` is dropped.
    public func url(relativeTo baseURL: URL) throws -> URL {
        let string = urlString(relativeTo: baseURL)
        guard let url = URL(string: string) else {
            throw RequestError(
                .transportNotConfigured, endpoint: endpoint,
                reason: "cannot join base URL '\(baseURL)' with '\(encodedPathAndQuery)'"
            )
        }
        return url
    }

    /// ``url(relativeTo:)`` as a string, for clients that take one (async-http-client parses it again anyway).
    ///
    /// Joins strings instead of going through `URLComponents`, which costs several microseconds per call on
    /// Linux; every part is already percent-encoded, so nothing needs re-parsing.
    public func urlString(relativeTo baseURL: URL) -> String {
        var base = Substring(baseURL.absoluteString)
        if let end = base.firstIndex(where: { $0 == "?" || $0 == "#" }) { base = base[..<end] }
        while base.hasSuffix("/") { base.removeLast() }
        return base + encodedPathAndQuery
    }

    /// The headers to send: the transport's shared headers, overridden by the request's own headers
    /// (names compare case-insensitively), then `Content-Type` from the body unless the request sets one.
    public func headerFields(sharedHeaders: [String: String]? = nil) -> [HttpHeader] {
        var fields: [HttpHeader] = []
        let own = Set(headers.map { $0.name.lowercased() })
        for (name, value) in (sharedHeaders ?? [:]).sorted(by: { $0.key < $1.key }) where !own.contains(name.lowercased()) {
            fields.append(HttpHeader(name: name, value: value))
        }
        fields.append(contentsOf: headers)
        if let body, !fields.contains(where: { $0.name.lowercased() == "content-type" }) {
            fields.append(HttpHeader(name: "Content-Type", value: body.contentType))
        }
        return fields
    }
}
