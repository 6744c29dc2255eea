#if canImport(Security) && !canImport(FoundationNetworking)
    import Foundation
    import RetroSwift
    import Security

    /// The credential that answers a client-certificate challenge with a domain's ``ClientIdentity``, on Apple
    /// platforms: the identity and chain `SecPKCS12Import` reads from its archive.
    enum ClientIdentityCredential {
        /// The credential presenting `identity`, made once per identity (an app has a handful).
        ///
        /// - Parameters:
        ///   - identity: The domain's identity; the core hands this transport only one made from a PKCS #12 archive.
        ///   - params: The call, named by the errors.
        /// - Returns: A credential for the session, holding the identity and the certificates after the client's own.
        /// - Throws: ``RequestError`` of kind ``RequestError/Kind/invalidValue`` naming `clientIdentity` when the archive
        ///   does not open (a wrong passphrase) or holds no identity; of kind
        ///   ``RequestError/Kind/serverTrustUnsupported`` for one made from PEM.
        static func credential(presenting identity: ClientIdentity, for params: HttpRequestParams) throws -> URLCredential {
            if let made = made.withLock({ $0[identity] }) { return made }
            guard case .pkcs12(let archive, let passphrase) = identity.material else {
                throw RequestError(
                    .serverTrustUnsupported, endpoint: params.endpoint,
                    reason: "the domain's ClientIdentity is made from PEM, which URLSession cannot present; make it with "
                        + "ClientIdentity(pkcs12:passphrase:); nothing was sent")
            }
            var items: CFArray?
            let status = SecPKCS12Import(
                archive as CFData, [kSecImportExportPassphrase as String: passphrase] as CFDictionary, &items)
            guard status == errSecSuccess else {
                throw RequestError.unreadableClientIdentity(
                    of: params, NSError(domain: NSOSStatusErrorDomain, code: Int(status)))
            }
            guard let first = (items as? [[String: Any]])?.first, let found = first[kSecImportItemIdentity as String],
                CFGetTypeID(found as CFTypeRef) == SecIdentityGetTypeID()
            else {
                throw RequestError.unreadableClientIdentity(
                    of: params, NSError(domain: NSOSStatusErrorDomain, code: Int(errSecItemNotFound)))
            }
            // Checked just above to be a SecIdentity: a CoreFoundation type, whose cast is not checked at run time.
            let secIdentity = found as! SecIdentity
            // The chain the archive holds, the client's own certificate first; the credential takes the others.
            let chain = first[kSecImportItemCertChain as String] as? [SecCertificate] ?? []
            let credential = URLCredential(identity: secIdentity, certificates: Array(chain.dropFirst()), persistence: .forSession)
            made.withLock { if $0.count < 16 { $0[identity] = credential } }
            return credential
        }

        private static let made = Locked<[ClientIdentity: URLCredential]>([:])
    }
#endif
