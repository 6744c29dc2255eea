#if NIO
    import NIOCore
    import NIOSSL
    import NIOTLS

    /// Sits right behind the TLS handler of an `https://` proxy's connection and keeps that session's events to itself:
    /// the handlers behind it (the tunnel's handshake, the origin's TLS, HTTP) wait for the *origin's* handshake, and
    /// would take the proxy's for it. Until the proxy's handshake completes, any failure is the proxy's: a certificate
    /// the proxy's trust refused becomes ``NIOProxyError/Kind/untrustedCertificate``, any other failure
    /// ``NIOProxyError/Kind/unreachable``, so no caller mistakes them for the origin's.
    final class ProxyTLSBoundaryHandler: ChannelInboundHandler {
        typealias InboundIn = ByteBuffer
        typealias InboundOut = ByteBuffer

        private let proxy: NIOTransport.Proxy
        private let verdict: TrustVerdict
        private var secured = false

        /// - Parameters:
        ///   - proxy: The proxy connected to.
        ///   - verdict: Where the proxy's TLS handler records a chain it refused.
        init(proxy: NIOTransport.Proxy, verdict: TrustVerdict) {
            self.proxy = proxy
            self.verdict = verdict
        }

        func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
            guard let tlsEvent = event as? TLSUserEvent else {
                context.fireUserInboundEventTriggered(event)
                return
            }
            if case .handshakeCompleted = tlsEvent { secured = true }
        }

        func errorCaught(context: ChannelHandlerContext, error: any Error) {
            guard !secured, !(error is NIOProxyError) else {
                context.fireErrorCaught(error)
                return
            }
            context.fireErrorCaught(proxyError(error))
        }

        /// The proxy's own failure for an error of its TLS session before the handshake completed.
        private func proxyError(_ error: any Error) -> NIOProxyError {
            let hostRefused = (error as? NIOSSLExtraError) == .failedToValidateHostname
            guard verdict.isRefused || hostRefused else {
                return NIOProxyError(
                    .unreachable, proxy: proxy.description, reason: "failed the TLS handshake with the proxy",
                    underlyingError: error)
            }
            return NIOProxyError(
                .untrustedCertificate, proxy: proxy.description,
                reason: "presented a TLS certificate that its trust does not accept for \(proxy.host) "
                    + "(the proxy's own certificate, not the origin's)",
                underlyingError: error)
        }
    }
#endif
