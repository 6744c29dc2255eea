#if NIO
    import NIOConcurrencyHelpers
    import NIOCore
    import NIOHTTP1
    import NIOHTTP2
    import NIOHTTPCompression
    import NIOTLS

    /// What a connection that could speak HTTP/2 turned out to speak.
    enum NegotiatedConnection {
        /// ALPN chose `http/1.1` (or nothing): the connection runs one call at a time, as any HTTP/1.1 one.
        case http1(HTTP1Connection)
        /// HTTP/2, by ALPN or prior knowledge: the connection carries one call per stream.
        case http2(HTTP2Connection)
    }

    /// One HTTP/2 connection of the pool: its channel with swift-nio-http2's handler and inline stream multiplexer, on
    /// which each call runs on a stream of its own. Each stream's channel turns HTTP/2 frames into HTTP/1-style parts
    /// (`HTTP2FramePayloadToHTTP1ClientCodec`), so the same ``HTTP1ClientHandler`` runs the call there as on an HTTP/1.1
    /// connection: its timeouts, bodies, streams, files and limits.
    ///
    /// The pool counts its streams (ConnectionPoolStateMachine); everything here is immutable, loop-bound or locked.
    final class HTTP2Connection: Sendable {
        let channel: any Channel
        /// Its origin, and its name in the pool.
        let origin: PooledOrigin
        private let pool: ConnectionPool
        private let multiplexer: NIOLoopBound<NIOHTTP2Handler.StreamMultiplexer>
        /// The last stream id of the GOAWAY the server sent, if any: streams above it were never processed.
        private let goAwayLastStreamID = NIOLockedValueBox<HTTP2StreamID?>(nil)
        /// Closes the connection once it has run no stream for the idle timeout.
        private let idleTimer = NIOLockedValueBox<Scheduled<Void>?>(nil)

        /// The streams a connection being opened is taken to carry until its server's SETTINGS say (RFC 9113 §6.5.2
        /// recommends no fewer than 100).
        static let assumedStreams = 100

        /// The server's first `SETTINGS_MAX_CONCURRENT_STREAMS`; 100 when it sets none. Later SETTINGS go to the pool.
        let maxStreams: Int

        init(
            channel: any Channel, origin: PooledOrigin, pool: ConnectionPool, multiplexer: NIOHTTP2Handler.StreamMultiplexer,
            maxStreams: Int
        ) {
            self.channel = channel
            self.origin = origin
            self.pool = pool
            self.multiplexer = NIOLoopBound(multiplexer, eventLoop: channel.eventLoop)
            self.maxStreams = maxStreams
        }

        /// Opens a connection to `origin` that speaks HTTP/2 if it can: over TLS it offers `h2` then `http/1.1` by ALPN
        /// and speaks what the server chose; to an `http://` origin it speaks HTTP/2 with prior knowledge. Through a proxy
        /// it does so inside the tunnel (the pool never asks for HTTP/2 on a forwarded route). Reports the
        /// connection once it can take a call (for HTTP/2, once the server's first SETTINGS came), or why it cannot.
        static func connect(
            to origin: PooledOrigin, on eventLoop: any EventLoop, pool: ConnectionPool,
            completion: @escaping @Sendable (Result<NegotiatedConnection, NIOTransportFailure>) -> Void
        ) {
            ConnectionBootstrap.open(to: origin, on: eventLoop, pool: pool, offeringHTTP2: true, completion: completion) {
                pipeline, verdict, report in
                try pipeline.addHandler(ProtocolNegotiationHandler(origin: origin, pool: pool, verdict: verdict, report: report))
            }
        }

        /// Runs `call` on a new stream; the pool counted it already.
        func startStream(_ call: NIOCall) {
            if channel.eventLoop.inEventLoop {
                openStream(call)
            } else {
                channel.eventLoop.execute { self.openStream(call) }
            }
        }

        private func openStream(_ call: NIOCall) {
            idleTimer.withLockedValue { timer in
                timer?.cancel()
                timer = nil
            }
            let key = origin.key
            let origin = origin
            let pool = pool
            let promise = channel.eventLoop.makePromise(of: (any Channel).self)
            let slot = StreamSlot { [self] in pool.streamClosed(on: self) }
            multiplexer.value.createStreamChannel(promise: promise) { [self] stream in
                stream.eventLoop.makeCompletedFuture {
                    // The handler reads as its reader keeps up: an unread stream holds its own window only.
                    try stream.syncOptions?.setOption(ChannelOptions.autoRead, value: false)
                    let pipeline = stream.pipeline.syncOperations
                    let fault = pool.settings.http2Fault
                    if fault == .sendsConnectionFields { try pipeline.addHandler(ConnectionFieldAddingHandler()) }
                    // Fields specific to a connection (Connection, Keep-Alive, Transfer-Encoding, Upgrade…) are
                    // dropped by the codec's normalization (RFC 9113 §8.2.2), and Host becomes :authority.
                    try pipeline.addHandler(HTTP2FramePayloadToHTTP1ClientCodec(httpProtocol: key.isTLS ? .https : .http))
                    if fault == .failsOnTrailers { try pipeline.addHandler(TrailerRefusingHandler()) }
                    let counter = CompressedBodyCounter()
                    try pipeline.addHandler(counter)
                    try pipeline.addHandler(NIOHTTPResponseDecompressor(limit: .none))
                    try pipeline.addHandler(
                        HTTP1ClientHandler(
                            origin: origin, pool: pool, verdict: TrustVerdict(), compressedBytes: counter, unfolding: nil,
                            stream: self, slot: slot,
                            report: { result in
                                if case .success(let stream) = result { stream.run(call) }
                            }))
                }
            }
            promise.futureResult.whenComplete { result in
                switch result {
                case .success(let stream):
                    stream.closeFuture.whenComplete { _ in slot.release() }
                case .failure(let error):
                    slot.release()
                    // Nothing of it was written: it may go again, on another connection.
                    if call.prepareRetry(neverProcessed: true) {
                        pool.lease(call)
                    } else {
                        call.finish(.failure(NIOTransportFailure.connectionLost(error)))
                    }
                }
            }
        }

        /// The server sent GOAWAY with `lastStreamID`.
        func receivedGoAway(lastStreamID: HTTP2StreamID) {
            goAwayLastStreamID.withLockedValue { $0 = min($0 ?? lastStreamID, lastStreamID) }
        }

        /// Whether `error`, which closed a stream before any byte of its answer, says the server processed nothing of
        /// it: the stream was refused (`REFUSED_STREAM`), or is above a GOAWAY's last stream id (RFC 9113 §6.8, §8.7).
        func wasNeverProcessed(_ error: any Error) -> Bool {
            guard pool.settings.resendsUnprocessedStreams, let closed = error as? NIOHTTP2Errors.StreamClosed else { return false }
            if closed.errorCode == .refusedStream { return true }
            guard let last = goAwayLastStreamID.withLockedValue({ $0 }) else { return false }
            return closed.streamID > last
        }

        /// Whether `stream`, which closed before any byte of its answer without an error of its own, was above the last
        /// stream id of the server's GOAWAY (RFC 9113 §6.8): the server processed nothing of it. swift-nio-http2 closes
        /// such streams without an error when the server then ends the connection, as nginx does after
        /// `keepalive_requests` streams.
        func wasNeverProcessed(closedStream stream: any Channel) -> Bool {
            guard pool.settings.resendsUnprocessedStreams else { return false }
            // A stream given no id sent no HEADERS: swift-nio-http2 refused it (a GOAWAY had come in the meantime).
            guard let id = try? stream.syncOptions?.getOption(HTTP2StreamChannelOptions.streamID) else { return true }
            guard let last = goAwayLastStreamID.withLockedValue({ $0 }) else { return false }
            return id > last
        }

        /// The connection runs no stream: it closes after the idle timeout unless a call comes first.
        func becameIdle() {
            let timer = channel.eventLoop.scheduleTask(in: pool.settings.idleTimeout) { [self] in
                pool.closeIfIdle(self)
            }
            idleTimer.withLockedValue { old in
                old?.cancel()
                old = timer
            }
        }

        /// Closes the connection; its streams fail.
        func close() {
            idleTimer.withLockedValue { $0?.cancel() }
            channel.close(promise: nil)
        }
    }

    /// One stream's place among its connection's concurrent streams, given back once: when its exchange ended (before
    /// the caller is answered, so that a call it makes next finds the place free), or else when its channel closed.
    final class StreamSlot: Sendable {
        private let released = NIOLockedValueBox(false)
        private let onRelease: @Sendable () -> Void

        init(onRelease: @escaping @Sendable () -> Void) {
            self.onRelease = onRelease
        }

        func release() {
            let first = released.withLockedValue { released in
                defer { released = true }
                return !released
            }
            if first { onRelease() }
        }
    }

    /// Waits for the TLS handshake (ALPN's choice) and sets the connection up for HTTP/2 or HTTP/1.1, or, without TLS,
    /// for HTTP/2 with prior knowledge at once; then leaves the pipeline.
    private final class ProtocolNegotiationHandler: ChannelInboundHandler, RemovableChannelHandler {
        typealias InboundIn = NIOAny

        private let origin: PooledOrigin
        private let pool: ConnectionPool
        private let verdict: TrustVerdict
        private let report: @Sendable (Result<NegotiatedConnection, NIOTransportFailure>) -> Void
        private var timer: Scheduled<Void>?
        private var done = false

        init(
            origin: PooledOrigin, pool: ConnectionPool, verdict: TrustVerdict,
            report: @escaping @Sendable (Result<NegotiatedConnection, NIOTransportFailure>) -> Void
        ) {
            self.origin = origin
            self.pool = pool
            self.verdict = verdict
            self.report = report
        }

        func channelActive(context: ChannelHandlerContext) {
            guard origin.key.isTLS else {
                startHTTP2(context: context)
                return
            }
            // The connect timeout bounds the handshake too; this read begins it.
            let timer = context.eventLoop.assumeIsolated().scheduleTask(in: pool.settings.connectTimeout) { [self] in
                fail(.timedOut, context: context)
            }
            self.timer = timer
            context.read()
        }

        func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
            guard !done, let tlsEvent = event as? TLSUserEvent, case .handshakeCompleted(let chosen) = tlsEvent else {
                context.fireUserInboundEventTriggered(event)
                return
            }
            timer?.cancel()
            if chosen == "h2" {
                startHTTP2(context: context)
            } else {
                startHTTP1(context: context, event: event)
            }
        }

        func errorCaught(context: ChannelHandlerContext, error: any Error) {
            fail(verdict.isRefused ? .untrustedServer : NIOTransportFailure.classify(error, connecting: true), context: context)
        }

        func channelInactive(context: ChannelHandlerContext) {
            fail(.connectionLost(ChannelError.eof), context: context)
            context.fireChannelInactive()
        }

        private func fail(_ failure: NIOTransportFailure, context: ChannelHandlerContext) {
            guard !done else { return }
            done = true
            timer?.cancel()
            report(.failure(verdict.isRefused ? .untrustedServer : failure))
            context.close(promise: nil)
        }

        /// swift-nio-http2's defaults but for RST_STREAM: a server may end each stream it answered before reading the
        /// whole request with RST_STREAM NO_ERROR (RFC 9113 §8.1; nginx does for every POST it answers unread), and the
        /// default limit, meant for servers under a rapid-reset flood (200 in 30 s), would end the connection with a
        /// protocol error after 200 such calls. A client chose its server; it allows 1,000 per 50 ms (20,000 a second,
        /// more than a connection carries here), a bound that keeps the counter at 8 KB.
        private static let streamConfiguration: NIOHTTP2Handler.StreamConfiguration = {
            var configuration = NIOHTTP2Handler.StreamConfiguration()
            configuration.streamResetFrameRateLimit.maximumCount = 1_000
            configuration.streamResetFrameRateLimit.windowLength = .milliseconds(50)
            return configuration
        }()

        private func startHTTP2(context: ChannelHandlerContext) {
            done = true
            do {
                let pipeline = context.pipeline.syncOperations
                var configuration = NIOHTTP2Handler.ConnectionConfiguration()
                // No server push: a client that never asked for pushed responses says so in its SETTINGS.
                configuration.initialSettings = nioDefaultSettings + [HTTP2Setting(parameter: .enablePush, value: 0)]
                switch pool.settings.http2Fault {
                case .allowsPush: configuration.initialSettings = nioDefaultSettings
                case .refusesContinuation: configuration.maximumSequentialContinuationFrames = 0
                default: break
                }
                let multiplexer = try pipeline.configureHTTP2Pipeline(
                    mode: .client, connectionConfiguration: configuration, streamConfiguration: Self.streamConfiguration,
                    inboundStreamInitializer: { $0.close() })
                try pipeline.addHandler(
                    HTTP2ConnectionHandler(origin: origin, pool: pool, multiplexer: multiplexer, report: report))
                pipeline.removeHandler(context: context, promise: nil)
                // Frames are read as they come: each stream's flow control window bounds what waits unread.
                try context.channel.syncOptions?.setOption(ChannelOptions.autoRead, value: true)
                context.channel.read()
            } catch {
                done = false
                fail(.cannotConnect(error), context: context)
            }
        }

        private func startHTTP1(context: ChannelHandlerContext, event: Any) {
            done = true
            do {
                let report = report
                try HTTP1Connection.addHandlers(
                    to: context.pipeline.syncOperations, origin: origin, pool: pool, verdict: verdict,
                    report: { report($0.map { .http1($0) }) })
                // The HTTP/1.1 handler becomes ready on the handshake's end, as on a connection that offered only HTTP/1.1.
                context.fireUserInboundEventTriggered(event)
                context.pipeline.syncOperations.removeHandler(context: context, promise: nil)
            } catch {
                done = false
                fail(.cannotConnect(error), context: context)
            }
        }
    }

    /// Reads the frames of the connection itself (stream 0), after swift-nio-http2's handler: the server's SETTINGS
    /// (the first makes the connection ready; each tells how many streams it may carry) and its GOAWAY.
    private final class HTTP2ConnectionHandler: ChannelInboundHandler {
        typealias InboundIn = HTTP2Frame

        /// When the server sets no limit on concurrent streams (RFC 9113 allows any number), the most one connection
        /// carries before another opens.
        static let defaultMaxStreams = 100

        private let origin: PooledOrigin
        private let pool: ConnectionPool
        private let multiplexer: NIOHTTP2Handler.StreamMultiplexer
        private let report: @Sendable (Result<NegotiatedConnection, NIOTransportFailure>) -> Void
        private var connection: HTTP2Connection?
        private var timer: Scheduled<Void>?
        private var failed = false

        init(
            origin: PooledOrigin, pool: ConnectionPool, multiplexer: NIOHTTP2Handler.StreamMultiplexer,
            report: @escaping @Sendable (Result<NegotiatedConnection, NIOTransportFailure>) -> Void
        ) {
            self.origin = origin
            self.pool = pool
            self.multiplexer = multiplexer
            self.report = report
        }

        func handlerAdded(context: ChannelHandlerContext) {
            // A server that never sends its SETTINGS (one that does not speak HTTP/2) fails the connect in time.
            timer = context.eventLoop.assumeIsolated().scheduleTask(in: pool.settings.connectTimeout) { [self] in
                guard connection == nil else { return }
                fail(.timedOut, context: context)
            }
        }

        func channelRead(context: ChannelHandlerContext, data: NIOAny) {
            let frame = unwrapInboundIn(data)
            switch frame.payload {
            case .settings(.settings(let settings)):
                let limit = settings.last { $0.parameter == .maxConcurrentStreams }.map { $0.value }
                if let connection {
                    if let limit { pool.settingsChanged(on: connection, maxStreams: limit) }
                } else {
                    timer?.cancel()
                    let connection = HTTP2Connection(
                        channel: context.channel, origin: origin, pool: pool, multiplexer: multiplexer,
                        maxStreams: limit ?? Self.defaultMaxStreams)
                    self.connection = connection
                    report(.success(.http2(connection)))
                }
            case .goAway(let lastStreamID, _, _):
                if let connection, pool.settings.http2Fault == .ignoresConnectionEnd {
                    connection.receivedGoAway(lastStreamID: lastStreamID)
                } else if let connection {
                    connection.receivedGoAway(lastStreamID: lastStreamID)
                    pool.goingAway(connection)
                } else {
                    fail(.connectionLost(ChannelError.eof), context: context)
                }
            default:
                break
            }
        }

        func errorCaught(context: ChannelHandlerContext, error: any Error) {
            if connection == nil {
                fail(NIOTransportFailure.classify(error, connecting: true), context: context)
            } else {
                // A write refused for a stream opened after the server's GOAWAY, or after the connection closed: that
                // stream's own failure (its call goes again, having sent nothing), not the connection's, whose other
                // streams the server is still answering (closing here lost them, seen as 499s in nginx's log).
                if error is NIOHTTP2Errors.CreatedStreamAfterGoaway || error is NIOHTTP2Errors.IOOnClosedConnection { return }
                // A connection error: swift-nio-http2 sent GOAWAY; every stream fails as the connection closes, and no
                // call given the connection from now on may open a stream on it.
                if let connection, pool.settings.http2Fault != .ignoresConnectionEnd { pool.goingAway(connection) }
                context.close(promise: nil)
            }
        }

        func channelInactive(context: ChannelHandlerContext) {
            timer?.cancel()
            if let connection {
                self.connection = nil
                // The mutant that keeps handing the connection out leaves it in the pool.
                if pool.settings.http2Fault != .ignoresConnectionEnd { pool.remove(connection) }
            } else {
                fail(.connectionLost(ChannelError.eof), context: context)
            }
            context.fireChannelInactive()
        }

        private func fail(_ failure: NIOTransportFailure, context: ChannelHandlerContext) {
            guard !failed else { return }
            failed = true
            timer?.cancel()
            report(.failure(failure))
            context.close(promise: nil)
        }
    }
#endif
