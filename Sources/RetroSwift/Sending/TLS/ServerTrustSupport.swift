/// What of a ``ServerTrust`` a transport enforces on the connections it makes (``ServerTrustEnforcing``).
///
/// RetroSwift sends a call only through a transport that enforces everything the domain's ``Domain/serverTrust``
/// asks for; otherwise the call throws ``RequestError`` of kind ``RequestError/Kind/serverTrustUnsupported`` and
/// nothing is sent.
public struct ServerTrustSupport: OptionSet, Sendable, Hashable {
    /// The raw bits.
    public let rawValue: Int

    /// Creates a set from its raw bits.
    ///
    /// - Parameter rawValue: The raw bits.
    public init(rawValue: Int) {
        self.rawValue = rawValue
    }

    /// Trusting ``ServerTrust/certificateAuthorities`` instead of the system's roots.
    public static let certificateAuthorities = ServerTrustSupport(rawValue: 1 << 0)
    /// Refusing a server whose verified chain holds none of ``ServerTrust/pinnedPublicKeys``.
    public static let publicKeyPins = ServerTrustSupport(rawValue: 1 << 1)
    /// Presenting a domain's ``Domain/clientIdentity`` (``HttpRequestParams/clientIdentity``) to servers that ask for a
    /// client certificate, on connections no call without that identity uses.
    public static let clientIdentity = ServerTrustSupport(rawValue: 1 << 2)
    /// Presenting a domain's ``Domain/clientIdentity`` as ``clientIdentity`` does, when it was made from a PKCS #12
    /// archive (``ClientIdentity/init(pkcs12:passphrase:)``) only: what URLSession on Apple platforms can present,
    /// since the system makes identities from archives, not from PEM keys. A call whose identity is PEM is refused
    /// before anything is sent.
    public static let pkcs12ClientIdentity = ServerTrustSupport(rawValue: 1 << 3)
}

/// A transport that enforces a domain's ``ServerTrust`` on its connections, and says how much of it.
///
/// A transport that does not conform is never handed a call whose domain has a ``ServerTrust`` of its own: RetroSwift
/// refuses such a call before sending anything, so that a transport that never reads ``HttpRequestParams/serverTrust``
/// is never trusted to.
public protocol ServerTrustEnforcing: HttpTransport {
    /// What of a ``ServerTrust`` this transport enforces on its connections (``HttpRequestParams/serverTrust``):
    /// RetroSwift refuses to hand it a call whose domain asks for more.
    var serverTrustSupport: ServerTrustSupport { get }
}
