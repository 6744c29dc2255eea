/// Where a response came from: the network, or a domain's ``HTTPCache``. Read it from
/// ``HTTPResponse/source`` or ``HttpOperationResult/source``.
public enum ResponseSource: Sendable, Hashable {
    /// The server sent this response for this call.
    case network
    /// A fresh stored response answered the call; nothing was sent. Its `Age` field says how old it is. A `504` the
    /// cache made itself for a request with `Cache-Control: only-if-cached` and nothing stored comes from here too.
    case cache
    /// The stored response was revalidated: the server answered a conditional request with `304 Not Modified`, and
    /// the stored body came back with the headers the `304` brought.
    case revalidatedCache
    /// A stale stored response answered the call within its `stale-while-revalidate` window, while the cache
    /// revalidates it in the background (only with `servesStaleWhileRevalidating: true`).
    case staleCache
}
