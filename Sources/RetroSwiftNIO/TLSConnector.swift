#if NIO
    import Foundation
    import NIOConcurrencyHelpers
    import NIOCore
    import NIOSSL
    import RetroSwift
    import SwiftASN1
    import X509

    /// Makes the TLS handler of each new `https` connection and verifies the server's chain itself, with
    /// swift-certificates: against the domain's own certificate authorities (`ServerTrust.certificateAuthorities`) or
    /// the system's, for the host connected to, then against the domain's pins, which the *verified* chain (leaf,
    /// intermediates, root) must hold one of. The verified chain is handed to SwiftNIO SSL as the handshake's metadata.
    ///
    /// Every refusal is recorded in the connection's ``TrustVerdict``, so that the failed handshake that follows is
    /// reported as an untrusted server by type, never by reading an error's text.
    final class TLSConnector: Sendable {
        /// One context for every connection: the verification is ours, so no connection needs roots of its own, and
        /// making a context (which loads the system's roots) is costly.
        static let sharedContext: Result<NIOSSLContext, any Error> = Result {
            var configuration = TLSConfiguration.makeClientConfiguration()
            configuration.applicationProtocols = ["http/1.1"]
            return try NIOSSLContext(configuration: configuration)
        }

        /// The same for connections that offer HTTP/2 first (ALPN `h2`, then `http/1.1`).
        private static let sharedHTTP2Context: Result<NIOSSLContext, any Error> = Result {
            var configuration = TLSConfiguration.makeClientConfiguration()
            configuration.applicationProtocols = ["h2", "http/1.1"]
            return try NIOSSLContext(configuration: configuration)
        }

        /// Parsed authorities of the trusts domains asked for, so a connection parses none: a handful per process.
        private let stores = NIOLockedValueBox<[ServerTrust: CertificateStore]>([:])

        /// The contexts that present a domain's client identity, one per identity (and per kind of host check), so a
        /// connection loads no certificate or key: a handful per process.
        private let identityContexts = NIOLockedValueBox<[IdentityContextKey: NIOSSLContext]>([:])

        private struct IdentityContextKey: Hashable {
            let identity: ClientIdentity
            let tunnelledAddress: Bool
            let offeringHTTP2: Bool
        }

        /// What of a `ServerTrust` connections enforce: both on Linux, where the system's roots are read by
        /// swift-certificates; elsewhere a domain trusting the system's roots is verified by the platform, which shows us
        /// no chain to check pins against. A domain's client identity, everywhere (SwiftNIO SSL presents it).
        static var support: ServerTrustSupport {
            #if os(Linux)
                [.certificateAuthorities, .publicKeyPins, .clientIdentity]
            #else
                [.certificateAuthorities, .clientIdentity]
            #endif
        }

        /// The TLS handler for a new connection to `key`'s host, recording a refused chain in `verdict`; offering `h2`
        /// by ALPN before `http/1.1` when `offeringHTTP2`.
        func makeHandler(for key: OriginKey, verdict: TrustVerdict, offeringHTTP2: Bool = false) throws -> NIOSSLClientHandler {
            let context = try self.context(presenting: key.identity, offeringHTTP2: offeringHTTP2)
            let host = key.host
            let isIPAddress = (try? SocketAddress(ipAddress: host, port: 0)) != nil
            // SNI carries names only; an address is checked against the certificate's IP addresses instead.
            let serverName = isIPAddress ? nil : host
            guard let roots = try roots(for: key.trust) else {
                return try NIOSSLClientHandler(context: context, serverHostname: serverName)
            }
            let trust = key.trust
            // Through a proxy the socket's peer is the proxy; the origin's address is checked by `verify` below.
            let checkedContext =
                key.proxy != nil && isIPAddress
                ? try self.context(presenting: key.identity, tunnelledAddress: true, offeringHTTP2: offeringHTTP2) : context
            return try NIOSSLClientHandler(
                context: checkedContext, serverHostname: serverName,
                customVerificationCallbackWithMetadata: Self.verification(
                    host: host, isIPAddress: isIPAddress, roots: roots, trust: trust, verdict: verdict))
        }

        /// The context of a connection that presents `identity` (the shared ones without), checking the host name itself
        /// unless `tunnelledAddress` (see `tunnelledAddressContext`).
        private func context(
            presenting identity: ClientIdentity?, tunnelledAddress: Bool = false, offeringHTTP2: Bool
        ) throws -> NIOSSLContext {
            guard let identity else {
                switch (tunnelledAddress, offeringHTTP2) {
                case (false, false): return try Self.sharedContext.get()
                case (false, true): return try Self.sharedHTTP2Context.get()
                case (true, false): return try Self.tunnelledAddressContext.get()
                case (true, true): return try Self.tunnelledAddressHTTP2Context.get()
                }
            }
            let key = IdentityContextKey(identity: identity, tunnelledAddress: tunnelledAddress, offeringHTTP2: offeringHTTP2)
            if let context = identityContexts.withLockedValue({ $0[key] }) { return context }
            var configuration = TLSConfiguration.makeClientConfiguration()
            configuration.applicationProtocols = offeringHTTP2 ? ["h2", "http/1.1"] : ["http/1.1"]
            if tunnelledAddress { configuration.certificateVerification = .noHostnameVerification }
            let loaded = try Self.load(identity)
            configuration.certificateChain = loaded.chain.map { .certificate($0) }
            configuration.privateKey = .privateKey(loaded.key)
            // A key that does not match its certificate fails here, and the connection with it.
            let context = try NIOSSLContext(configuration: configuration)
            identityContexts.withLockedValue { if $0.count < 16 { $0[key] = context } }
            return context
        }

        /// The certificates and key `identity` presents, read once per process (a handful of identities): its PEM
        /// blocks, or its PKCS #12 archive opened with its passphrase.
        ///
        /// - Throws: SwiftNIO SSL's error when they cannot be read (a wrong passphrase, a damaged archive or key).
        static func load(_ identity: ClientIdentity) throws -> (chain: [NIOSSLCertificate], key: NIOSSLPrivateKey) {
            if let loaded = loadedIdentities.withLockedValue({ $0[identity] }) { return loaded }
            let loaded: (chain: [NIOSSLCertificate], key: NIOSSLPrivateKey)
            switch identity.material {
            case .pem(let chain, let keyPEM):
                loaded = (
                    try chain.map { try NIOSSLCertificate(bytes: Array($0), format: .der) },
                    try NIOSSLPrivateKey(bytes: Array(keyPEM.utf8), format: .pem)
                )
            case .pkcs12(let archive, let passphrase):
                let bundle = try NIOSSLPKCS12Bundle(buffer: Array(archive), passphrase: Array(passphrase.utf8))
                loaded = (bundle.certificateChain, bundle.privateKey)
            }
            loadedIdentities.withLockedValue { if $0.count < 16 { $0[identity] = loaded } }
            return loaded
        }

        private static let loadedIdentities = NIOLockedValueBox<[ClientIdentity: (chain: [NIOSSLCertificate], key: NIOSSLPrivateKey)]>(
            [:])

        /// The roots a chain must lead to: the domain's authorities, or the system's; `nil` where the platform verifies.
        func roots(for trust: ServerTrust?) throws -> CertificateStore? {
            guard let trust, !trust.certificateAuthorities.isEmpty else {
                #if os(Linux)
                    return CertificateStore.systemTrustRoots
                #else
                    return nil
                #endif
            }
            return try stores.withLockedValue { stores in
                if let store = stores[trust] { return store }
                let store = CertificateStore(try trust.certificateAuthorities.map { try Certificate(derEncoded: Array($0)) })
                if stores.count < 16 { stores[trust] = store }
                return store
            }
        }

        /// The check of a presented chain that a TLS handler calls: ``verify(_:host:isIPAddress:roots:trust:)``, its refusal
        /// recorded in `verdict`, run as a task on the handshake's event loop, the connection's.
        ///
        /// swift-certificates verifies in an `async` function; a plain task would wait for a thread of the global
        /// executor, which a busy process (hundreds of tasks ready, two cores) can keep from it past the connect timeout,
        /// and would add two thread hops to each handshake. The loop runs it at once, as SwiftNIO SSL's own checks run.
        static func verification(
            host: String, isIPAddress: Bool, roots: CertificateStore, trust: ServerTrust?, verdict: TrustVerdict
        ) -> NIOSSLCustomVerificationCallbackWithMetadata {
            { presented, promise in
                complete(promise) {
                    let verified = await verify(presented, host: host, isIPAddress: isIPAddress, roots: roots, trust: trust)
                    if case .failed = verified { verdict.refuse() }
                    return verified
                }
            }
        }

        /// Completes `promise` with what `verification` returns, run as a task on the promise's event loop.
        static func complete(
            _ promise: EventLoopPromise<NIOSSLVerificationResultWithMetadata>,
            with verification: @escaping @Sendable () async -> NIOSSLVerificationResultWithMetadata
        ) {
            guard #available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, visionOS 2.0, *) else {
                promise.completeWithTask(verification)
                return
            }
            Task(executorPreference: EventLoopTaskExecutor(promise.futureResult.eventLoop)) {
                promise.succeed(await verification())
            }
        }

        /// Verifies the chain a server presented: a path to `roots` valid now for `host` (RFC 5280 and the server's
        /// identity), holding one of `trust`'s pins when it has any. Returns the verified chain, leaf first.
        static func verify(
            _ presented: [NIOSSLCertificate], host: String, isIPAddress: Bool, roots: CertificateStore, trust: ServerTrust?
        ) async -> NIOSSLVerificationResultWithMetadata {
            do {
                let certificates = try presented.map { try Certificate(derEncoded: try $0.toDERBytes()) }
                guard let leaf = certificates.first else { return .failed }
                var verifier = Verifier(rootCertificates: roots) {
                    RFC5280Policy()
                    ServerIdentityPolicy(serverHostname: isIPAddress ? nil : host, serverIP: isIPAddress ? host : nil)
                }
                let result = await verifier.validate(leaf: leaf, intermediates: CertificateStore(certificates.dropFirst()))
                guard case .validCertificate(let chain) = result else { return .failed }
                var encoded: [[UInt8]] = []
                for certificate in chain {
                    var serializer = DER.Serializer()
                    try serializer.serialize(certificate)
                    encoded.append(serializer.serializedBytes)
                }
                // Pins are checked against what verified, never against what the server merely presented.
                if let trust, !trust.acceptsPins(of: encoded.map { Data($0) }) { return .failed }
                let validated = try encoded.map { try NIOSSLCertificate(bytes: $0, format: .der) }
                return .certificateVerified(VerificationMetadata(ValidatedCertificateChain(validated)))
            } catch {
                return .failed
            }
        }
    }

    /// Whether the verification of one connection's chain refused it; read once its handshake failed.
    final class TrustVerdict: Sendable {
        private let refused = NIOLockedValueBox(false)

        func refuse() {
            refused.withLockedValue { $0 = true }
        }

        var isRefused: Bool {
            refused.withLockedValue { $0 }
        }
    }
#endif
