/// What of a ``ServerTrust`` a transport enforces on the connections it makes (``HttpTransport/serverTrustSupport``).
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
}
