#if TransportConformance
    import Foundation
    import NIOConcurrencyHelpers
    import NIOCore
    import NIOHTTP1
    import NIOPosix

    /// A real HTTP/1.1 server on 127.0.0.1 (or another loopback address, such as `::1`) with an ephemeral port, built on
    /// SwiftNIO, that records every request byte for byte and answers from a script. Tests start and stop it themselves.
    public final class TestServer: Sendable {
        /// Produces the answer to a request.
        public typealias Responder = @Sendable (RecordedRequest) -> ScriptedResponse

        /// Adds a TLS handler to the front of an accepted connection's pipeline (SwiftNIO SSL's `NIOSSLServerHandler`),
        /// for a server that speaks `https`.
        public typealias TLSInstaller = @Sendable (ChannelPipeline.SynchronousOperations) throws -> Void

        /// The address the server listens on: `127.0.0.1` unless it was started on another, such as `::1`.
        public let host: String
        /// The port the server listens on.
        public let port: Int
        /// `https` when the server was started with a ``TLSInstaller``, else `http`.
        public let scheme: String
        private let channel: any Channel
        private let recorded: RequestLog
        private let connections: OpenConnections

        private init(
            channel: any Channel, host: String, port: Int, scheme: String, recorded: RequestLog, connections: OpenConnections
        ) {
            self.channel = channel
            self.host = host
            self.port = port
            self.scheme = scheme
            self.recorded = recorded
            self.connections = connections
        }

        /// `http://127.0.0.1:<port>`, or `https://` for a server with TLS; an IPv6 address in brackets,
        /// `http://[::1]:<port>`.
        public var baseURL: URL {
            URL(string: "\(scheme)://\(host.contains(":") ? "[\(host)]" : host):\(port)")!
        }

        /// How many client connections are open now: a client that stops reading a held-open stream should close its
        /// connection.
        public var openConnectionCount: Int {
            connections.all.count
        }

        /// How many client connections the server has accepted since it started, open or closed: a client that keeps its
        /// connections alive sends sequential calls over one.
        public var acceptedConnectionCount: Int {
            connections.acceptedCount
        }

        /// The most client connections that were open at once since the server started: a client that keeps to a
        /// limit of connections never goes above it.
        public var peakOpenConnectionCount: Int {
            connections.peakCount
        }

        /// Every request received so far, in order of completion.
        public var requests: [RecordedRequest] {
            recorded.all
        }

        /// How many request body bytes the server has read so far, of every request, those still arriving included: a
        /// streamed upload's first chunk shows here before its body ends.
        public var receivedBodyByteCount: Int {
            recorded.bodyByteCount
        }

        /// Starts a server answering with `respond`; with `recordingBodies: false` only body sizes are kept.
        ///
        /// - Parameters:
        ///   - host: The address to listen on: `127.0.0.1` by default, or `::1` for a server reached by an IPv6 literal.
        ///   - recordingBodies: Whether request bodies are kept, or only their sizes.
        ///   - tls: Installs TLS on each connection, for an `https` server; `nil` (the default) serves plain `http`.
        ///   - respond: Produces the answer to each request.
        /// - Returns: The running server.
        /// - Throws: SwiftNIO's error when the server cannot listen (on `::1`, when the machine has no IPv6 loopback).
        public static func start(
            host: String = "127.0.0.1", recordingBodies: Bool = true, tls: TLSInstaller? = nil, _ respond: @escaping Responder
        ) async throws -> TestServer {
            #if ConformanceHTTP2
                // The suite's protocol dimension (TestServer+HTTP2.swift).
                if protocolUnderTest != .http1_1 {
                    return try await startHTTP2(host: host, recordingBodies: recordingBodies, tls: tls, respond)
                }
            #endif
            return try await listen(host: host, scheme: tls == nil ? "http" : "https") { pipeline, log in
                try tls?(pipeline)
                try pipeline.configureHTTPServerPipeline()
                try pipeline.addHandler(RecordingHandler(log: log, recordingBodies: recordingBodies, respond: respond))
            }
        }

        /// Listens on an ephemeral port of `host`; `configure` sets up each accepted connection's pipeline, recording
        /// requests in the log it is given.
        static func listen(
            host: String = "127.0.0.1", scheme: String = "http",
            _ configure: @escaping @Sendable (ChannelPipeline.SynchronousOperations, RequestLog) throws -> Void
        ) async throws -> TestServer {
            let log = RequestLog()
            let connections = OpenConnections()
            let channel = try await ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton)
                .serverChannelOption(.backlog, value: 256)
                .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
                .childChannelOption(.socketOption(.tcp_nodelay), value: 1)
                .childChannelInitializer { channel in
                    connections.add(channel)
                    return channel.eventLoop.makeCompletedFuture { try configure(channel.pipeline.syncOperations, log) }
                }
                .bind(host: host, port: 0)
                .get()
            guard let port = channel.localAddress?.port else {
                try await channel.close()
                throw ChannelError.unknownLocalAddress
            }
            return TestServer(channel: channel, host: host, port: port, scheme: scheme, recorded: log, connections: connections)
        }

        /// Waits until the server has read `count` request body bytes in all, for at most `limit`; returns whether it
        /// got there.
        public func waitForBodyBytes(_ count: Int, within limit: Duration) async -> Bool {
            let deadline = ContinuousClock.now + limit
            while receivedBodyByteCount < count, ContinuousClock.now < deadline {
                try? await Task.sleep(for: .milliseconds(5))
            }
            return receivedBodyByteCount >= count
        }

        /// A port on 127.0.0.1 that nothing listens on (bound, then released).
        public static func unusedPort() async throws -> Int {
            let channel = try await ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton)
                .bind(host: "127.0.0.1", port: 0).get()
            let port = channel.localAddress?.port ?? 1
            try await channel.close()
            return port
        }

        /// Stops listening and closes every connection still open, so no scripted answer outlives the server.
        public func stop() async {
            try? await channel.close()
            for connection in connections.all {
                try? await connection.close()
            }
        }
    }

    /// The accepted connections of one server that are still open, and how many it has accepted in all.
    final class OpenConnections: Sendable {
        private let storage = NIOLockedValueBox<(open: [ObjectIdentifier: any Channel], accepted: Int, peak: Int)>(([:], 0, 0))

        var all: [any Channel] {
            storage.withLockedValue { Array($0.open.values) }
        }

        var acceptedCount: Int {
            storage.withLockedValue { $0.accepted }
        }

        var peakCount: Int {
            storage.withLockedValue { $0.peak }
        }

        func add(_ channel: any Channel) {
            let key = ObjectIdentifier(channel)
            storage.withLockedValue { state in
                state.open[key] = channel
                state.accepted += 1
                state.peak = max(state.peak, state.open.count)
            }
            channel.closeFuture.whenComplete { [storage] _ in
                storage.withLockedValue { $0.open[key] = nil }
            }
        }
    }

    /// The requests a server has received, shared by its connections.
    final class RequestLog: Sendable {
        private let storage = NIOLockedValueBox<[RecordedRequest]>([])
        private let bodyBytes = NIOLockedValueBox(0)

        var all: [RecordedRequest] {
            storage.withLockedValue { $0 }
        }

        /// Body bytes read so far, as they arrive.
        var bodyByteCount: Int {
            bodyBytes.withLockedValue { $0 }
        }

        func receivedBody(_ count: Int) {
            bodyBytes.withLockedValue { $0 += count }
        }

        func append(_ request: RecordedRequest) {
            storage.withLockedValue { $0.append(request) }
        }
    }

    /// Collects one request's head and body, then answers it as scripted.
    final class RecordingHandler: ChannelInboundHandler {
        typealias InboundIn = HTTPServerRequestPart
        typealias OutboundOut = HTTPServerResponsePart

        private let log: RequestLog
        private let recordingBodies: Bool
        private let respond: TestServer.Responder
        private var head: HTTPRequestHead?
        private var body = ByteBuffer()
        private var bodyByteCount = 0
        /// The next piece of a dripped body, cancelled when the client goes away so nothing outlives the connection.
        private var pendingDrip: Scheduled<Void>?

        init(log: RequestLog, recordingBodies: Bool, respond: @escaping TestServer.Responder) {
            self.log = log
            self.recordingBodies = recordingBodies
            self.respond = respond
        }

        func channelRead(context: ChannelHandlerContext, data: NIOAny) {
            switch unwrapInboundIn(data) {
            case .head(let head):
                self.head = head
                body.clear()
                bodyByteCount = 0
                // As real servers do (RFC 9110 §10.1.1): otherwise curl, under URLSession on Linux, holds back a large
                // upload's body for a second waiting for this answer.
                if head.headers[canonicalForm: "Expect"].contains(where: { $0.lowercased() == "100-continue" }) {
                    context.writeAndFlush(wrapOutboundOut(.head(HTTPResponseHead(version: head.version, status: .continue))), promise: nil)
                }
            case .body(var chunk):
                bodyByteCount += chunk.readableBytes
                log.receivedBody(chunk.readableBytes)
                if recordingBodies { body.writeBuffer(&chunk) }
            case .end:
                guard let head else { return }
                let request = RecordedRequest(
                    method: head.method.rawValue, target: head.uri,
                    headers: head.headers.map { ($0.name, $0.value) }, body: Data(body.readableBytesView),
                    bodyByteCount: bodyByteCount
                )
                log.append(request)
                answer(respond(request), keepAlive: head.isKeepAlive, context: context)
            }
        }

        /// Writes `response`'s head with its own fields and `Content-Length: contentLength`, or none for `nil` (a chunked
        /// body); flushed at once when no body write follows straight away.
        private func writeHead(of response: ScriptedResponse, contentLength: Int?, flush: Bool, context: ChannelHandlerContext) {
            var headers = HTTPHeaders(response.headers)
            if let contentLength {
                headers.replaceOrAdd(name: "Content-Length", value: "\(contentLength)")
            } else {
                headers.remove(name: "Content-Length")
            }
            let head = wrapOutboundOut(
                .head(HTTPResponseHead(version: .http1_1, status: .init(statusCode: response.status), headers: headers)))
            if flush {
                context.writeAndFlush(head, promise: nil)
            } else {
                context.write(head, promise: nil)
            }
        }

        private func answer(_ response: ScriptedResponse, keepAlive: Bool, context: ChannelHandlerContext) {
            switch response.behavior {
            case .normal:
                write(response, keepAlive: keepAlive, context: context)
            case .delayed(let seconds):
                let bound = NIOLoopBound((self, context), eventLoop: context.eventLoop)
                context.eventLoop.scheduleTask(in: .milliseconds(Int64(seconds * 1_000))) {
                    let (handler, context) = bound.value
                    handler.write(response, keepAlive: keepAlive, context: context)
                }
            case .closeMidResponse:
                writeHead(of: response, contentLength: response.body.count + 1_000, flush: false, context: context)
                context.writeAndFlush(wrapOutboundOut(.body(.byteBuffer(ByteBuffer(bytes: response.body)))), promise: nil)
                context.close(promise: nil)
            case .silent:
                break
            case .streamed(let byteCount):
                writeHead(of: response, contentLength: byteCount, flush: false, context: context)
                writeChunks(remaining: byteCount, context: context)
            case .dripped(let chunks, let interval):
                writeHead(of: response, contentLength: response.body.count, flush: true, context: context)
                let size = max(1, (response.body.count + max(chunks, 1) - 1) / max(chunks, 1))
                drip(response.body, pieceSize: size, interval: interval, context: context)
            case .stalled(let afterBytes):
                writeHead(of: response, contentLength: response.body.count, flush: false, context: context)
                context.writeAndFlush(
                    wrapOutboundOut(.body(.byteBuffer(ByteBuffer(bytes: response.body.prefix(afterBytes))))), promise: nil)
            case .chunked(let pieces, let interval, let holdingOpen):
                writeHead(of: response, contentLength: nil, flush: true, context: context)
                send(pieces[...], interval: interval, holdingOpen: holdingOpen, context: context)
            case .repeated(let count):
                writeHead(of: response, contentLength: response.body.count * count, flush: false, context: context)
                writeCopies(of: ByteBuffer(bytes: response.body), remaining: count, context: context)
            case .paced(let byteCount, let bytesPerSecond):
                writeHead(of: response, contentLength: byteCount, flush: true, context: context)
                let interval = TimeAmount.nanoseconds(Int64(Double(Self.chunk.readableBytes) / Double(max(bytesPerSecond, 1)) * 1e9))
                writePaced(remaining: byteCount, interval: interval, context: context)
            }
        }

        /// Writes the next piece of a paced body and schedules the one after it `interval` later; nothing outlives the
        /// connection (``channelInactive(context:)`` cancels the next piece).
        private func writePaced(remaining: Int, interval: TimeAmount, context: ChannelHandlerContext) {
            guard remaining > 0 else {
                context.writeAndFlush(wrapOutboundOut(.end(nil)), promise: nil)
                return
            }
            let size = min(remaining, Self.chunk.readableBytes)
            context.writeAndFlush(wrapOutboundOut(.body(.byteBuffer(Self.chunk.getSlice(at: 0, length: size)!))), promise: nil)
            let bound = NIOLoopBound((self, context), eventLoop: context.eventLoop)
            pendingDrip = context.eventLoop.scheduleTask(in: interval) {
                let (handler, context) = bound.value
                handler.pendingDrip = nil
                guard context.channel.isActive else { return }
                handler.writePaced(remaining: remaining - size, interval: interval, context: context)
            }
        }

        private func writeCopies(of block: ByteBuffer, remaining: Int, context: ChannelHandlerContext) {
            guard remaining > 0 else {
                context.writeAndFlush(wrapOutboundOut(.end(nil)), promise: nil)
                return
            }
            let written = context.writeAndFlush(wrapOutboundOut(.body(.byteBuffer(block))))
            let bound = NIOLoopBound((self, context), eventLoop: context.eventLoop)
            written.whenSuccess {
                let (handler, context) = bound.value
                handler.writeCopies(of: block, remaining: remaining - 1, context: context)
            }
        }

        /// Writes `pieces` one every `interval` seconds, then ends the body unless `holdingOpen`.
        private func send(_ pieces: ArraySlice<Data>, interval: TimeInterval, holdingOpen: Bool, context: ChannelHandlerContext) {
            guard let piece = pieces.first else {
                if !holdingOpen { context.writeAndFlush(wrapOutboundOut(.end(nil)), promise: nil) }
                return
            }
            context.writeAndFlush(wrapOutboundOut(.body(.byteBuffer(ByteBuffer(bytes: piece)))), promise: nil)
            let rest = pieces.dropFirst()
            guard !rest.isEmpty || !holdingOpen else { return }
            let bound = NIOLoopBound((self, context), eventLoop: context.eventLoop)
            pendingDrip = context.eventLoop.scheduleTask(in: .milliseconds(Int64(interval * 1_000))) {
                let (handler, context) = bound.value
                handler.pendingDrip = nil
                guard context.channel.isActive else { return }
                handler.send(rest, interval: interval, holdingOpen: holdingOpen, context: context)
            }
        }

        func channelInactive(context: ChannelHandlerContext) {
            pendingDrip?.cancel()
            pendingDrip = nil
            context.fireChannelInactive()
        }

        private func drip(_ remaining: Data, pieceSize: Int, interval: TimeInterval, context: ChannelHandlerContext) {
            guard !remaining.isEmpty else {
                context.writeAndFlush(wrapOutboundOut(.end(nil)), promise: nil)
                return
            }
            let piece = remaining.prefix(pieceSize)
            context.writeAndFlush(wrapOutboundOut(.body(.byteBuffer(ByteBuffer(bytes: piece)))), promise: nil)
            let rest = remaining.dropFirst(piece.count)
            let bound = NIOLoopBound((self, context), eventLoop: context.eventLoop)
            pendingDrip = context.eventLoop.scheduleTask(in: .milliseconds(Int64(interval * 1_000))) {
                let (handler, context) = bound.value
                handler.pendingDrip = nil
                guard context.channel.isActive else { return }
                handler.drip(Data(rest), pieceSize: pieceSize, interval: interval, context: context)
            }
        }

        private static let chunk = ByteBuffer(bytes: (0..<65_536).map { UInt8(truncatingIfNeeded: $0 &* 31) })

        private func writeChunks(remaining: Int, context: ChannelHandlerContext) {
            guard remaining > 0 else {
                context.writeAndFlush(wrapOutboundOut(.end(nil)), promise: nil)
                return
            }
            let size = min(remaining, Self.chunk.readableBytes)
            let written = context.writeAndFlush(wrapOutboundOut(.body(.byteBuffer(Self.chunk.getSlice(at: 0, length: size)!))))
            let bound = NIOLoopBound((self, context), eventLoop: context.eventLoop)
            written.whenSuccess {
                let (handler, context) = bound.value
                handler.writeChunks(remaining: remaining - size, context: context)
            }
        }

        private func write(_ response: ScriptedResponse, keepAlive: Bool, context: ChannelHandlerContext) {
            var headers = HTTPHeaders(response.headers)
            headers.replaceOrAdd(name: "Content-Length", value: "\(response.body.count)")
            if !keepAlive { headers.replaceOrAdd(name: "Connection", value: "close") }
            context.write(
                wrapOutboundOut(.head(HTTPResponseHead(version: .http1_1, status: .init(statusCode: response.status), headers: headers))),
                promise: nil)
            if !response.body.isEmpty {
                context.write(wrapOutboundOut(.body(.byteBuffer(ByteBuffer(bytes: response.body)))), promise: nil)
            }
            let done = context.writeAndFlush(wrapOutboundOut(.end(nil)))
            if !keepAlive {
                let bound = NIOLoopBound(context, eventLoop: context.eventLoop)
                done.whenComplete { _ in bound.value.close(promise: nil) }
            }
        }
    }
#endif
