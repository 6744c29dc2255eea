import Foundation

/// A complete request, resolved by RetroSwift and handed to an ``HttpTransport`` to send as it is.
///
/// RetroSwift decides everything before a transport sees the request: ``url`` is the absolute URL (the base URL
/// joined with the percent-encoded path and query, or a `@Url` field's full URL, or a redirect's target);
/// ``headerFields`` is every header field in the order to send it (shared headers, the request's own, those
/// interceptors added, `Content-Type`), with credentials already withheld where the target is another origin; header
/// values contain no CR, LF or NUL. A transport sends exactly ``method``, ``url``, ``headerFields`` and ``body``
/// within ``timeout``, and has no encoding or merging decisions left to get wrong.
public struct HttpRequestParams: Sendable {
    /// The HTTP method.
    public internal(set) var method: HTTPMethod
    /// The percent-encoded path, starting with `/`, relative to the transport's base URL.
    public internal(set) var encodedPath: String
    /// The percent-encoded query without the leading `?`, or `nil` when there is none.
    public internal(set) var encodedQuery: String?
    /// The query parameters in wire order, decoded (static ones from the template first).
    public internal(set) var queryItems: [HTTPQueryItem]
    /// The request's own headers in declaration order; shared headers are merged by ``headerFields(sharedHeaders:)``.
    public internal(set) var headers: [HTTPHeader]
    /// The body, or `nil` when the request has none.
    public internal(set) var body: HTTPRequestBody?
    /// The timeout for this call in seconds (endpoint's, else domain's), or `nil` for the transport's default: positive,
    /// or `.infinity` for none (cap it before converting it to an integer).
    public let timeout: TimeInterval?
    /// Where the transport should put a successful response body.
    public let responseDestination: ResponseDestination
    /// How much the response may bring: a transport stops reading it once it passes them (see
    /// ``ResponseBodyBudget``), and RetroSwift checks what the transport returns against them again.
    public let responseLimits: ResponseLimits
    /// The endpoint that built this request.
    public let endpoint: EndpointIdentity
    /// The absolute URL to request, when the request does not go to the base URL: a `@Url` field gave a full URL, or
    /// RetroSwift is following a redirect. ``url(relativeTo:)`` and ``urlString(relativeTo:)`` return it instead of
    /// joining the base URL with ``encodedPath``. `nil` otherwise.
    public internal(set) var absoluteURL: URL?
    /// Lowercased names of shared headers that ``headerFields(sharedHeaders:)`` leaves out: the credentials, once a
    /// redirect has left the origin of the original request (see ``RedirectPolicy``), or a `@Url` field has led to
    /// another origin (see ``OtherHostPolicy``).
    public internal(set) var withheldSharedHeaders: Set<String> = []
    /// Whether ``headerFields(sharedHeaders:)`` leaves out every shared header: a `@Url` field leads to another origin
    /// than the base URL's, and its endpoint's ``OtherHostPolicy`` does not share credentials. Credential headers
    /// that interceptors add are dropped before sending too, so an interceptor that adds them can skip such calls
    /// (``BearerAuthInterceptor`` does).
    public internal(set) var withholdsSharedHeaders = false
    /// Where the transport reports this call's upload and download progress, or `nil` when nobody observes it (see
    /// ``TransferProgress/observe(_:isolation:during:)``): one reporter per call, shared by its retries and redirects.
    /// A transport reads it here and skips all counting when it is `nil`.
    public internal(set) var progress: TransferProgressReporter?
    /// Which attempt at the call this is: 1, then 2 and on for each retry of a ``RetryInterceptor`` placed before the
    /// interceptor or transport reading it (metrics count retries by it).
    public internal(set) var attempt = 1
    /// The domain's ``Domain/serverTrust`` when it is not ``ServerTrust/system``, else `nil`: a transport verifies the
    /// server's chain against its ``ServerTrust/certificateAuthorities`` instead of the system's, and refuses a
    /// chain that fails ``ServerTrust/acceptsPins(of:)``. RetroSwift hands a transport only what its
    /// ``HttpTransport/serverTrustSupport`` says it enforces.
    public internal(set) var serverTrust: ServerTrust?
    /// Whether RetroSwift's ``HTTPCache`` handles this call's caching: its domain has a ``Domain/httpCache``. A transport
    /// with a cache of its own (URLSession's `URLCache`) leaves such a call out of it, neither answering from it nor
    /// storing the response, so that nothing is cached twice or answered by rules RetroSwift does not know.
    public var isCachedByRetroSwift: Bool { caching != nil }
    /// The domain's cache and the endpoint's ``CacheMode``; `nil` for a domain without a cache.
    var caching: CallCaching?
    /// Where a `@Url` field's full URL stands; `nil` for every other request, so they copy one empty pointer.
    var dynamicURLState: DynamicURLState?
    /// The base URL of the domain that built this request (``Domain/baseURL``) as it was when the call started, or
    /// `nil` when the domain leaves it to the transport. ``HTTPTransportConfigurationStore/configuration(for:)``
    /// prefers it to the transport's own.
    public var domainBaseURL: URL? { domainTarget?.baseURL }
    /// The shared headers of the domain that built this request (``Domain/sharedHeaders``) as they were when the call
    /// started; ``HTTPTransportConfigurationStore/configuration(for:)`` adds them to the transport's.
    public var domainSharedHeaders: [String: String] { domainTarget?.sharedHeaders ?? [:] }
    /// Both of the above in one reference, `nil` for most domains.
    let domainTarget: DomainTarget?
    /// The base URL and shared headers RetroSwift resolved for this call when it started (the domain's own, else the
    /// ones its ``ConfigurableHTTPTransport`` keeps), from which ``url`` and ``headerFields`` are made; `nil` only
    /// when neither told RetroSwift: a transport that keeps its base URL to itself.
    var target: HTTPTransportConfiguration?

    init(
        method: HTTPMethod, encodedPath: String, encodedQuery: String?, queryItems: [HTTPQueryItem],
        headers: [HTTPHeader], body: HTTPRequestBody?, timeout: TimeInterval?,
        responseDestination: ResponseDestination, endpoint: EndpointIdentity, domainTarget: DomainTarget? = nil,
        responseLimits: ResponseLimits = .default
    ) {
        self.responseLimits = responseLimits
        self.method = method
        self.encodedPath = encodedPath
        self.encodedQuery = encodedQuery
        self.queryItems = queryItems
        self.headers = headers
        self.body = body
        self.timeout = timeout
        self.responseDestination = responseDestination
        self.endpoint = endpoint
        self.domainTarget = domainTarget
    }

    /// The absolute URL to send the request to, resolved by RetroSwift: the base URL's scheme, host, port and path
    /// followed by ``encodedPath`` and ``encodedQuery``, or the full URL of a `@Url` field or of a redirect.
    ///
    /// Only for a transport that keeps its base URL to itself (one that is not a ``ConfigurableHTTPTransport``), sending
    /// for a domain without a ``Domain/baseURL``, does RetroSwift not know the base URL: then this is the path and
    /// query alone, and such a transport joins them with its base URL through ``url(relativeTo:)``.
    public var url: URL {
        if let absoluteURL { return absoluteURL }
        if target != nil, let url = URL(string: urlString) { return url }
        // A percent-encoded path and query always parse; "/" is the last resort for a value that never occurs.
        return URL(string: encodedPathAndQuery) ?? URL(string: "/")!
    }

    /// ``url`` as a string, without making a `URL` of it: for a client that takes a string and parses it itself
    /// (async-http-client does), which saves parsing it twice.
    public var urlString: String {
        if let absoluteURL { return absoluteURL.absoluteString }
        guard let target else { return encodedPathAndQuery }
        return joined(to: target.urlPrefix)
    }

    /// Every header field to send, in order, resolved by RetroSwift: the shared headers (the domain's and the
    /// transport's, less those withheld from another origin), then the request's own (declared, and added by
    /// interceptors; one of the same name replaces a shared one), then `Content-Type` from the body unless the
    /// request sets one.
    ///
    /// A transport adds nothing to these but what its HTTP implementation must (`Host`, `Content-Length`,
    /// `Transfer-Encoding`, `Accept-Encoding` for the decompression it does).
    public var headerFields: [HTTPHeader] {
        headerFields(sharedHeaders: target?.sharedHeaders)
    }

    /// The path and query as sent in the request line, for example `/api/v1/schedule?page=1&limit=30`.
    public var encodedPathAndQuery: String {
        guard let encodedQuery else { return encodedPath }
        return encodedPath + "?" + encodedQuery
    }

    /// The full URL for a transport that keeps its own base URL: its scheme, host, port and path, followed by
    /// ``encodedPath`` and ``encodedQuery``; or ``absoluteURL`` when there is one. A transport that conforms to
    /// ``ConfigurableHTTPTransport`` reads ``url`` instead, which RetroSwift has already resolved.
    ///
    /// Any query or fragment of `baseURL` is dropped.
    ///
    /// - Parameter baseURL: The transport's base URL.
    /// - Returns: The URL to request.
    /// - Throws: ``RequestError`` of kind ``RequestError/Kind/transportNotConfigured`` when the two do not join into
    ///   a URL.
    public func url(relativeTo baseURL: URL) throws -> URL {
        if let absoluteURL { return absoluteURL }
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
    /// - Parameter baseURL: The transport's base URL.
    /// - Returns: The URL to request, as a string.
    ///
    /// Joins strings instead of going through `URLComponents`, which costs several microseconds per call on
    /// Linux; every part is already percent-encoded, so nothing needs re-parsing.
    public func urlString(relativeTo baseURL: URL) -> String {
        if let absoluteURL { return absoluteURL.absoluteString }
        // The base URL RetroSwift resolved for this call has its prefix made already.
        if let target, target.baseURL == baseURL { return joined(to: target.urlPrefix) }
        return joined(to: HTTPTransportConfiguration.urlPrefix(of: baseURL))
    }

    /// `prefix` (a base URL's `HTTPTransportConfiguration.urlPrefix`) followed by the path and query.
    private func joined(to prefix: String) -> String {
        var url = prefix
        url.reserveCapacity(prefix.utf8.count + encodedPath.utf8.count + (encodedQuery?.utf8.count ?? -1) + 1)
        url += encodedPath
        if let encodedQuery {
            url += "?"
            url += encodedQuery
        }
        return url
    }

    /// The headers to send for a transport that keeps its own shared headers: `sharedHeaders` (less
    /// ``withheldSharedHeaders``, or none at all when ``withholdsSharedHeaders``), overridden by the request's own
    /// headers (names compare case-insensitively), then `Content-Type` from the body unless the request sets one. A
    /// transport that conforms to ``ConfigurableHTTPTransport`` reads ``headerFields`` instead, which holds the shared
    /// headers RetroSwift resolved.
    ///
    /// - Parameter sharedHeaders: The transport's headers for every request.
    /// - Returns: The header fields in the order to send them.
    public func headerFields(sharedHeaders: [String: String]?) -> [HTTPHeader] {
        var fields: [HTTPHeader] = []
        fields.reserveCapacity((sharedHeaders?.count ?? 0) + headers.count + 1)
        if let sharedHeaders, !sharedHeaders.isEmpty, !withholdsSharedHeaders {
            // One shared header (the usual case) needs no sorted copy of the dictionary.
            let shared = sharedHeaders.count == 1 ? [sharedHeaders.first!] : sharedHeaders.sorted { $0.key < $1.key }
            for (name, value) in shared where !headers.contains(where: { HeaderName.matches($0.name, name) }) {
                if !withheldSharedHeaders.isEmpty, withheldSharedHeaders.contains(HeaderName.key(name)) { continue }
                fields.append(HTTPHeader(name: name, value: value))
            }
        }
        fields.append(contentsOf: headers)
        if let body, !fields.contains(where: { HeaderName.matches($0.name, "Content-Type") }) {
            fields.append(HTTPHeader(name: "Content-Type", value: body.contentType))
        }
        return fields
    }
}
