import Foundation

/// The certificate and private key a domain's calls present to servers that ask for one (mutual TLS), such as a
/// partner API that admits only the clients it issued certificates to.
///
/// Set it on the domain, and every `https` call the domain makes presents it — ordinary, streamed, uploads, downloads,
/// each hop of a redirect — on connections of the domain's own: a transport never presents it on a connection another
/// domain's calls use, and never gives such a connection to a domain without it:
///
/// ```swift
/// let api = CatalogApi(transport: NIOTransport(), baseURL: URL(string: "https://partner.example.com")!)
/// api.clientIdentity = try ClientIdentity(
///     certificateChainPEM: String(contentsOfFile: "/etc/partner/client.pem", encoding: .utf8),
///     privateKeyPEM: String(contentsOfFile: "/etc/partner/client.key", encoding: .utf8))
/// ```
///
/// A transport that cannot present one (``ServerTrustSupport/clientIdentity`` missing from its
/// ``ServerTrustEnforcing/serverTrustSupport``) refuses the call with ``RequestError`` of kind
/// ``RequestError/Kind/serverTrustUnsupported`` before anything is sent. The private key never shows in the identity's
/// description.
public struct ClientIdentity: Sendable, Hashable, CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
    /// The certificates (DER) presented to the server: the client's own first, then the intermediates, if any, that
    /// lead to the authority the server trusts.
    public let certificateChain: [Data]
    /// The private key of the first certificate, in PEM (`-----BEGIN PRIVATE KEY-----`, PKCS #8, or the
    /// `EC PRIVATE KEY` and `RSA PRIVATE KEY` forms), as given.
    public let privateKeyPEM: String

    /// Creates an identity from PEM text, as `openssl` and most certificate authorities write it.
    ///
    /// - Parameters:
    ///   - certificateChainPEM: One or more `-----BEGIN CERTIFICATE-----` blocks, the client's certificate first, then
    ///     its intermediates; anything between blocks is ignored.
    ///   - privateKeyPEM: The certificate's unencrypted private key: a `-----BEGIN PRIVATE KEY-----`,
    ///     `EC PRIVATE KEY` or `RSA PRIVATE KEY` block. An encrypted key (`ENCRYPTED PRIVATE KEY`) is refused: decrypt
    ///     it first (`openssl pkey -in key.pem -out plain.pem`).
    /// - Throws: ``RequestError`` of kind ``RequestError/Kind/invalidValue`` naming the parameter when the chain holds no
    ///   certificate or one that does not decode, or the key is not an unencrypted PEM private key. Whether the key
    ///   matches the certificate is checked by the transport, when it first connects.
    public init(certificateChainPEM: String, privateKeyPEM: String) throws {
        let blocks = certificateChainPEM.components(separatedBy: "-----BEGIN CERTIFICATE-----").dropFirst()
        var chain: [Data] = []
        for (index, block) in blocks.enumerated() {
            guard let end = block.range(of: "-----END CERTIFICATE-----"),
                let der = Data(base64Encoded: String(block[..<end.lowerBound]), options: .ignoreUnknownCharacters),
                CertificateDER.subjectPublicKeyInfo(of: Array(der)) != nil
            else {
                throw Self.invalid("certificateChainPEM", "certificate \(index + 1) is not a valid PEM X.509 certificate")
            }
            chain.append(der)
        }
        guard !chain.isEmpty else {
            throw Self.invalid("certificateChainPEM", "holds no '-----BEGIN CERTIFICATE-----' block")
        }
        guard Self.isPlainPrivateKey(privateKeyPEM) else {
            throw Self.invalid(
                "privateKeyPEM",
                "holds no unencrypted '-----BEGIN PRIVATE KEY-----', 'EC PRIVATE KEY' or 'RSA PRIVATE KEY' block")
        }
        self.certificateChain = chain
        self.privateKeyPEM = privateKeyPEM
    }

    /// The identity without its key: `ClientIdentity(2 certificates, private key redacted)`.
    public var description: String {
        "ClientIdentity(\(certificateChain.count) certificate\(certificateChain.count == 1 ? "" : "s"), private key redacted)"
    }

    /// The same as ``description``, so that the key shows in no debugger or log either.
    public var debugDescription: String { description }

    /// The identity's parts as `dump` and debuggers show them, the key left out.
    public var customMirror: Mirror {
        Mirror(self, children: ["certificateChain": certificateChain], displayStyle: .struct)
    }

    /// Whether `pem` holds one whole unencrypted private key block whose body is base64.
    private static func isPlainPrivateKey(_ pem: String) -> Bool {
        for kind in ["PRIVATE KEY", "EC PRIVATE KEY", "RSA PRIVATE KEY"] {
            guard let begin = pem.range(of: "-----BEGIN \(kind)-----"),
                let end = pem.range(of: "-----END \(kind)-----", range: begin.upperBound..<pem.endIndex)
            else { continue }
            let body = String(pem[begin.upperBound..<end.lowerBound])
            // A traditional encrypted key says so in its headers (`Proc-Type: 4,ENCRYPTED`).
            guard !body.contains("ENCRYPTED"), let der = Data(base64Encoded: body, options: .ignoreUnknownCharacters), !der.isEmpty
            else { return false }
            return true
        }
        return false
    }

    private static func invalid(_ field: String, _ reason: String) -> RequestError {
        RequestError(.invalidValue, endpoint: nil, field: field, reason: reason)
    }
}
