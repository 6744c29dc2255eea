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
/// Or from a PKCS #12 archive (`.p12`, `.pfx`), the form iOS apps and most keychains export:
///
/// ```swift
/// api.clientIdentity = try ClientIdentity(
///     pkcs12: Data(contentsOf: Bundle.main.url(forResource: "client", withExtension: "p12")!),
///     passphrase: "the archive's passphrase")
/// ```
///
/// A transport that cannot present one (``ServerTrustSupport/clientIdentity`` missing from its
/// ``ServerTrustEnforcing/serverTrustSupport``) refuses the call with ``RequestError`` of kind
/// ``RequestError/Kind/serverTrustUnsupported`` before anything is sent. Neither the private key nor the passphrase
/// shows in the identity's description.
public struct ClientIdentity: Sendable, Hashable, CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
    /// What an identity is made of, as a transport reads it to present it.
    public enum Material: Sendable, Hashable {
        /// The certificates (DER) presented to the server, the client's own first, then the intermediates, if any,
        /// that lead to the authority the server trusts; and the private key of the first, in PEM
        /// (`-----BEGIN PRIVATE KEY-----`, PKCS #8, or the `EC PRIVATE KEY` and `RSA PRIVATE KEY` forms), as given.
        case pem(certificateChain: [Data], privateKeyPEM: String)
        /// A PKCS #12 archive holding the client's certificate, its chain and its private key, as given, with the
        /// passphrase that opens it. RetroSwift's core does not open it: a transport does, with its TLS library.
        case pkcs12(archive: Data, passphrase: String)
    }

    /// The certificates and key the transport presents.
    public let material: Material

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
        material = .pem(certificateChain: chain, privateKeyPEM: privateKeyPEM)
    }

    /// Creates an identity from a PKCS #12 archive, as iOS apps, keychains and `openssl pkcs12 -export` write it.
    ///
    /// - Parameters:
    ///   - pkcs12: The archive's bytes (a `.p12` or `.pfx` file): the client's certificate, its chain and its
    ///     private key.
    ///   - passphrase: The passphrase the archive was exported with; empty for one exported without.
    /// - Throws: ``RequestError`` of kind ``RequestError/Kind/invalidValue`` naming `pkcs12` when the bytes are not one
    ///   whole DER structure, as every PKCS #12 archive is (a PEM file, for instance). Whether the passphrase opens it
    ///   is checked by the transport before the call's first request: a wrong one fails the call with
    ///   ``RequestError/Kind/invalidValue`` naming the endpoint and `clientIdentity`.
    public init(pkcs12: Data, passphrase: String) throws {
        guard Self.isOneDERSequence(Array(pkcs12)) else {
            throw Self.invalid("pkcs12", "is not a PKCS #12 archive (DER): \(pkcs12.count) bytes that are not one ASN.1 SEQUENCE")
        }
        material = .pkcs12(archive: pkcs12, passphrase: passphrase)
    }

    /// The identity without its secrets: `ClientIdentity(2 certificates, private key redacted)`, or
    /// `ClientIdentity(PKCS #12 archive of 2437 bytes, passphrase redacted)`.
    public var description: String {
        switch material {
        case .pem(let chain, _):
            "ClientIdentity(\(chain.count) certificate\(chain.count == 1 ? "" : "s"), private key redacted)"
        case .pkcs12(let archive, _):
            "ClientIdentity(PKCS #12 archive of \(archive.count) bytes, passphrase redacted)"
        }
    }

    /// The same as ``description``, so that no secret shows in a debugger or log either.
    public var debugDescription: String { description }

    /// The identity's parts as `dump` and debuggers show them, the key and the passphrase left out.
    public var customMirror: Mirror {
        switch material {
        case .pem(let chain, _): Mirror(self, children: ["certificateChain": chain], displayStyle: .struct)
        case .pkcs12(let archive, _): Mirror(self, children: ["pkcs12ByteCount": archive.count], displayStyle: .struct)
        }
    }

    /// Whether `bytes` are one DER SEQUENCE whose length (short or long form) covers them exactly.
    private static func isOneDERSequence(_ bytes: [UInt8]) -> Bool {
        guard bytes.count >= 2, bytes[0] == 0x30 else { return false }
        let first = Int(bytes[1])
        if first < 0x80 { return 2 + first == bytes.count }
        let lengthBytes = first & 0x7F
        guard (1...4).contains(lengthBytes), bytes.count >= 2 + lengthBytes else { return false }
        let length = bytes[2..<(2 + lengthBytes)].reduce(0) { $0 << 8 | Int($1) }
        return 2 + lengthBytes + length == bytes.count
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
