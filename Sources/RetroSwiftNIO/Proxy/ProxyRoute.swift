#if NIO
    import NIOCore
    import NIOPosix
    import NIOHTTP1

    /// How a call goes through its proxy: tunnelled (`CONNECT` or SOCKS5), or forwarded (an `http` request in absolute
    /// form, to an HTTP proxy).
    enum ProxyRoute {
        /// Whether connections to `key` through `proxy` open a tunnel first: always to `https` origins and through SOCKS5,
        /// and to `http` origins when the proxy is asked to.
        static func tunnels(_ key: OriginKey, through proxy: NIOTransport.Proxy) -> Bool {
            key.isTLS || proxy.kind == .socks5 || proxy.tunnelsPlainHTTP
        }

        /// Puts what the connection to `key`'s proxy needs first in a new connection's pipeline: TLS to the proxy itself
        /// when it is an `https://` proxy (everything after runs inside that session, a forwarded request or the tunnel,
        /// and an `https` origin's own TLS inside the tunnel), then the proxy's handshake when the connection is a
        /// tunnel: it holds back `channelActive` until the tunnel is open, so TLS and HTTP (1.1 or 2) behind it start on
        /// the origin.
        static func addHandshake(
            to pipeline: ChannelPipeline.SynchronousOperations, for key: OriginKey, timeout: TimeAmount, tls: TLSConnector
        ) throws {
            guard let proxy = key.proxy else { return }
            if proxy.kind == .https {
                let verdict = TrustVerdict()
                try pipeline.addHandler(try tls.makeProxyHandler(for: proxy, verdict: verdict))
                try pipeline.addHandler(ProxyTLSBoundaryHandler(proxy: proxy, verdict: verdict))
            }
            guard tunnels(key, through: proxy) else { return }
            try pipeline.addHandler(ProxyHandshakeHandler(proxy: proxy, host: key.host, port: key.port, timeout: timeout))
        }

        /// Connects `bootstrap` to `key`'s proxy, or to its origin when it has none, and reports a connection that
        /// could not be made: a proxy's failure as the proxy's, never the origin's.
        static func connect(
            _ bootstrap: ClientBootstrap, for key: OriginKey, failed: @escaping @Sendable (NIOTransportFailure) -> Void
        ) {
            // An IPv6 address comes without its brackets (RequestTarget).
            guard let proxy = key.proxy else {
                bootstrap.connect(host: key.host, port: key.port).whenFailure { error in
                    failed(NIOTransportFailure.classify(error, connecting: true))
                }
                return
            }
            bootstrap.connect(host: proxy.host, port: proxy.port).whenFailure { error in
                failed(connectFailure(error, to: proxy))
            }
        }

        /// Makes the request ready for its route: a forwarded one names its origin in the request line and carries the
        /// proxy's credentials; a tunnelled one carries no `Proxy-Authorization` at all, since everything in the tunnel
        /// reaches the origin.
        static func prepare(
            _ headers: inout HTTPHeaders, _ requestTarget: inout String, of target: RequestTarget,
            through proxy: NIOTransport.Proxy
        ) {
            guard forwards(target, through: proxy) != nil else {
                headers.remove(name: "Proxy-Authorization")
                return
            }
            requestTarget = "http://" + target.hostField + target.path
            if let authorization = proxy.basicAuthorization {
                headers.replaceOrAdd(name: "Proxy-Authorization", value: authorization)
            }
        }

        /// `proxy` when the request to `target` is forwarded to it (an `http` origin, through an HTTP proxy, over TLS or
        /// not, that is not asked to tunnel), else `nil`.
        static func forwards(_ target: RequestTarget, through proxy: NIOTransport.Proxy) -> NIOTransport.Proxy? {
            !target.isTLS && proxy.kind != .socks5 && !proxy.tunnelsPlainHTTP ? proxy : nil
        }

        /// Refuses a forward proxy's `407`: the proxy asks for credentials, and the origin never saw the request.
        static func checkForwardedHead(_ head: HTTPResponseHead, from proxy: NIOTransport.Proxy) throws {
            guard head.status.code == 407 else { return }
            throw NIOProxyError(
                .authenticationRequired, proxy: proxy.description, status: 407,
                reason: "asked for credentials (407 \(head.status.reasonPhrase))"
                    + (proxy.username == nil ? ": none are configured" : ": it refused those configured"))
        }

        /// The failure of a connection to the proxy itself: the proxy's, never the origin's.
        static func connectFailure(_ error: any Error, to proxy: NIOTransport.Proxy) -> NIOTransportFailure {
            let reason: String
            if let channelError = error as? ChannelError, case .connectTimeout = channelError {
                reason = "did not accept the connection within the connect timeout"
            } else {
                reason = "could not be reached"
            }
            return .proxy(NIOProxyError(.unreachable, proxy: proxy.description, reason: reason, underlyingError: error))
        }
    }
#endif
