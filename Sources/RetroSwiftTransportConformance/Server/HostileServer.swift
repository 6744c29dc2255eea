#if TransportConformance
    import Foundation
    import NIOConcurrencyHelpers
    import NIOCore
    import NIOHTTP1

    /// Bytes a hostile or broken server answers with, written to the socket exactly as given: no HTTP encoder stands
    /// between them and the client, so they can break every rule (two `Content-Length` fields, a bare CR in a value,
    /// 20,000 fields, a 204 with a body).
    public struct RawResponse: Sendable {
        /// What happens to the connection after the bytes are written.
        public enum Ending: Sendable {
            /// Keep it open for the next request, as a server that believes the response complete would.
            case keepOpen
            /// Close it.
            case close
            /// Reset it: close it with `SO_LINGER` 0, so the client reads a TCP RST (`ECONNRESET`), not an orderly end.
            case reset
            /// Write nothing more and keep it open while the client stays connected: a stalled response.
            case hold
            /// Keep it open for the next request, but close it once it has been idle for `seconds`, as a server whose
            /// keep-alive timeout is shorter than the client's does. A request that arrives first cancels the close.
            case closeWhenIdle(seconds: TimeInterval)
            /// Keep it open for the next request, but once it has been idle for `seconds` end the server's side
            /// (a FIN, as a server's keep-alive timeout does) and keep reading until the client closes its own: a client
            /// that never closes a connection its server ended keeps it in ``TestServer/openConnectionCount``.
            case finishWhenIdle(seconds: TimeInterval)
        }

        /// The pieces written, in order, each flushed on its own.
        public var pieces: [Data]
        /// What happens after the last piece.
        public var ending: Ending
        /// Seconds between one piece and the next (the first is written at once): a dripping response.
        public var interval: TimeInterval
        /// Seconds to wait before each piece, one per piece, in place of ``interval``: a response whose pieces come at
        /// chosen moments. `nil` (the default) uses ``interval``.
        public var delays: [TimeInterval]?

        /// A cue the test gives, and the index of the first piece that waits for it (its delay then counts from the
        /// cue): a response whose rest comes only once the client's side is ready for it. `nil` (the default) waits
        /// for nothing.
        public var cue: (cue: ResponseCue, piece: Int)?

        /// Creates a response written as `pieces`.
        public init(pieces: [Data], ending: Ending = .keepOpen, interval: TimeInterval = 0) {
            self.pieces = pieces
            self.ending = ending
            self.interval = interval
        }

        /// Creates a response whose pieces are written at chosen moments.
        ///
        /// - Parameters:
        ///   - timed: Each piece with the seconds to wait before writing it, counted from the previous piece (the
        ///     first from the request).
        ///   - ending: What happens to the connection afterwards.
        public init(timed: [(delay: TimeInterval, bytes: Data)], ending: Ending = .keepOpen) {
            self.pieces = timed.map(\.bytes)
            self.delays = timed.map(\.delay)
            self.ending = ending
            self.interval = 0
        }

        /// How long to wait before piece `index`.
        func delay(before index: Int) -> TimeInterval {
            if let delays, delays.indices.contains(index) { return delays[index] }
            return index == 0 ? 0 : interval
        }

        /// A response whose head is `head` (status line and fields, each line ended with CRLF by this function) and whose
        /// body follows as it is.
        ///
        /// - Parameters:
        ///   - head: The status line and then the field lines, without line ends.
        ///   - body: The bytes after the blank line.
        ///   - ending: What happens to the connection afterwards.
        public static func head(_ head: [String], body: Data = Data(), ending: Ending = .keepOpen) -> RawResponse {
            var bytes = Data(head.map { $0 + "\r\n" }.joined().utf8)
            bytes.append(contentsOf: Array("\r\n".utf8))
            bytes.append(body)
            return RawResponse(pieces: [bytes], ending: ending)
        }
    }

    /// A moment the test chooses, which the rest of a ``RawResponse`` waits for (``RawResponse/cue``).
    public final class ResponseCue: Sendable {
        private let state = NIOLockedValueBox<(isGiven: Bool, waiting: [@Sendable () -> Void])>((false, []))

        /// Creates a cue not yet given.
        public init() {}

        /// Gives the cue: the pieces waiting for it go, each after its delay. Giving it again does nothing.
        public func give() {
            let waiting: [@Sendable () -> Void] = state.withLockedValue { state in
                guard !state.isGiven else { return [] }
                state.isGiven = true
                defer { state.waiting = [] }
                return state.waiting
            }
            for resume in waiting { resume() }
        }

        /// Runs `resume` once the cue is given: at once if it has been.
        func whenGiven(_ resume: @escaping @Sendable () -> Void) {
            let now: Bool = state.withLockedValue { state in
                if state.isGiven { return true }
                state.waiting.append(resume)
                return false
            }
            if now { resume() }
        }
    }

    extension TestServer {
        /// Starts a server that parses requests as HTTP/1.1 but answers each with raw bytes from `respond`.
        public static func startHostile(_ respond: @escaping @Sendable (RecordedRequest) -> RawResponse) async throws -> TestServer {
            try await listen { pipeline, log in
                try pipeline.addHandler(ByteToMessageHandler(HTTPRequestDecoder()))
                try pipeline.addHandler(RawAnsweringHandler(log: log, respond: respond))
            }
        }

        /// Starts a server that answers each request as soon as its head arrives, before reading its body, with the raw
        /// bytes `respond` gives (`nil`: no answer), and records the request then, without its body.
        ///
        /// - Parameters:
        ///   - drainingBodies: Whether the body is then read and thrown away, as a server that answered early but
        ///     lets the client finish does; with `false` the server stops reading the connection at the head, so an
        ///     upload stalls once the sockets' buffers are full.
        ///   - respond: The answer to a request, from its method, target and fields.
        /// - Returns: The running server.
        /// - Throws: SwiftNIO's error when the server cannot listen.
        public static func startAnsweringHeads(
            drainingBodies: Bool, _ respond: @escaping @Sendable (RecordedRequest) -> RawResponse?
        ) async throws -> TestServer {
            try await listen { pipeline, log in
                try pipeline.addHandler(ByteToMessageHandler(HTTPRequestDecoder()))
                try pipeline.addHandler(HeadAnsweringHandler(log: log, drainingBodies: drainingBodies, respond: respond))
            }
        }
    }

    /// Records each request at its head and answers it there; then reads the body and drops it, or stops reading.
    private final class HeadAnsweringHandler: ChannelInboundHandler {
        typealias InboundIn = HTTPServerRequestPart
        typealias OutboundOut = ByteBuffer

        private let log: RequestLog
        private let drainingBodies: Bool
        private let respond: @Sendable (RecordedRequest) -> RawResponse?

        init(log: RequestLog, drainingBodies: Bool, respond: @escaping @Sendable (RecordedRequest) -> RawResponse?) {
            self.log = log
            self.drainingBodies = drainingBodies
            self.respond = respond
        }

        func channelRead(context: ChannelHandlerContext, data: NIOAny) {
            guard case .head(let head) = unwrapInboundIn(data) else { return }
            let request = RecordedRequest(
                method: head.method.rawValue, target: head.uri, headers: head.headers.map { ($0.name, $0.value) }, body: Data(),
                bodyByteCount: 0)
            log.append(request)
            if !drainingBodies {
                // No more reads: what the client sends next fills the sockets' buffers and then waits.
                context.channel.setOption(ChannelOptions.autoRead, value: false).whenComplete { _ in }
            }
            guard let response = respond(request) else { return }
            for piece in response.pieces {
                context.write(wrapOutboundOut(ByteBuffer(bytes: piece)), promise: nil)
            }
            let written = context.writeAndFlush(wrapOutboundOut(ByteBuffer()))
            if case .close = response.ending {
                let bound = NIOLoopBound(context, eventLoop: context.eventLoop)
                written.whenComplete { _ in bound.value.close(promise: nil) }
            }
        }

        func errorCaught(context: ChannelHandlerContext, error: any Error) {
            context.close(promise: nil)
        }
    }

    /// Records each request and writes the raw answer straight to the socket.
    private final class RawAnsweringHandler: ChannelInboundHandler {
        typealias InboundIn = HTTPServerRequestPart
        typealias OutboundOut = ByteBuffer

        private let log: RequestLog
        private let respond: @Sendable (RecordedRequest) -> RawResponse
        private var head: HTTPRequestHead?
        private var body = ByteBuffer()
        /// The close of an idle connection (``RawResponse/Ending/closeWhenIdle(seconds:)``), until a request comes.
        private var idleClose: Scheduled<Void>?

        init(log: RequestLog, respond: @escaping @Sendable (RecordedRequest) -> RawResponse) {
            self.log = log
            self.respond = respond
        }

        func channelRead(context: ChannelHandlerContext, data: NIOAny) {
            switch unwrapInboundIn(data) {
            case .head(let head):
                self.head = head
                body.clear()
                idleClose?.cancel()
                idleClose = nil
            case .body(var chunk):
                body.writeBuffer(&chunk)
            case .end:
                guard let head else { return }
                let request = RecordedRequest(
                    method: head.method.rawValue, target: head.uri, headers: head.headers.map { ($0.name, $0.value) },
                    body: Data(body.readableBytesView), bodyByteCount: body.readableBytes)
                log.append(request)
                let response = respond(request)
                guard (response.interval > 0 || response.delays != nil || response.cue != nil) && !response.pieces.isEmpty else {
                    for piece in response.pieces {
                        context.write(wrapOutboundOut(ByteBuffer(bytes: piece)), promise: nil)
                    }
                    end(response, after: context.writeAndFlush(wrapOutboundOut(ByteBuffer())), context: context)
                    return
                }
                schedule(response, piece: 0, context: context)
            }
        }

        /// Writes piece `index` of `response` once its delay has passed, counted from the response's cue when the piece
        /// waits for one.
        private func schedule(_ response: RawResponse, piece index: Int, context: ChannelHandlerContext, cueGiven: Bool = false) {
            if let cue = response.cue, cue.piece == index, !cueGiven {
                let bound = NIOLoopBound((self, context), eventLoop: context.eventLoop)
                let eventLoop = context.eventLoop
                cue.cue.whenGiven {
                    eventLoop.execute {
                        let (handler, context) = bound.value
                        guard context.channel.isActive else { return }
                        handler.schedule(response, piece: index, context: context, cueGiven: true)
                    }
                }
                return
            }
            let delay = response.delay(before: index)
            guard delay > 0 else { return write(response, from: index, context: context) }
            let bound = NIOLoopBound((self, context), eventLoop: context.eventLoop)
            context.eventLoop.scheduleTask(in: .nanoseconds(Int64(delay * 1e9))) {
                let (handler, context) = bound.value
                guard context.channel.isActive else { return }
                handler.write(response, from: index, context: context)
            }
        }

        /// Writes piece `index` of `response` and schedules the next one.
        private func write(_ response: RawResponse, from index: Int, context: ChannelHandlerContext) {
            let written = context.writeAndFlush(wrapOutboundOut(ByteBuffer(bytes: response.pieces[index])))
            guard index + 1 < response.pieces.count else {
                end(response, after: written, context: context)
                return
            }
            schedule(response, piece: index + 1, context: context)
        }

        private func end(_ response: RawResponse, after written: EventLoopFuture<Void>, context: ChannelHandlerContext) {
            switch response.ending {
            case .close:
                let bound = NIOLoopBound(context, eventLoop: context.eventLoop)
                written.whenComplete { _ in bound.value.close(promise: nil) }
            case .reset:
                let bound = NIOLoopBound(context, eventLoop: context.eventLoop)
                written.whenComplete { _ in Self.reset(bound.value) }
            case .closeWhenIdle(let seconds):
                let bound = NIOLoopBound(context, eventLoop: context.eventLoop)
                idleClose = context.eventLoop.scheduleTask(in: .nanoseconds(Int64(seconds * 1e9))) {
                    bound.value.close(promise: nil)
                }
            case .finishWhenIdle(let seconds):
                let bound = NIOLoopBound(context, eventLoop: context.eventLoop)
                idleClose = context.eventLoop.scheduleTask(in: .nanoseconds(Int64(seconds * 1e9))) {
                    bound.value.close(mode: .output, promise: nil)
                }
            case .keepOpen, .hold:
                break
            }
        }

        /// Closes the connection with a TCP RST: with `SO_LINGER` 0, closing drops what is unsent and resets.
        private static func reset(_ context: ChannelHandlerContext) {
            guard let socket = context.channel as? any SocketOptionProvider else { return context.close(promise: nil) }
            let bound = NIOLoopBound(context, eventLoop: context.eventLoop)
            socket.setSoLinger(linger(l_onoff: 1, l_linger: 0)).whenComplete { _ in bound.value.close(promise: nil) }
        }

        func errorCaught(context: ChannelHandlerContext, error: any Error) {
            context.close(promise: nil)
        }
    }
#endif
