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
    /// The percent-encoded path, starting with `/`, relative to the base URL.
    var encodedPath: String
    /// The percent-encoded query without the leading `?`, or `nil` when there is none.
    var encodedQuery: String?
    /// The query parameters in wire order, decoded (static ones from the template first).
    var queryItems: [HTTPQueryItem]
    /// The request's own headers in declaration order, then those interceptors added; ``headerFields`` puts the shared
    /// headers before them.
    var headers: [HTTPHeader]
    /// The body as the request declared it, with its media type; a transport reads ``body``.
    var payload: RequestPayload?
    /// The timeout for this call in seconds (endpoint's, else domain's), or `nil` for the transport's default: positive,
    /// or `.infinity` for none (cap it before converting it to an integer). It bounds connecting (waiting for a pooled
    /// connection included) and each silence in either direction: every piece of the request body the connection takes
    /// and every piece of the response that arrives starts it again, and a call fails with `URLError(.timedOut)` only
    /// when nothing moved for that long.
    public let timeout: TimeInterval?
    /// Where the transport should put a successful response body.
    public let responseDestination: ResponseDestination
    /// How much the response may bring: a transport stops reading it once it passes them (see
    /// ``ResponseBodyBudget``), and RetroSwift checks what the transport returns against them again.
    public let responseLimits: ResponseLimits
    /// The endpoint that built this request.
    public let endpoint: EndpointIdentity
    /// The absolute URL to request, when the request does not go to the base URL: a `@Url` field gave a full URL, or
    /// RetroSwift is following a redirect; `nil` otherwise.
    var absoluteURL: URL?
    /// Lowercased names of shared headers that ``headerFields`` leaves out: the credentials, once a redirect has left
    /// the origin of the original request (see ``RedirectPolicy``), or a `@Url` field has led to another origin (see
    /// ``OtherHostPolicy``).
    var withheldSharedHeaders: Set<String> = []
    /// Whether ``headerFields`` leaves out every shared header: a `@Url` field leads to another origin than the base
    /// URL's, and its endpoint's ``OtherHostPolicy`` does not share credentials.
    var withholdsSharedHeaders = false
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
    /// ``ServerTrustEnforcing/serverTrustSupport`` says it enforces.
    public internal(set) var serverTrust: ServerTrust?
    /// The domain's ``Domain/clientIdentity``, or `nil`: a transport presents it to a server that asks for a client
    /// certificate, on connections that no call without this identity uses (make it part of the key connections are
    /// pooled by). RetroSwift hands it only to a transport whose ``ServerTrustEnforcing/serverTrustSupport`` holds
    /// ``ServerTrustSupport/clientIdentity``.
    public internal(set) var clientIdentity: ClientIdentity?
    /// Whether RetroSwift's ``HTTPCache`` handles this call's caching: its domain has a ``Domain/httpCache``. A transport
    /// with a cache of its own (URLSession's `URLCache`) leaves such a call out of it, neither answering from it nor
    /// storing the response, so that nothing is cached twice or answered by rules RetroSwift does not know.
    public var isCachedByRetroSwift: Bool { caching != nil }
    /// Whether RetroSwift has withheld the credentials from this request because it goes to another origin than the
    /// base URL's: a redirect left the origin (see ``RedirectPolicy``), or a `@Url` field led elsewhere (see
    /// ``OtherHostPolicy``). A transport with credentials of its own (a `URLCredential` answering authentication
    /// challenges) must not use them for such a request.
    public var withholdsCredentials: Bool {
        // A 303 that drops the body withholds its `Content-*` headers too, on the same origin: only the credential
        // names, which are always among those withheld from another origin, say the call left it.
        withholdsSharedHeaders || !withheldSharedHeaders.isDisjoint(with: RedirectPolicy.standardCredentialHeaders)
    }
    /// The domain's cache and the endpoint's ``CacheMode``; `nil` for a domain without a cache.
    var caching: CallCaching?
    /// Where a `@Url` field's full URL stands; `nil` for every other request, so they copy one empty pointer.
    var dynamicURLState: DynamicURLState?
    /// The base URL and shared headers of the domain that built this request (``Domain/baseURL``,
    /// ``Domain/sharedHeaders``) as they were when the call started, `nil` for most domains.
    let domainTarget: DomainTarget?
    /// The base URL and shared headers RetroSwift resolved for this call when it started (the domain's own, else the
    /// ones its transport's `setConfiguration` recorded), from which ``url`` and ``headerFields`` are made; `nil` only
    /// when neither told RetroSwift: a transport that keeps its base URL to itself.
    var target: HTTPTransportConfiguration?

    init(
        method: HTTPMethod, encodedPath: String, encodedQuery: String?, queryItems: [HTTPQueryItem],
        headers: [HTTPHeader], payload: RequestPayload?, timeout: TimeInterval?,
        responseDestination: ResponseDestination, endpoint: EndpointIdentity, domainTarget: DomainTarget? = nil,
        responseLimits: ResponseLimits = .default
    ) {
        self.responseLimits = responseLimits
        self.method = method
        self.encodedPath = encodedPath
        self.encodedQuery = encodedQuery
        self.queryItems = queryItems
        self.headers = headers
        self.payload = payload
        self.timeout = timeout
        self.responseDestination = responseDestination
        self.endpoint = endpoint
        self.domainTarget = domainTarget
    }

    /// The URL to send the request to, resolved by RetroSwift: the base URL's scheme, host, port and path followed by
    /// the percent-encoded path and query, or the full URL of a `@Url` field or of a redirect.
    ///
    /// It is relative — the path and query alone, ``encodedPathAndQuery`` — only when RetroSwift does not know the base
    /// URL: the domain has none of its own, and the transport implements `setConfiguration` and keeps what it is given
    /// to itself (or was never configured). Such a transport joins it with its own base URL; one that cannot send a
    /// relative URL throws ``RequestError/missingBaseURL(of:)``.
    public var url: URL {
        if let absoluteURL { return absoluteURL }
        if target != nil, let url = URL(string: urlString) { return url }
        // A percent-encoded path and query always parse; "/" is the last resort for a value that never occurs.
        return URL(string: encodedPathAndQuery) ?? URL(string: "/")!
    }

    /// ``url`` as a string, for a client that takes a string and parses it itself (async-http-client does), which
    /// saves parsing it twice.
    public var urlString: String {
        if let absoluteURL { return absoluteURL.absoluteString }
        guard let target else { return encodedPathAndQuery }
        var url = target.urlPrefix
        url.reserveCapacity(url.utf8.count + encodedPath.utf8.count + (encodedQuery?.utf8.count ?? -1) + 1)
        url += encodedPath
        if let encodedQuery {
            url += "?"
            url += encodedQuery
        }
        return url
    }

    /// Every header field to send, in order, resolved by RetroSwift: the shared headers (the domain's and those the
    /// transport's `setConfiguration` recorded, less those withheld from another origin), then the request's own
    /// (declared, and added by interceptors; one of the same name replaces a shared one), then `Content-Type` from the
    /// body unless the request sets one.
    ///
    /// A transport adds nothing to these but what its HTTP implementation must (`Host`, `Content-Length`,
    /// `Transfer-Encoding`, `Accept-Encoding` for the decompression it does).
    public var headerFields: [HTTPHeader] {
        headerFields(sharedHeaders: target?.sharedHeaders)
    }

    /// The body to send, or `nil` when the request has none; its media type is among ``headerFields``.
    public var body: HTTPRequestBody? {
        payload?.wireBody
    }

    /// The path and query as sent in the request line (the request target), for example
    /// `/api/v1/schedule?page=1&limit=30`.
    public var encodedPathAndQuery: String {
        guard let encodedQuery else { return encodedPath }
        return encodedPath + "?" + encodedQuery
    }

    /// `sharedHeaders` (less `withheldSharedHeaders`, or none at all when `withholdsSharedHeaders`), overridden
    /// by the request's own headers (names compare case-insensitively), then `Content-Type` from the body unless the
    /// request sets one.
    func headerFields(sharedHeaders: [String: String]?) -> [HTTPHeader] {
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
        if let payload, !fields.contains(where: { HeaderName.matches($0.name, "Content-Type") }) {
            fields.append(HTTPHeader(name: "Content-Type", value: payload.contentType))
        }
        return fields
    }
}
