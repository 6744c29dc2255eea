/// How one endpoint uses its domain's ``HTTPCache``: `@Get("/schedules", cache: .revalidate)`.
///
/// Without a ``Domain/httpCache`` these change nothing: RetroSwift caches nothing unless a domain asks for it.
public enum CacheMode: Sendable, Hashable {
    /// The rules of RFC 9111: a fresh stored response answers the call without the network, a stale one with a
    /// validator is revalidated with a conditional request, and a storable response is stored. The default.
    case standard
    /// Every call asks the server, as `Cache-Control: no-cache` would: a stored response with an `ETag` or a
    /// `Last-Modified` is revalidated with a conditional request (a `304` answers it from the stored body), never
    /// served without asking. For data that must be current but is costly to download again.
    case revalidate
    /// The cache is neither read nor written for this endpoint. A call with an unsafe method (`POST`, `PUT`, `PATCH`,
    /// `DELETE`) still removes what is stored for its URL, as RFC 9111 §4.4 requires.
    case disabled
}
