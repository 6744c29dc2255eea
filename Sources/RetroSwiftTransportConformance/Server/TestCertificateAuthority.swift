#if ConformanceTLS
    import Crypto
    import Foundation
    import NIOCore
    import NIOSSL
    import SwiftASN1
    import X509

    /// A certificate authority made when a test runs, and the server certificates it issues, for ``TestServer``s that
    /// speak `https`: nothing secret is ever committed, and every run has keys of its own.
    public struct TestCertificateAuthority: Sendable {
        /// The hosts a server certificate is for.
        public enum Names: Sendable {
            /// The address test servers listen on, 127.0.0.1 (an IP address subject alternative name).
            case loopback
            /// The IPv6 loopback address, ::1 (an IP address subject alternative name).
            case ipv6Loopback
            /// The name `localhost` (a DNS name subject alternative name).
            case localhost
            /// Another host than the one tests connect to, `elsewhere.invalid`.
            case elsewhere

            /// The subject alternative name.
            fileprivate var generalName: GeneralName {
                switch self {
                case .loopback: .ipAddress(ASN1OctetString(contentBytes: [127, 0, 0, 1]))
                case .ipv6Loopback: .ipAddress(ASN1OctetString(contentBytes: Array(repeating: 0, count: 15) + [1]))
                case .localhost: .dnsName("localhost")
                case .elsewhere: .dnsName("elsewhere.invalid")
                }
            }
        }

        /// A server certificate the authority issued, with its key.
        public struct IssuedCertificate: Sendable {
            /// The certificate, DER-encoded.
            public let der: Data
            /// Its public-key pin: the base64 SHA-256 digest of its `SubjectPublicKeyInfo`, computed with
            /// swift-certificates and swift-crypto (independently of RetroSwift's own reading of certificates).
            public let pin: String
            let certificate: Certificate
            let key: P256.Signing.PrivateKey

            /// TLS for a ``TestServer`` that presents this certificate: pass it as `start(tls:)`.
            ///
            /// - Parameter onHello: Called with the server name of each client hello (its SNI extension, RFC 6066 §3),
            ///   `nil` for a hello that names none, before the handshake goes on; `nil` (the default) to record nothing.
            /// - Returns: The installer of SwiftNIO SSL's server handler.
            /// - Throws: SwiftNIO SSL's error when the certificate or key cannot be loaded.
            public func serverTLS(onHello: (@Sendable (_ serverName: String?) -> Void)? = nil) throws -> TestServer.TLSInstaller {
                var configuration = TLSConfiguration.makeServerConfiguration(
                    certificateChain: [.certificate(try NIOSSLCertificate(bytes: Array(der), format: .der))],
                    privateKey: .privateKey(try NIOSSLPrivateKey(bytes: Array(key.pemRepresentation.utf8), format: .pem)))
                #if ConformanceHTTP2
                    // Under the suite's HTTP/2 dimensions the server offers h2 by ALPN (TestServer+HTTP2.swift).
                    if TestServer.protocolUnderTest != .http1_1 { configuration.applicationProtocols = ["h2", "http/1.1"] }
                #endif
                if let onHello {
                    // SwiftNIO SSL calls it once per hello, with the name read from it, whether or not the hello has one.
                    configuration.sslContextCallback = { values, promise in
                        onHello(values.serverHostname)
                        promise.succeed(.noChanges)
                    }
                }
                let context = try NIOSSLContext(configuration: configuration)
                return { pipeline in try pipeline.addHandler(NIOSSLServerHandler(context: context)) }
            }
        }

        // Internal: client certificates are issued in TestClientCertificates.swift.
        let certificate: Certificate
        let key: P256.Signing.PrivateKey

        /// The authority's certificate, DER-encoded, as `ServerTrust` takes it.
        public let der: Data
        /// The authority's certificate in PEM.
        public let pem: String
        /// The authority's public-key pin.
        public let pin: String

        /// Makes a self-signed authority named `name` with a new P-256 key, valid from an hour ago for a day.
        ///
        /// - Parameter name: The authority's common name.
        /// - Throws: swift-certificates' error when the certificate cannot be made.
        public init(name: String) throws {
            key = P256.Signing.PrivateKey()
            let subject = try DistinguishedName { CommonName(name) }
            certificate = try Certificate(
                version: .v3, serialNumber: Certificate.SerialNumber(), publicKey: .init(key.publicKey),
                notValidBefore: Date() - 3600, notValidAfter: Date() + 86_400, issuer: subject, subject: subject,
                signatureAlgorithm: .ecdsaWithSHA256,
                extensions: try Certificate.Extensions {
                    Critical(BasicConstraints.isCertificateAuthority(maxPathLength: 0))
                    Critical(KeyUsage(keyCertSign: true, cRLSign: true))
                },
                issuerPrivateKey: .init(key))
            let document = try certificate.serializeAsPEM()
            der = Data(document.derBytes)
            pem = document.pemString
            pin = try Self.pin(of: certificate)
        }

        /// Issues a server certificate for `names`, with a new key.
        ///
        /// - Parameter names: The hosts the certificate is for, each a subject alternative name.
        /// - Returns: The certificate and its key.
        /// - Throws: swift-certificates' error when the certificate cannot be made.
        public func issue(for names: Names...) throws -> IssuedCertificate {
            let leafKey = P256.Signing.PrivateKey()
            let leaf = try Certificate(
                version: .v3, serialNumber: Certificate.SerialNumber(), publicKey: .init(leafKey.publicKey),
                notValidBefore: Date() - 3600, notValidAfter: Date() + 86_400, issuer: certificate.subject,
                subject: try DistinguishedName { CommonName("RetroSwift test server") }, signatureAlgorithm: .ecdsaWithSHA256,
                extensions: try Certificate.Extensions {
                    Critical(BasicConstraints.notCertificateAuthority)
                    Critical(KeyUsage(digitalSignature: true))
                    try ExtendedKeyUsage([.serverAuth])
                    SubjectAlternativeNames(names.map(\.generalName))
                },
                issuerPrivateKey: .init(key))
            return IssuedCertificate(
                der: Data(try leaf.serializeAsPEM().derBytes), pin: try Self.pin(of: leaf), certificate: leaf, key: leafKey)
        }

        /// The base64 SHA-256 digest of `certificate`'s `SubjectPublicKeyInfo`, as swift-certificates encodes it.
        private static func pin(of certificate: Certificate) throws -> String {
            var serializer = DER.Serializer()
            try serializer.serialize(certificate.publicKey)
            return Data(SHA256.hash(data: serializer.serializedBytes)).base64EncodedString()
        }
    }
#endif
