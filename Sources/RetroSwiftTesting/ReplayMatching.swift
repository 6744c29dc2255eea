/// Which parts of a request must equal a recorded one's for the recording to answer it.
///
/// The method, the path and the query always count (after ``ReplayTransport/queryRedaction``). The scheme, host
/// and port count only with ``origin``, so a recording made against one server replays for any base URL.
public struct ReplayMatching: Sendable, Hashable {
    /// Header fields whose values must be equal too (names in any case; redacted values compare as redacted).
    public var headers: Set<String>
    /// Whether the body must be equal too.
    public var body: Bool
    /// Whether the scheme, host and port must be equal too.
    public var origin: Bool

    /// Creates the rules.
    ///
    /// - Parameters:
    ///   - headers: Header fields whose values must be equal too; none by default.
    ///   - body: Whether the body must be equal too; `false` by default.
    ///   - origin: Whether the scheme, host and port must be equal too; `false` by default.
    public init(headers: Set<String> = [], body: Bool = false, origin: Bool = false) {
        self.headers = Set(headers.map { $0.lowercased() })
        self.body = body
        self.origin = origin
    }
}
