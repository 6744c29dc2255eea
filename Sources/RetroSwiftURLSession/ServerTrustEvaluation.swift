#if canImport(Security) && !canImport(FoundationNetworking)
    import Foundation
    import RetroSwift
    import Security

    /// Decides a server-trust challenge by a domain's ``ServerTrust``, on Apple platforms.
    enum ServerTrustEvaluation {
        /// Whether the chain in `trust`, presented for `host`, passes `serverTrust`: it verifies (validity, the host
        /// name, and a path to one of its certificate authorities, or to the system's when it has none), and then
        /// holds one of its pinned public keys.
        ///
        /// - Parameters:
        ///   - trust: The chain the server presented.
        ///   - host: The host the call connected to.
        ///   - serverTrust: The domain's trust.
        /// - Returns: Whether the connection may be used.
        static func accepts(_ trust: SecTrust, host: String, by serverTrust: ServerTrust) -> Bool {
            // An IPv6 literal is matched against the certificate's IP addresses as the bare address, without brackets.
            let name = host.hasPrefix("[") && host.hasSuffix("]") ? String(host.dropFirst().dropLast()) : host
            guard SecTrustSetPolicies(trust, SecPolicyCreateSSL(true, name as CFString)) == errSecSuccess else { return false }
            if !serverTrust.certificateAuthorities.isEmpty {
                let anchors = serverTrust.certificateAuthorities.compactMap { SecCertificateCreateWithData(nil, $0 as CFData) }
                guard anchors.count == serverTrust.certificateAuthorities.count,
                    SecTrustSetAnchorCertificates(trust, anchors as CFArray) == errSecSuccess,
                    SecTrustSetAnchorCertificatesOnly(trust, true) == errSecSuccess
                else { return false }
            }
            guard SecTrustEvaluateWithError(trust, nil) else { return false }
            let chain = SecTrustCopyCertificateChain(trust) as? [SecCertificate] ?? []
            return serverTrust.acceptsPins(of: chain.map { SecCertificateCopyData($0) as Data })
        }
    }
#endif
