/// Which hosts besides the base URL's a `@Url` field may send an endpoint's calls to, and whether the domain's
/// credentials go along.
///
/// A `@Url` value that is a path, or a full URL on the base URL's origin (scheme, host and port), is always sent.
/// A full URL on another origin is refused with ``RequestError`` (nothing is sent) unless the endpoint allows its
/// host with the `otherHosts:` argument:
///
/// ```swift
/// @Get(otherHosts: .allowing(["avatars.example-cdn.com"]))
/// var avatar: (AvatarRequest) async throws -> Data
/// ```
///
/// A call to another origin leaves out the domain's and the transport's shared headers, and the credential headers
/// that interceptors add (`Authorization`, `Cookie`, `Proxy-Authorization` and the redirect policy's
/// `credentialHeaders:` of ``RedirectPolicy/follow(maximumRedirects:allowingInsecureDowngrade:credentialHeaders:)``), unless the policy is made with `sharingCredentials: true` — and even then
/// when the URL is plain `http` and the base URL is not. Headers the request struct itself declares are sent as
/// declared.
public struct OtherHostPolicy: Sendable, Hashable {
    enum Hosts: Sendable, Hashable {
        case none
        case listed(Set<String>)
        case all
    }

    let hosts: Hosts
    /// Whether calls to an allowed other host carry the shared headers and the credentials interceptors add.
    let sharesCredentials: Bool

    /// Only the base URL's origin: a full URL elsewhere is refused. The default.
    public static let refused = OtherHostPolicy(hosts: .none, sharesCredentials: false)

    /// Allows the named hosts as well as the base URL's origin.
    ///
    /// - Parameters:
    ///   - hosts: Host names such as `cdn.example.com` (an IPv6 address in brackets: `[::1]`), compared
    ///     case-insensitively; any scheme and port on them is allowed. A name that is not a host (a URL, a path, an empty string) is a ``DeclarationError``.
    ///   - sharingCredentials: Whether calls there carry the shared headers and the credentials interceptors add;
    ///     `false` by default.
    /// - Returns: The policy.
    public static func allowing(_ hosts: [String], sharingCredentials: Bool = false) -> OtherHostPolicy {
        OtherHostPolicy(hosts: .listed(Set(hosts.map { $0.lowercased() })), sharesCredentials: sharingCredentials)
    }

    /// `host` lowercased, an IPv6 literal in brackets (`URL.host` gives it with or without, by platform).
    static func normalized(_ host: String) -> String {
        let lowered = host.lowercased()
        return lowered.contains(":") && !lowered.hasPrefix("[") ? "[" + lowered + "]" : lowered
    }

    /// Allows any host: for URLs handed out by the server (download links, pre-signed URLs).
    ///
    /// - Parameter sharingCredentials: Whether calls to other origins carry the shared headers and the credentials
    ///   interceptors add; `false` by default, and best left so when the URLs come from outside.
    /// - Returns: The policy.
    public static func allowingAnyHost(sharingCredentials: Bool = false) -> OtherHostPolicy {
        OtherHostPolicy(hosts: .all, sharesCredentials: sharingCredentials)
    }

    /// Whether a call may go to `host`, which is not on the base URL's origin.
    ///
    /// - Parameter host: A host name, compared case-insensitively.
    /// - Returns: `true` when the policy allows it.
    func allows(host: String) -> Bool {
        switch hosts {
        case .none: false
        case .listed(let names): names.contains(Self.normalized(host))
        case .all: true
        }
    }

    /// The listed names that are not host names, for the declaration check.
    var malformedHosts: [String] {
        guard case .listed(let names) = hosts else { return [] }
        return names.filter { !Self.isHostName($0) }.sorted()
    }

    private static func isHostName(_ name: String) -> Bool {
        DynamicURL.isHost(name.utf8)
    }
}
