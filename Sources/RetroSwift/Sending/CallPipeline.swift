import Foundation

/// What every call does between building its request and decoding the answer — a declared endpoint, a nested
/// API's, a `@Url` call, a one-off ``Domain/invoke(_:path:arguments:body:returning:)``, each page of a paginated
/// endpoint and each streamed one — so that each of these decisions is made once, here, whatever the transport.
enum CallPipeline {
    /// Resolves `built` into the complete request and sends it: interceptors, then redirects, then the transport.
    ///
    /// `nonisolated(nonsending)`: runs on the caller's actor until the transport call, like the callers.
    nonisolated(nonsending) static func send(
        _ built: consuming HttpRequestParams, of domain: Domain, settings: DomainSettings, redirects: RedirectPolicy,
        cacheMode: CacheMode = .standard
    ) async throws -> HttpOperationResult {
        var request = built
        if let cache = settings.cache { request.caching = CallCaching(cache: cache, mode: cacheMode) }
        request.serverTrust = settings.serverTrust
        request.clientIdentity = settings.clientIdentity
        // 1. Where the call goes: the domain's path prefix, then the base URL and shared headers, read once here so
        //    that a call sees one configuration from its first hop to its last, and every transport the same.
        if let prefix = domain.pathPrefix { try prefix.apply(to: &request) }
        request.target = try target(of: request, kept: domain.transportTarget)
        // 2. A `@Url` field's full URL: its origin against the base URL's, before interceptors add credentials.
        if request.dynamicURLState != nil {
            try request.settleOrigin(baseURL: request.target?.baseURL, credentials: redirects)
        }
        // 3. Interceptors in order, then redirects (RedirectFollower), then the domain's cache (CachingExchange), then
        //    the transport, whose every answer ResponseChecks holds to the framing rules and limits before anything
        //    else sees it.
        // 4. A failure of the transport leaves it as a TransportError naming the endpoint and the URL
        //    (RedirectFollower); an error an interceptor or a token refresher throws reaches the caller as it was
        //    thrown. A streamed body's failures come from the transport, and are wrapped as they surface, naming the
        //    last hop's URL.
        var result = try await InterceptorChain.send(request, through: settings.interceptors, redirects: redirects, to: domain.transport)
        // The request and URL are captured only when there is a stream to wrap: a copy of the request is a dozen
        // retains, and the URL may still be a string to parse.
        if let stream = result.bodyStream {
            let source = result.url
            result.body = .stream(stream.wrappingFailures { [request] in TransportError.wrapping($0, of: request, at: source) })
        }
        return result
    }

    /// The base URL and shared headers of `request`: its domain's own, else those its transport's `setConfiguration`
    /// recorded (``TransportTarget``); `nil` when neither has one: the transport keeps its base URL to itself (it
    /// implements `setConfiguration`), or was never configured, and gets a relative URL.
    ///
    /// - Throws: ``RequestError`` of kind ``RequestError/Kind/transportNotConfigured`` when two domains configured the
    ///   transport differently, or with an unusable base URL.
    private static func target(of request: HttpRequestParams, kept target: TransportTarget?) throws -> HTTPTransportConfiguration? {
        if let own = request.domainTarget?.configuration { return own }
        return try target?.configuration(adding: request.domainTarget?.sharedHeaders ?? [:], for: request.endpoint)
    }
}
