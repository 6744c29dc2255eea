#if ConformanceTLS
    import Crypto
    import Foundation
    import NIOCore
    import NIOSSL
    import SwiftASN1
    import X509

    extension TestCertificateAuthority {
        /// A client certificate the authority issued, with its key, in the PEM forms `ClientIdentity` takes.
        public struct ClientCertificate: Sendable {
            /// The certificate, PEM-encoded.
            public let certificatePEM: String
            /// Its private key, PEM-encoded (PKCS #8).
            public let privateKeyPEM: String
            /// Its public-key pin, as ``IssuedCertificate/pin``: what a server requiring client certificates reports.
            public let pin: String
        }

        /// Issues a client certificate (extended key usage `clientAuth`) named `name`, with a new key.
        ///
        /// - Parameter name: The client's common name.
        /// - Returns: The certificate and its key.
        /// - Throws: swift-certificates' error when the certificate cannot be made.
        public func issueClientCertificate(named name: String) throws -> ClientCertificate {
            let clientKey = P256.Signing.PrivateKey()
            let client = try Certificate(
                version: .v3, serialNumber: Certificate.SerialNumber(), publicKey: .init(clientKey.publicKey),
                notValidBefore: Date() - 3600, notValidAfter: Date() + 86_400, issuer: certificate.subject,
                subject: try DistinguishedName { CommonName(name) }, signatureAlgorithm: .ecdsaWithSHA256,
                extensions: try Certificate.Extensions {
                    Critical(BasicConstraints.notCertificateAuthority)
                    Critical(KeyUsage(digitalSignature: true))
                    try ExtendedKeyUsage([.clientAuth])
                },
                issuerPrivateKey: .init(key))
            return ClientCertificate(
                certificatePEM: try client.serializeAsPEM().pemString, privateKeyPEM: clientKey.pemRepresentation,
                pin: try Self.clientPin(of: client))
        }

        /// The base64 SHA-256 digest of `certificate`'s `SubjectPublicKeyInfo`.
        fileprivate static func clientPin(of certificate: Certificate) throws -> String {
            var serializer = DER.Serializer()
            try serializer.serialize(certificate.publicKey)
            return Data(SHA256.hash(data: serializer.serializedBytes)).base64EncodedString()
        }
    }

    extension TestCertificateAuthority.IssuedCertificate {
        /// TLS for a ``TestServer`` that presents this certificate and requires a client certificate that `clients`
        /// issued: a handshake without one, or with another authority's, fails, and no request is read on it.
        ///
        /// - Parameters:
        ///   - clients: The authority client certificates must be issued by.
        ///   - onClientCertificate: Called with the pin of each client certificate presented (the first of the chain),
        ///     before it is checked.
        /// - Returns: The installer of SwiftNIO SSL's server handler.
        /// - Throws: SwiftNIO SSL's error when the certificate or key cannot be loaded.
        public func serverTLS(
            requiringClientCertificatesFrom clients: TestCertificateAuthority,
            onClientCertificate: @escaping @Sendable (_ pin: String) -> Void
        ) throws -> TestServer.TLSInstaller {
            // Asks for a certificate and fails a handshake that brings none; the callback decides which are good.
            try serverTLS(clients: clients, verification: .noHostnameVerification, onClientCertificate: onClientCertificate)
        }

        /// TLS for a ``TestServer`` that presents this certificate and asks for a client certificate without requiring
        /// one: a handshake without one succeeds, one with a certificate `clients` did not issue fails.
        ///
        /// - Parameters:
        ///   - clients: The authority a client certificate, when presented, must be issued by.
        ///   - onClientCertificate: Called with the pin of each client certificate presented (the first of the chain),
        ///     before it is checked; never for a handshake that presents none.
        /// - Returns: The installer of SwiftNIO SSL's server handler.
        /// - Throws: SwiftNIO SSL's error when the certificate or key cannot be loaded.
        public func serverTLS(
            acceptingClientCertificatesFrom clients: TestCertificateAuthority,
            onClientCertificate: @escaping @Sendable (_ pin: String) -> Void
        ) throws -> TestServer.TLSInstaller {
            try serverTLS(clients: clients, verification: .optionalVerification, onClientCertificate: onClientCertificate)
        }

        private func serverTLS(
            clients: TestCertificateAuthority, verification: CertificateVerification,
            onClientCertificate: @escaping @Sendable (_ pin: String) -> Void
        ) throws -> TestServer.TLSInstaller {
            var configuration = TLSConfiguration.makeServerConfiguration(
                certificateChain: [.certificate(try NIOSSLCertificate(bytes: Array(der), format: .der))],
                privateKey: .privateKey(try NIOSSLPrivateKey(bytes: Array(key.pemRepresentation.utf8), format: .pem)))
            configuration.certificateVerification = verification
            let context = try NIOSSLContext(configuration: configuration)
            let issuer = clients.certificate
            return { pipeline in
                try pipeline.addHandler(
                    NIOSSLServerHandler(context: context) { presented, promise in
                        // Issued by `clients`, and valid now: all a test needs to tell one client from another.
                        guard let first = presented.first, let leaf = try? Certificate(derEncoded: try first.toDERBytes()),
                            let pin = try? TestCertificateAuthority.clientPin(of: leaf)
                        else { return promise.succeed(.failed) }
                        onClientCertificate(pin)
                        let valid =
                            leaf.issuer == issuer.subject && issuer.publicKey.isValidSignature(leaf.signature, for: leaf)
                            && (leaf.notValidBefore...leaf.notValidAfter).contains(Date())
                        promise.succeed(valid ? .certificateVerified : .failed)
                    })
            }
        }
    }
#endif
