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
        // 1. Where the call goes: the domain's path prefix, then the base URL and shared headers, read once here so
        //    that a call sees one configuration from its first hop to its last, and every transport the same.
        if let prefix = domain.pathPrefix { try prefix.apply(to: &request) }
        request.target = try target(of: request, kept: domain.transportConfiguration)
        // 2. A `@Url` field's full URL: its origin against the base URL's, before interceptors add credentials.
        if request.dynamicURLState != nil {
            try request.settleOrigin(baseURL: request.target?.baseURL, credentials: redirects)
        }
        // 3. Interceptors in order, then redirects (RedirectFollower), then the domain's cache (CachingExchange), then
        //    the transport, whose every answer ResponseChecks holds to the framing rules and limits before anything
        //    else sees it.
        // 4. A failure below RetroSwift leaves the call as a TransportError naming the endpoint and the URL; the
        //    interceptors (retries among them) saw it as it was thrown.
        //    A streamed body's failures are wrapped the same way as they surface, naming the last hop's URL.
        do {
            var result = try await InterceptorChain.send(
                request, through: settings.interceptors, redirects: redirects, to: domain.transport)
            // The request and URL are captured only when there is a stream to wrap: a copy of the request is a dozen
            // retains, and the URL may still be a string to parse.
            if let stream = result.bodyStream {
                let source = result.url
                result.bodyStream = stream.wrappingFailures { [request] in TransportError.wrapping($0, of: request, at: source) }
            }
            return result
        } catch {
            throw TransportError.wrapping(error, of: request)
        }
    }

    /// The base URL and shared headers of `request`: its domain's own, else those its transport keeps where
    /// RetroSwift can read them (``ConfigurableHTTPTransport``); `nil` for a transport that keeps them to itself.
    ///
    /// - Throws: ``RequestError`` of kind ``RequestError/Kind/transportNotConfigured`` when neither the domain nor
    ///   the transport has a usable base URL (unless the transport's store says it needs none).
    private static func target(
        of request: HttpRequestParams, kept store: HTTPTransportConfigurationStore?
    ) throws -> HTTPTransportConfiguration? {
        if let own = request.domainTarget?.configuration { return own }
        guard let store else { return nil }
        do {
            return try store.resolve(for: request)
        } catch {
            // A test double that needs no base URL still gets the call, with a relative URL.
            if store.baseURLRequired { throw error }
            return nil
        }
    }
}
