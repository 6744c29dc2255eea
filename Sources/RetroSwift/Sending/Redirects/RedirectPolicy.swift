import Foundation

/// Whether and how RetroSwift follows `3xx` redirects (RFC 9110 §15.4).
///
/// RetroSwift follows redirects itself, the same way on every transport (the bundled transports are set not to
/// follow them), so the rules below hold on Apple platforms and Linux alike:
/// - `301` and `302` after a `POST` become a `GET` without a body, as browsers and URLSession do; `303` becomes a
///   `GET` without a body whatever the method (a `HEAD` stays a `HEAD`); `307` and `308` repeat the same method
///   with the same body, multipart bodies streamed from files included. Other `3xx` statuses are returned as they
///   are.
/// - When a redirect leaves the origin of the original request (a different scheme, host or port),
///   `Authorization`, `Cookie`, `Proxy-Authorization` and the names in `credentialHeaders:` are no longer sent,
///   neither the request's own nor the transport's shared ones, for the rest of the call.
/// - A redirect from `https` to `http` is refused unless the policy allows it (`allowingInsecureDowngrade: true`), and one to any
///   other scheme always is; both throw ``RequestError`` of kind ``RequestError/Kind/redirectRefused``.
/// - More than `maximumRedirects` redirects in one call throw the same error, so a loop always ends.
/// - Each request of the chain gets the endpoint's timeout afresh, as a browser's would.
///
/// Set it for a whole API with ``Domain/redirectPolicy`` or for one endpoint with the `redirects:` argument of
/// `@Get` and its siblings. With ``never`` the `3xx` response itself is returned: decode it as
/// `HTTPResponse<Empty>` (or `Either`) and read its `Location` header.
public struct RedirectPolicy: Sendable, Hashable {
    /// Whether redirects are followed at all.
    let followsRedirects: Bool
    /// The most redirects followed in one call.
    let maximumRedirects: Int
    /// Whether a redirect from `https` to `http` is followed.
    let allowsInsecureDowngrade: Bool
    /// Lowercased names of the headers, besides `authorization`, `cookie` and `proxy-authorization`, that carry
    /// credentials and so are not sent once a redirect leaves the original origin (an `X-Api-Key`, say).
    let credentialHeaders: Set<String>

    /// The headers that always count as credentials.
    public static let standardCredentialHeaders: Set<String> = ["authorization", "cookie", "proxy-authorization"]

    /// Follows up to 16 redirects, refuses `https` → `http`, and withholds only the standard credential headers
    /// from other origins.
    public static let `default` = RedirectPolicy.follow()

    /// Never follows: the `3xx` response is returned to the caller.
    public static let never = RedirectPolicy(
        followsRedirects: false, maximumRedirects: 0, allowsInsecureDowngrade: false, credentialHeaders: []
    )

    /// A policy that follows redirects.
    ///
    /// - Parameters:
    ///   - maximumRedirects: The most redirects followed in one call; one more throws. 16 by default, as URLSession
    ///     on Apple platforms allows.
    ///   - allowingInsecureDowngrade: Whether a redirect from `https` to `http` is followed (credentials are
    ///     withheld from it all the same, as it is another origin).
    ///   - credentialHeaders: More header names, compared case-insensitively, that are withheld from other origins.
    /// - Returns: The policy.
    public static func follow(
        maximumRedirects: Int = 16, allowingInsecureDowngrade: Bool = false, credentialHeaders: [String] = []
    ) -> RedirectPolicy {
        RedirectPolicy(
            followsRedirects: true, maximumRedirects: max(0, maximumRedirects),
            allowsInsecureDowngrade: allowingInsecureDowngrade,
            credentialHeaders: Set(credentialHeaders.map(HeaderName.key))
        )
    }

    private init(followsRedirects: Bool, maximumRedirects: Int, allowsInsecureDowngrade: Bool, credentialHeaders: Set<String>) {
        self.followsRedirects = followsRedirects
        self.maximumRedirects = maximumRedirects
        self.allowsInsecureDowngrade = allowsInsecureDowngrade
        self.credentialHeaders = credentialHeaders
    }

    /// Whether `name` is withheld from other origins, compared case-insensitively.
    ///
    /// - Parameter name: A header name.
    /// - Returns: `true` for the standard credential headers and for `credentialHeaders:`.
    func isCredential(_ name: String) -> Bool {
        let lowered = HeaderName.key(name)
        return Self.standardCredentialHeaders.contains(lowered) || credentialHeaders.contains(lowered)
    }
}
