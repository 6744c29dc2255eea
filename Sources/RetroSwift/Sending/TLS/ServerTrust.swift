import Foundation

/// Which servers a domain's calls trust over `https`: those with a certificate from the system's certificate
/// authorities (the default), or from authorities of your own instead, and optionally only those whose certificate
/// chain holds one of the public keys you pin.
///
/// Set it on the domain, and it covers every call the domain makes — ordinary, streamed, uploads, downloads, each hop
/// of a redirect — on every transport:
///
/// ```swift
/// let api = CatalogApi(transport: URLSessionTransport(), baseURL: URL(string: "https://api.example.com")!)
/// api.serverTrust = try ServerTrust(pinnedPublicKeys: [
///     "sha256/C3Ok6vyTxVeEt9LHWzhX4lv6YEqS+jTluwC0vEUj4c8=",  // the server's key
///     "sha256/B0Sz/xBMiZP2dTMfC2n/RTZfFC1oBj+z1j9COI6KqDI=",  // its backup
/// ])
/// ```
///
/// The chain is always verified first (by the authorities, the validity dates and the host name); pins only narrow
/// it further. A transport that cannot enforce what the trust asks for refuses the call with ``RequestError`` of kind
/// ``RequestError/Kind/serverTrustUnsupported`` before anything is sent, rather than send it with less protection
/// than you asked for (see ``ServerTrustEnforcing/serverTrustSupport`` and <doc:ServerTrustAndPinning>).
public struct ServerTrust: Sendable, Hashable {
    /// The certificates (DER) of the authorities trusted instead of the system's; empty trusts the system's.
    public let certificateAuthorities: [Data]
    /// The public keys a server's verified chain must hold one of, each the base64 SHA-256 digest of a certificate's
    /// `SubjectPublicKeyInfo` (the form of HPKP and OkHttp's `CertificatePinner`, without the `sha256/`); empty pins
    /// none.
    public let pinnedPublicKeys: Set<String>

    /// The system's certificate authorities and no pins: what every domain trusts unless told otherwise.
    public static let system = ServerTrust(checkedAuthorities: [], pins: [])

    /// Creates a trust from certificates and pins.
    ///
    /// - Parameters:
    ///   - certificateAuthorities: DER-encoded certificates of the authorities to trust instead of the system's;
    ///     empty (the default) keeps the system's.
    ///   - pinnedPublicKeys: Pins, each the base64 SHA-256 digest of a `SubjectPublicKeyInfo`, with or without a
    ///     leading `sha256/`. `openssl x509 -in cert.pem -pubkey -noout | openssl pkey -pubin -outform der | openssl
    ///     dgst -sha256 -binary | base64` prints a certificate's. Pin a backup key too, so a new certificate does
    ///     not lock your app out.
    /// - Throws: ``RequestError`` of kind ``RequestError/Kind/invalidValue`` naming the certificate or pin that is
    ///   not one.
    public init(certificateAuthorities: [Data] = [], pinnedPublicKeys: [String] = []) throws {
        for (index, certificate) in certificateAuthorities.enumerated()
        where CertificateDER.subjectPublicKeyInfo(of: Array(certificate)) == nil {
            throw Self.invalid("certificateAuthorities[\(index)]", "is not a DER-encoded X.509 certificate")
        }
        var pins: Set<String> = []
        for pin in pinnedPublicKeys {
            let base64 = pin.hasPrefix("sha256/") ? String(pin.dropFirst("sha256/".count)) : pin
            guard let digest = Data(base64Encoded: base64), digest.count == 32 else {
                throw Self.invalid(
                    "pinnedPublicKeys", "'\(pin)' is not the base64 SHA-256 digest of a public key (32 bytes, 44 characters)")
            }
            pins.insert(digest.base64EncodedString())
        }
        self.init(checkedAuthorities: certificateAuthorities, pins: pins)
    }

    /// Creates a trust from PEM-encoded certificates (the `-----BEGIN CERTIFICATE-----` blocks of a `.pem` or `.crt`
    /// file; anything between blocks is ignored) and pins.
    ///
    /// - Parameters:
    ///   - certificateAuthoritiesPEM: One or more PEM certificates of the authorities to trust instead of the
    ///     system's.
    ///   - pinnedPublicKeys: Pins, as for ``init(certificateAuthorities:pinnedPublicKeys:)``.
    /// - Throws: ``RequestError`` of kind ``RequestError/Kind/invalidValue`` when the text holds no certificate, or
    ///   one that does not decode, or a pin that is not one.
    public init(certificateAuthoritiesPEM: String, pinnedPublicKeys: [String] = []) throws {
        let blocks = certificateAuthoritiesPEM.components(separatedBy: "-----BEGIN CERTIFICATE-----").dropFirst()
        var certificates: [Data] = []
        for (index, block) in blocks.enumerated() {
            guard let end = block.range(of: "-----END CERTIFICATE-----"),
                let der = Data(base64Encoded: String(block[..<end.lowerBound]), options: .ignoreUnknownCharacters)
            else {
                throw Self.invalid("certificateAuthoritiesPEM", "certificate \(index + 1) is not valid PEM")
            }
            certificates.append(der)
        }
        guard !certificates.isEmpty else {
            throw Self.invalid("certificateAuthoritiesPEM", "holds no '-----BEGIN CERTIFICATE-----' block")
        }
        try self.init(certificateAuthorities: certificates, pinnedPublicKeys: pinnedPublicKeys)
    }

    private init(checkedAuthorities: [Data], pins: Set<String>) {
        self.certificateAuthorities = checkedAuthorities
        self.pinnedPublicKeys = pins
    }

    /// What a transport must enforce for this trust: nothing for ``system``.
    public var requirements: ServerTrustSupport {
        var needed: ServerTrustSupport = []
        if !certificateAuthorities.isEmpty { needed.insert(.certificateAuthorities) }
        if !pinnedPublicKeys.isEmpty { needed.insert(.publicKeyPins) }
        return needed
    }

    /// Whether a chain the transport has verified passes the pins: one of its certificates (DER, leaf first) has a
    /// pinned public key. Always `true` without pins. For transports that enforce pins.
    ///
    /// - Parameter verifiedChain: The server's chain as the platform verified it, anchor included.
    /// - Returns: Whether the connection may be used.
    public func acceptsPins(of verifiedChain: [Data]) -> Bool {
        guard !pinnedPublicKeys.isEmpty else { return true }
        return verifiedChain.contains { certificate in
            CertificateDER.publicKeyPin(of: Array(certificate)).map(pinnedPublicKeys.contains) ?? false
        }
    }

    private static func invalid(_ field: String, _ reason: String) -> RequestError {
        RequestError(.invalidValue, endpoint: nil, field: field, reason: reason)
    }
}
