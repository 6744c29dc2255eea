/// Adds the same query items to every call of a domain (Ethel's client-level `configure(on:)`; Flickr's `api_key`
/// and `format`), percent-encoded by the rules of `@Query`.
///
/// ```swift
/// api.interceptors = [SharedQueryItemsInterceptor(["api_key": flickrKey, "format": "json"])]
/// // GET /services/rest?method=flickr.photos.search&api_key=...&format=json
/// ```
///
/// - Items go after the request's own, in name order; a name the request already sends (a `@Query` field, the
///   path template's query, a `@Url` link's query) is left as the request has it.
/// - A call that a `@Url` field leads to another origin without shared credentials
///   (``HttpRequestParams/withholdsCredentials``) gets none of them, as it gets no shared headers: an API key
///   never follows a link to a CDN.
/// - Logs redact the values of `api_key`, `token` and the other names in ``QueryRedaction/defaultNames``; place this
///   interceptor after ``LoggingInterceptor`` to keep the items out of the log altogether.
public struct SharedQueryItemsInterceptor: Interceptor {
    /// The items added to every call, in name order.
    let items: [HTTPQueryItem]

    /// Creates the interceptor.
    ///
    /// - Parameter items: Query parameter names and values, unencoded; an empty name is refused when a call is made.
    public init(_ items: [String: String]) {
        self.items = items.sorted { $0.key < $1.key }.map { HTTPQueryItem(name: $0.key, value: $0.value) }
    }

    /// Adds the items the request does not send already, then sends it.
    ///
    /// - Parameters:
    ///   - request: The request.
    ///   - next: The rest of the chain.
    /// - Returns: The response.
    /// - Throws: ``RequestError`` of kind ``RequestError/Kind/invalidValue`` for an item with an empty name, and what
    ///   `next` throws.
    public func intercept(_ request: HttpRequestParams, next: InterceptorNext) async throws -> HttpOperationResult {
        guard !request.withholdsSharedHeaders else { return try await next(request) }
        var request = request
        for item in items where !request.queryItems.contains(where: { $0.name == item.name }) {
            request = try request.addingQueryItem(item.name, value: item.value)
        }
        return try await next(request)
    }
}
