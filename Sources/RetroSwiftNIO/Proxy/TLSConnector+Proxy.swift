#if NIO
    import NIOCore
    import NIOSSL
    import RetroSwift

    extension TLSConnector {
        /// The context of a connection through a proxy to an origin named by its IP address: SwiftNIO SSL would check
        /// the certificate against the address the socket is connected to, the proxy's, so its own check is off here,
        /// and the transport's verification (`ServerIdentityPolicy` with the origin's address) does it instead.
        static let tunnelledAddressContext: Result<NIOSSLContext, any Error> = Result {
            var configuration = TLSConfiguration.makeClientConfiguration()
            configuration.applicationProtocols = ["http/1.1"]
            configuration.certificateVerification = .noHostnameVerification
            return try NIOSSLContext(configuration: configuration)
        }

        /// The same for connections that offer HTTP/2 first.
        static let tunnelledAddressHTTP2Context: Result<NIOSSLContext, any Error> = Result {
            var configuration = TLSConfiguration.makeClientConfiguration()
            configuration.applicationProtocols = ["h2", "http/1.1"]
            configuration.certificateVerification = .noHostnameVerification
            return try NIOSSLContext(configuration: configuration)
        }

        /// The TLS handler of a connection to an `https://` proxy itself, the outer of the two sessions when the origin
        /// is `https` too: the proxy's chain is verified against `proxy.trust` for the proxy's own host (the socket's
        /// peer, so SwiftNIO SSL's own host check holds too), and a refusal is recorded in `verdict`. It offers
        /// `http/1.1` only, the protocol spoken to the proxy, and presents no client certificate: a domain's identity
        /// is the origin's business, never the proxy's.
        ///
        /// - Throws: ``NIOProxyError`` of kind ``NIOProxyError/Kind/unsupported`` where the platform verifies the system's
        ///   roots and pins cannot be checked, rather than connect with less than the trust asks for.
        func makeProxyHandler(for proxy: NIOTransport.Proxy, verdict: TrustVerdict) throws -> NIOSSLClientHandler {
            let context = try Self.sharedContext.get()
            let host = proxy.host
            let isIPAddress = (try? SocketAddress(ipAddress: host, port: 0)) != nil
            let serverName = isIPAddress ? nil : host
            let trust = proxy.trust
            guard let roots = try roots(for: trust) else {
                guard trust.pinnedPublicKeys.isEmpty else {
                    throw NIOProxyError(
                        .unsupported, proxy: proxy.description,
                        reason: "has pins in its trust, which this platform cannot check against the system's authorities")
                }
                return try NIOSSLClientHandler(context: context, serverHostname: serverName)
            }
            return try NIOSSLClientHandler(
                context: context, serverHostname: serverName,
                customVerificationCallbackWithMetadata: Self.verification(
                    host: host, isIPAddress: isIPAddress, roots: roots, trust: trust, verdict: verdict))
        }
    }
#endif
