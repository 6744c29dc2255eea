import Foundation

/// A domain's cache and how one call uses it, carried by the call's request to ``RedirectFollower``.
struct CallCaching: Sendable {
    let cache: HTTPCache
    let mode: CacheMode
}

/// One exchange through a domain's ``HTTPCache`` (RFC 9111): answered from the store, revalidated, or sent and
/// stored. It sits where ``RedirectFollower`` meets the transport, so each hop is cached on its own and with the
/// fields interceptors added (the `Authorization` an entry is kept under among them).
enum CachingExchange {
    /// Sends a request to the server: the transport, with the response checked by ``ResponseChecks``.
    typealias Network = @Sendable (HttpRequestParams) async throws -> HttpOperationResult

    static func send(
        _ request: HttpRequestParams, caching: CallCaching, network: @escaping Network
    ) async throws -> HttpOperationResult {
        let cache = caching.cache
        guard request.method == .get else {
            let result = try await network(request)
            if !isSafe(request.method), (200..<400).contains(result.statusCode) { invalidate(after: result, of: request, in: cache) }
            return result
        }
        let fields = request.headerFields
        guard caching.mode != .disabled, request.responseDestination == .memory, request.body == nil,
            !fields.contains(where: { bypassingFields.contains(HeaderName.key($0.name)) })
        else { return try await network(request) }
        let requestControl = requestCacheControl(fields)
        if requestControl.noStore { return try await network(request) }

        let key = HTTPCache.key(for: request.url)
        // Who is asking (the fields and the digest of the credentials), worked out once for every step below.
        let requester = CacheStore.Requester(fields)
        if let entry = cache.entry(for: key, answering: requester) {
            let now = cache.now()
            let age = entry.age(at: now)
            let mustAsk = caching.mode == .revalidate || requestControl.noCache || entry.control.noCache
            if !mustAsk, isUsable(entry, age: age, for: requestControl) {
                return entry.response(age: age, source: .cache)
            }
            if !mustAsk, cache.servesStaleWhileRevalidating, requestControl.maxAge == nil, !entry.control.mustRevalidate,
                let window = entry.control.staleWhileRevalidate, age - entry.freshnessLifetime <= TimeInterval(window)
            {
                revalidateInBackground(entry, key: key, request: request, requester: requester, cache: cache, network: network)
                return entry.response(age: age, source: .staleCache)
            }
            if requestControl.onlyIfCached { return gatewayTimeout(request) }
            if entry.validators.etag != nil || entry.validators.lastModified != nil {
                return try await revalidate(
                    entry, key: key, request: request, requester: requester, requestControl: requestControl, cache: cache,
                    network: network)
            }
        } else if requestControl.onlyIfCached {
            return gatewayTimeout(request)
        }
        return try await fetch(
            request, key: key, requester: requester, requestControl: requestControl, cache: cache, network: network)
    }

    /// Sends `request` unconditionally and stores what may be stored.
    private static func fetch(
        _ request: HttpRequestParams, key: String, requester: CacheStore.Requester, requestControl: CacheControl,
        cache: HTTPCache, network: Network
    ) async throws -> HttpOperationResult {
        let requestTime = cache.now()
        let result = try await network(request)
        store(result, for: request, requester: requester, key: key, requestControl: requestControl, requestTime: requestTime, cache: cache)
        return result
    }

    /// Asks the server whether `entry` is still current (§4.3): a `304` freshens it and answers with it; a full
    /// response replaces it.
    private static func revalidate(
        _ entry: CacheEntry, key: String, request: HttpRequestParams, requester: CacheStore.Requester,
        requestControl: CacheControl, cache: HTTPCache, network: Network
    ) async throws -> HttpOperationResult {
        var conditional = request
        // Validators come from a response's fields, which transports never hand over with CR or LF; checked anyway,
        // since they go back out in a request.
        if let etag = entry.validators.etag, HeaderRules.problem(inValue: etag) == nil {
            conditional.headers.append(HTTPHeader(name: "If-None-Match", value: etag))
        }
        if let lastModified = entry.validators.lastModified, HeaderRules.problem(inValue: lastModified) == nil {
            conditional.headers.append(HTTPHeader(name: "If-Modified-Since", value: lastModified))
        }
        let requestTime = cache.now()
        let result = try await network(conditional)
        guard result.statusCode == 304 else {
            store(
                result, for: request, requester: requester, key: key, requestControl: requestControl, requestTime: requestTime,
                cache: cache)
            return result
        }
        let responseTime = cache.now()
        let freshened = cache.update(key, answering: requester) { stored in
            guard stored.isFreshened(by: result) else { return false }
            stored.freshen(with: result, requestTime: requestTime, responseTime: responseTime, heuristics: cache.usesHeuristicFreshness)
            return true
        }
        if let freshened {
            var answer = freshened.response(age: freshened.age(at: responseTime), source: .revalidatedCache)
            answer.url = result.url ?? answer.url
            return answer
        }
        // The 304 names another representation than the one stored (or the entry left meanwhile): it cannot answer
        // the call, which asks again without conditions.
        cache.remove(key, answering: requester)
        return try await fetch(
            request, key: key, requester: requester, requestControl: requestControl, cache: cache, network: network)
    }

    private static func revalidateInBackground(
        _ entry: CacheEntry, key: String, request: HttpRequestParams, requester: CacheStore.Requester, cache: HTTPCache,
        network: @escaping Network
    ) {
        guard cache.revalidating.withLock({ $0.insert(key).inserted }) else { return }
        Task {
            defer { cache.revalidating.withLock { _ = $0.remove(key) } }
            _ = try? await revalidate(
                entry, key: key, request: request, requester: requester, requestControl: CacheControl(nil), cache: cache,
                network: network)
        }
    }

    /// Stores `result` when RFC 9111 §3 allows it; otherwise drops what a request like this one had stored, since
    /// the server has answered it anew.
    private static func store(
        _ result: HttpOperationResult, for request: HttpRequestParams, requester: CacheStore.Requester, key: String,
        requestControl: CacheControl, requestTime: Date, cache: HTTPCache
    ) {
        let refusal = CacheEntry.refusal(
            of: result, to: request, requestControl: requestControl, heuristics: cache.usesHeuristicFreshness,
            maxEntryBytes: cache.maxBytes)
        guard refusal == nil else { return cache.remove(key, answering: requester) }
        let entry = CacheEntry(
            result, for: requester, requestTime: requestTime, responseTime: cache.now(), heuristics: cache.usesHeuristicFreshness)
        cache.save(entry, for: key, replacing: requester)
    }

    /// Whether `entry` at `age` may answer without asking the server (§4.2, §5.2.1): fresh enough for the
    /// request, or stale by no more than its `max-stale` allows.
    private static func isUsable(_ entry: CacheEntry, age: TimeInterval, for request: CacheControl) -> Bool {
        if let maxAge = request.maxAge, age > TimeInterval(maxAge) { return false }
        let remaining = entry.freshnessLifetime - age
        if let minFresh = request.minFresh { return remaining >= TimeInterval(minFresh) }
        if remaining > 0 { return true }
        guard let maxStale = request.maxStale, !entry.control.mustRevalidate else { return false }
        return maxStale == Int.max || -remaining <= TimeInterval(maxStale)
    }

    /// §4.4: a successful unsafe request removes what is stored for its URL and for the `Location` and
    /// `Content-Location` it answered with, when those are on the same origin.
    private static func invalidate(after result: HttpOperationResult, of request: HttpRequestParams, in cache: HTTPCache) {
        let target = request.url
        var keys = [HTTPCache.key(for: target)]
        for name in ["Location", "Content-Location"] {
            guard let value = result.header(name), let url = URL(string: value, relativeTo: result.url ?? target)?.absoluteURL,
                let origin = Origin(url), origin == Origin(target)
            else { continue }
            keys.append(HTTPCache.key(for: url))
        }
        for key in keys { cache.removeAll(for: key) }
    }

    /// The `504` a cache answers `only-if-cached` with when nothing stored may answer (RFC 9111 §5.2.1.7).
    private static func gatewayTimeout(_ request: HttpRequestParams) -> HttpOperationResult {
        var result = HttpOperationResult(statusCode: 504, url: request.url)
        result.source = .cache
        return result
    }

    /// The request's `Cache-Control`, or `no-cache` for a `Pragma: no-cache` without one (§5.4).
    private static func requestCacheControl(_ fields: [HTTPHeader]) -> CacheControl {
        let values = fields.filter { HeaderName.matches($0.name, "Cache-Control") }.map(\.value)
        if !values.isEmpty { return CacheControl(values.joined(separator: ", ")) }
        var control = CacheControl(nil)
        control.noCache = fields.contains {
            HeaderName.matches($0.name, "Pragma") && CacheControl.directives(in: $0.value).contains { $0.name == "no-cache" }
        }
        return control
    }

    private static func isSafe(_ method: HTTPMethod) -> Bool {
        method == .get || method == .head || method == .options || method.rawValue == "TRACE"
    }

    /// Request fields that make a request the cache does not answer: the caller's own conditions and ranges.
    private static let bypassingFields: Set<String> = [
        "if-none-match", "if-modified-since", "if-match", "if-unmodified-since", "if-range", "range",
    ]
}
