#if TransportConformance
    import Foundation
    import NIOCore
    import NIOHTTP1

    extension TestServer {
        /// A pause in reading a request body, for ``startReadingBodies(bytesPerSecond:pacedBytes:pausing:answering:paused:)``.
        public struct BodyPause: Sendable {
            /// The body bytes read before the pause.
            public var afterBytes: Int
            /// How long the server reads nothing.
            public var seconds: TimeInterval

            /// A pause of `seconds` once `afterBytes` body bytes have been read.
            public init(afterBytes: Int, seconds: TimeInterval) {
                self.afterBytes = afterBytes
                self.seconds = seconds
            }
        }

        /// Starts a server that reads each request body no faster than `bytesPerSecond`, and records the request once the
        /// body is whole: an upload that keeps moving for as long as it takes.
        ///
        /// The sockets' buffers hold megabytes (Linux lets a send buffer grow to 4 MiB), which leave the client long
        /// before the server reads them: read at the pace, they would be a silence on the client's side before the
        /// answer. `pacedBytes` ends the pace before them, so the client's last bytes leave as the server reads them.
        /// (A receive buffer made small would not help: below loopback's 64 KiB segments, TCP stalls the sender for its
        /// persist timer, a silence of its own.)
        ///
        /// - Parameters:
        ///   - bytesPerSecond: The pace; `nil` reads as fast as the bytes come.
        ///   - pacedBytes: How much of each body is read at the pace; the rest is read as fast as it comes.
        ///   - pausing: A pause in reading, after which the server reads again at its pace: a stalled upload.
        ///   - answering: Whether a request gets its answer (`200` with the body's size as text) once its body is read;
        ///     `false` answers nothing, a head that never comes.
        ///   - paused: Called on the server's event loop when the pause begins.
        /// - Returns: The running server.
        /// - Throws: SwiftNIO's error when the server cannot listen.
        public static func startReadingBodies(
            bytesPerSecond: Int?, pacedBytes: Int = .max, pausing: BodyPause? = nil, answering: Bool = true,
            paused: @escaping @Sendable () -> Void = {}
        ) async throws -> TestServer {
            try await listen { pipeline, log in
                try pipeline.addHandler(ByteToMessageHandler(HTTPRequestDecoder()))
                try pipeline.addHandler(
                    PacedReadingHandler(
                        log: log, bytesPerSecond: bytesPerSecond, pacedBytes: pacedBytes, pause: pausing, answering: answering,
                        paused: paused))
            }
        }
    }

    /// Reads the connection only when its pace allows: each read is asked for once the bytes so far are due.
    private final class PacedReadingHandler: ChannelDuplexHandler {
        typealias InboundIn = HTTPServerRequestPart
        typealias OutboundIn = ByteBuffer
        typealias OutboundOut = ByteBuffer

        private let log: RequestLog
        private let bytesPerSecond: Int?
        private let pacedBytes: Int
        private let pause: TestServer.BodyPause?
        private let answering: Bool
        private let paused: @Sendable () -> Void
        private var head: HTTPRequestHead?
        private var bodyBytes = 0
        /// When the pace counts from: the head's arrival, moved on by the pause.
        private var paceStart = NIODeadline.now()
        private var hasPaused = false
        /// The read held back until the pace allows it; a read asked for meanwhile is the same one.
        private var nextRead: Scheduled<Void>?

        init(
            log: RequestLog, bytesPerSecond: Int?, pacedBytes: Int, pause: TestServer.BodyPause?, answering: Bool,
            paused: @escaping @Sendable () -> Void
        ) {
            self.log = log
            self.bytesPerSecond = bytesPerSecond
            self.pacedBytes = pacedBytes
            self.pause = pause
            self.answering = answering
            self.paused = paused
        }

        func channelRead(context: ChannelHandlerContext, data: NIOAny) {
            switch unwrapInboundIn(data) {
            case .head(let head):
                self.head = head
                bodyBytes = 0
                paceStart = .now()
                hasPaused = false
                if head.headers[canonicalForm: "Expect"].contains(where: { $0.lowercased() == "100-continue" }) {
                    context.writeAndFlush(wrapOutboundOut(ByteBuffer(string: "HTTP/1.1 100 Continue\r\n\r\n")), promise: nil)
                }
            case .body(let chunk):
                bodyBytes += chunk.readableBytes
            case .end:
                guard let head else { return }
                log.append(
                    RecordedRequest(
                        method: head.method.rawValue, target: head.uri, headers: head.headers.map { ($0.name, $0.value) },
                        body: Data(), bodyByteCount: bodyBytes))
                self.head = nil
                guard answering else { return }
                let text = "received \(bodyBytes)"
                context.writeAndFlush(
                    wrapOutboundOut(ByteBuffer(string: "HTTP/1.1 200 OK\r\nContent-Length: \(text.utf8.count)\r\n\r\n\(text)")),
                    promise: nil)
            }
        }

        /// Holds a read back until the bytes read so far are due at the pace, or the pause is over.
        func read(context: ChannelHandlerContext) {
            guard nextRead == nil else { return }
            var due = NIODeadline.now()
            if head != nil, let pause, !hasPaused, bodyBytes >= pause.afterBytes {
                hasPaused = true
                paused()
                due = due + .nanoseconds(Int64(pause.seconds * 1e9))
                paceStart = due - pace(of: bodyBytes)
            } else if head != nil, bytesPerSecond != nil, bodyBytes < pacedBytes {
                due = max(due, paceStart + pace(of: bodyBytes))
            }
            guard due > .now() else { return context.read() }
            let bound = NIOLoopBound((self, context), eventLoop: context.eventLoop)
            nextRead = context.eventLoop.scheduleTask(deadline: due) {
                let (handler, context) = bound.value
                handler.nextRead = nil
                guard context.channel.isActive else { return }
                handler.read(context: context)
            }
        }

        /// How long `bytes` take at the pace.
        private func pace(of bytes: Int) -> TimeAmount {
            guard let bytesPerSecond, bytesPerSecond > 0 else { return .zero }
            return .nanoseconds(Int64(Double(bytes) / Double(bytesPerSecond) * 1e9))
        }

        func channelInactive(context: ChannelHandlerContext) {
            nextRead?.cancel()
            nextRead = nil
            context.fireChannelInactive()
        }

        func errorCaught(context: ChannelHandlerContext, error: any Error) {
            context.close(promise: nil)
        }
    }
#endif
