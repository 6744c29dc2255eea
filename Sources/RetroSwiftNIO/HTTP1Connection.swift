#if NIO
    import NIOCore
    import NIOHTTP1
    import NIOHTTPCompression

    /// One HTTP/1.1 connection of the pool: its channel, and the handler that runs one call at a time on it.
    ///
    /// Everything it is told (``run(_:)``, ``abandon(_:)``, ``becameIdle()``) happens on the channel's event loop, where
    /// its handler lives: at once when the caller is there already, else in one hop.
    final class HTTP1Connection: Sendable {
        let channel: any Channel
        /// The pool's part for its origin, which it is counted in.
        let origin: PooledOrigin
        private let handler: NIOLoopBound<HTTP1ClientHandler>

        /// Where it connects: scheme, host, port and trust.
        var key: OriginKey { origin.key }

        init(channel: any Channel, origin: PooledOrigin, handler: HTTP1ClientHandler) {
            self.channel = channel
            self.origin = origin
            self.handler = NIOLoopBound(handler, eventLoop: channel.eventLoop)
        }

        /// Opens a connection to `origin` on `eventLoop` and reports it once it can take a request (connected, and its TLS
        /// handshake done for `https`), or why it cannot.
        ///
        /// The pipeline, head to tail: TLS (for `https`), the ``ObsFoldUnfoldingHandler`` that unfolds obs-fold in
        /// response heads, NIOHTTP1's request encoder and response decoder, a counter of compressed body bytes,
        /// NIOHTTPCompression's decompressor, and the ``HTTP1ClientHandler`` that runs the calls.
        /// Reads are on demand (`autoRead` off): the handler reads while it waits for a response, while a response's
        /// reader keeps up with it, and while the connection is idle (to see the server close it).
        static func connect(
            to origin: PooledOrigin, on eventLoop: any EventLoop, pool: ConnectionPool,
            completion: @escaping @Sendable (Result<HTTP1Connection, NIOTransportFailure>) -> Void
        ) {
            ConnectionBootstrap.open(to: origin, on: eventLoop, pool: pool, offeringHTTP2: false, completion: completion) {
                pipeline, verdict, report in
                try addHandlers(to: pipeline, origin: origin, pool: pool, verdict: verdict, report: report)
            }
        }

        /// Adds the HTTP/1.1 handlers after TLS, if any: also once ALPN chose `http/1.1` on a connection that offered
        /// `h2` (``HTTP2Connection``).
        static func addHandlers(
            to pipeline: ChannelPipeline.SynchronousOperations, origin: PooledOrigin, pool: ConnectionPool, verdict: TrustVerdict,
            report: @escaping @Sendable (Result<HTTP1Connection, NIOTransportFailure>) -> Void
        ) throws {
            // Before the decoder, whose parser (llhttp) refuses obs-fold that RFC 9112 asks a client to unfold.
            let unfolding = ObsFoldUnfoldingHandler()
            try pipeline.addHandler(unfolding)
            try pipeline.addHTTPClientHandlers()
            let counter = CompressedBodyCounter()
            try pipeline.addHandler(counter)
            // No limit of its own: the call's ratio is enforced by the handler, against the counter, as the
            // decompressed bytes arrive.
            try pipeline.addHandler(NIOHTTPResponseDecompressor(limit: .none))
            try pipeline.addHandler(
                HTTP1ClientHandler(
                    origin: origin, pool: pool, verdict: verdict, compressedBytes: counter, unfolding: unfolding, report: report))
        }

        /// Runs `call` on this connection: the one hop of an ordinary call onto the event loop, as one closure.
        func run(_ call: NIOCall) {
            if channel.eventLoop.inEventLoop {
                handler.value.start(call, on: self)
            } else {
                let handler = handler
                channel.eventLoop.execute { handler.value.start(call, on: self) }
            }
        }

        /// The calling task cancelled `call`: if it is still running here, the connection closes.
        func abandon(_ call: NIOCall) {
            onLoop { $0.abandon(call) }
        }

        /// The pool keeps the connection idle: it watches for the server closing it, until its idle timeout.
        func becameIdle() {
            onLoop { $0.becomeIdle(self) }
        }

        /// Closes the connection; the handler fails whatever runs on it.
        func close() {
            channel.close(promise: nil)
        }

        private func onLoop(_ body: @escaping @Sendable (HTTP1ClientHandler) -> Void) {
            if channel.eventLoop.inEventLoop {
                body(handler.value)
            } else {
                let handler = handler
                channel.eventLoop.execute { body(handler.value) }
            }
        }
    }

    /// Counts the bytes of a response body as they arrive compressed, before the decompressor, so that the handler can
    /// hold a body without a `Content-Length` to the call's decompression ratio too.
    final class CompressedBodyCounter: ChannelInboundHandler, RemovableChannelHandler {
        typealias InboundIn = HTTPClientResponsePart
        typealias InboundOut = HTTPClientResponsePart

        /// The compressed bytes of the current response's body so far.
        private(set) var count = 0

        func channelRead(context: ChannelHandlerContext, data: NIOAny) {
            switch unwrapInboundIn(data) {
            case .head: count = 0
            case .body(let buffer): count += buffer.readableBytes
            case .end: break
            }
            context.fireChannelRead(data)
        }
    }
#endif
