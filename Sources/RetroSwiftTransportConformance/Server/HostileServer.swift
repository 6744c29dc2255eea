#if TransportConformance
    import Foundation
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
            /// Write nothing more and keep it open while the client stays connected: a stalled response.
            case hold
        }

        /// The pieces written, in order, each flushed on its own.
        public var pieces: [Data]
        /// What happens after the last piece.
        public var ending: Ending
        /// Seconds between one piece and the next (the first is written at once): a dripping response.
        public var interval: TimeInterval

        /// Creates a response written as `pieces`.
        public init(pieces: [Data], ending: Ending = .keepOpen, interval: TimeInterval = 0) {
            self.pieces = pieces
            self.ending = ending
            self.interval = interval
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

    extension TestServer {
        /// Starts a server that parses requests as HTTP/1.1 but answers each with raw bytes from `respond`.
        public static func startHostile(_ respond: @escaping @Sendable (RecordedRequest) -> RawResponse) async throws -> TestServer {
            try await listen { pipeline, log in
                try pipeline.addHandler(ByteToMessageHandler(HTTPRequestDecoder()))
                try pipeline.addHandler(RawAnsweringHandler(log: log, respond: respond))
            }
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

        init(log: RequestLog, respond: @escaping @Sendable (RecordedRequest) -> RawResponse) {
            self.log = log
            self.respond = respond
        }

        func channelRead(context: ChannelHandlerContext, data: NIOAny) {
            switch unwrapInboundIn(data) {
            case .head(let head):
                self.head = head
                body.clear()
            case .body(var chunk):
                body.writeBuffer(&chunk)
            case .end:
                guard let head else { return }
                let request = RecordedRequest(
                    method: head.method.rawValue, target: head.uri, headers: head.headers.map { ($0.name, $0.value) },
                    body: Data(body.readableBytesView), bodyByteCount: body.readableBytes)
                log.append(request)
                let response = respond(request)
                guard response.interval > 0 else {
                    for piece in response.pieces {
                        context.write(wrapOutboundOut(ByteBuffer(bytes: piece)), promise: nil)
                    }
                    end(response, after: context.writeAndFlush(wrapOutboundOut(ByteBuffer())), context: context)
                    return
                }
                write(response, from: 0, context: context)
            }
        }

        /// Writes piece `index` of `response` and schedules the next one `interval` later.
        private func write(_ response: RawResponse, from index: Int, context: ChannelHandlerContext) {
            let written = context.writeAndFlush(wrapOutboundOut(ByteBuffer(bytes: response.pieces[index])))
            guard index + 1 < response.pieces.count else {
                end(response, after: written, context: context)
                return
            }
            let bound = NIOLoopBound((self, context), eventLoop: context.eventLoop)
            context.eventLoop.scheduleTask(in: .nanoseconds(Int64(response.interval * 1e9))) {
                let (handler, context) = bound.value
                guard context.channel.isActive else { return }
                handler.write(response, from: index + 1, context: context)
            }
        }

        private func end(_ response: RawResponse, after written: EventLoopFuture<Void>, context: ChannelHandlerContext) {
            if case .close = response.ending {
                let bound = NIOLoopBound(context, eventLoop: context.eventLoop)
                written.whenComplete { _ in bound.value.close(promise: nil) }
            }
        }

        func errorCaught(context: ChannelHandlerContext, error: any Error) {
            context.close(promise: nil)
        }
    }
#endif
