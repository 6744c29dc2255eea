#if NIO
    import NIOConcurrencyHelpers
    import NIOCore
    import NIOPosix

    /// What every new connection of the pool shares, whatever protocol it will speak: one report of its outcome, a socket
    /// without Nagle's delay that reads on demand, the connect timeout, the tunnel through the origin's proxy if any, and
    /// TLS for `https` origins with the chain verified by ``TLSConnector``.
    enum ConnectionBootstrap {
        /// Connects to `origin` on `eventLoop` and reports, once, what the handlers behind TLS report, or why the
        /// connection could not be made.
        ///
        /// - Parameters:
        ///   - origin: The pool's part for the origin.
        ///   - eventLoop: The loop the connection lives on.
        ///   - pool: The pool, whose settings and ``TLSConnector`` it uses.
        ///   - offeringHTTP2: Whether TLS offers `h2` by ALPN before `http/1.1`.
        ///   - completion: Called once, with the connection or its failure.
        ///   - addHandlers: Adds the protocol's handlers behind TLS, given the connection's ``TrustVerdict`` and the
        ///     report to call once it can take a call.
        static func open<Connection>(
            to origin: PooledOrigin, on eventLoop: any EventLoop, pool: ConnectionPool, offeringHTTP2: Bool,
            completion: @escaping @Sendable (Result<Connection, NIOTransportFailure>) -> Void,
            addHandlers:
                @escaping @Sendable (
                    ChannelPipeline.SynchronousOperations, TrustVerdict,
                    @escaping @Sendable (Result<Connection, NIOTransportFailure>) -> Void
                ) throws -> Void
        ) {
            let reported = NIOLockedValueBox(false)
            let report: @Sendable (Result<Connection, NIOTransportFailure>) -> Void = { result in
                let first = reported.withLockedValue { reported in
                    defer { reported = true }
                    return !reported
                }
                if first { completion(result) }
            }
            let key = origin.key
            let verdict = TrustVerdict()
            let bootstrap = ClientBootstrap(group: eventLoop)
                .channelOption(.socketOption(.tcp_nodelay), value: 1)
                // On demand: an HTTP/1.1 connection reads while a call wants bytes; HTTP/2 turns it on once negotiated.
                .channelOption(.autoRead, value: false)
                .connectTimeout(pool.settings.connectTimeout)
                .channelInitializer { channel in
                    channel.eventLoop.makeCompletedFuture {
                        let pipeline = channel.pipeline.syncOperations
                        try ProxyRoute.addHandshake(to: pipeline, for: key, timeout: pool.settings.connectTimeout, tls: pool.tls)
                        if key.isTLS {
                            try pipeline.addHandler(try pool.tls.makeHandler(for: key, verdict: verdict, offeringHTTP2: offeringHTTP2))
                        }
                        try addHandlers(pipeline, verdict, report)
                    }
                }
            ProxyRoute.connect(bootstrap, for: key) { report(.failure($0)) }
        }
    }
#endif
