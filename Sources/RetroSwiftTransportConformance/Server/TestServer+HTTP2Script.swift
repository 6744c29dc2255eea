#if ConformanceHTTP2
    import Foundation
    import NIOConcurrencyHelpers
    import NIOCore
    import NIOHPACK
    import NIOHTTP1
    import NIOHTTP2

    /// What an HTTP/2 server of the `http2/` cases does beyond answering each stream as scripted, and what it saw of the
    /// client's own frames.
    struct HTTP2Script: Sendable {
        /// The server's `SETTINGS_MAX_CONCURRENT_STREAMS`.
        var maxConcurrentStreams = 100
        /// A GOAWAY sent when a given stream opens.
        var goAway: GoAwayScript?
        /// Trailer fields every answer ends with (a HEADERS frame after the body, ending the stream).
        var trailers: [(name: String, value: String)] = []
        /// Whether the server's first stream gets a PUSH_PROMISE before its answer, whatever the client's SETTINGS say.
        var pushesOnFirstStream = false
        /// When set, every answer's head carries this many extra bytes of fields and is split into a HEADERS frame and
        /// CONTINUATION frames of at most 4,096 bytes each (swift-nio-http2 never splits one itself).
        var continuedHeadBytes: Int?
        /// Whether, once each answer is written, the server sends GOAWAY naming that stream as the last and closes the
        /// connection: a server that ends its connections between streams.
        var endsConnectionAfterEachAnswer = false
        /// The client's frames on the connection itself.
        let client = ClientConnectionFrames()
        /// Streams the server opened, on every connection (for ``pushesOnFirstStream``).
        let streams = NIOLockedValueBox(0)
        /// Streams open now, on every connection: a stream the client reset closes at once.
        let openStreams = NIOLockedValueBox(0)

        /// How many streams are open now, on every connection.
        var openStreamCount: Int { openStreams.withLockedValue { $0 } }
    }

    /// The frames a client sent on stream 0 of the server's connections: its SETTINGS and its GOAWAY.
    final class ClientConnectionFrames: Sendable {
        private let settings = NIOLockedValueBox<[HTTP2Setting]>([])
        private let goAways = NIOLockedValueBox<[HTTP2ErrorCode]>([])

        /// The value the client's SETTINGS gave `SETTINGS_ENABLE_PUSH` last, or `nil` when it never named it (then 1).
        var enablePush: Int? {
            settings.withLockedValue { $0.last { $0.parameter == .enablePush }?.value }
        }

        /// Whether the client ended a connection with GOAWAY and `PROTOCOL_ERROR`.
        var sentProtocolError: Bool {
            goAways.withLockedValue { $0.contains(.protocolError) }
        }

        /// The error codes of the client's GOAWAY frames, as they read in a failure message.
        var goAwayCodes: [String] {
            goAways.withLockedValue { $0.map { "\($0)" } }
        }

        func received(_ frame: HTTP2Frame) {
            switch frame.payload {
            case .settings(.settings(let values)): settings.withLockedValue { $0 += values }
            case .goAway(_, let code, _): goAways.withLockedValue { $0.append(code) }
            default: break
            }
        }
    }

    /// Records the client's frames on stream 0, after swift-nio-http2's handler.
    final class ClientFrameRecorder: ChannelInboundHandler {
        typealias InboundIn = HTTP2Frame

        private let frames: ClientConnectionFrames
        init(_ frames: ClientConnectionFrames) { self.frames = frames }

        func channelRead(context: ChannelHandlerContext, data: NIOAny) {
            frames.received(unwrapInboundIn(data))
            context.fireChannelRead(data)
        }
    }

    /// Writes frames of its own, as raw bytes, in front of swift-nio-http2's handler: frames that handler would never
    /// send (a PUSH_PROMISE to a client that disabled push, a head split by CONTINUATION).
    ///
    /// `@unchecked Sendable`: its context is set and used on the connection's event loop only.
    final class RawFrameWriter: ChannelOutboundHandler, @unchecked Sendable {
        typealias OutboundIn = ByteBuffer
        typealias OutboundOut = ByteBuffer

        private var context: ChannelHandlerContext?

        func handlerAdded(context: ChannelHandlerContext) {
            self.context = context
        }

        func handlerRemoved(context: ChannelHandlerContext) {
            self.context = nil
        }

        /// Writes `frames` to the socket now (on the connection's event loop).
        func send(_ frames: [ByteBuffer]) {
            guard let context else { return }
            for frame in frames { context.write(wrapOutboundOut(frame), promise: nil) }
            context.flush()
        }

        /// A frame of `type` with `flags` on `stream` (RFC 9113 §4.1).
        static func frame(type: UInt8, flags: UInt8, stream: Int, payload: [UInt8]) -> ByteBuffer {
            var buffer = ByteBuffer()
            buffer.writeInteger(UInt8(truncatingIfNeeded: payload.count >> 16))
            buffer.writeInteger(UInt16(truncatingIfNeeded: payload.count))
            buffer.writeInteger(type)
            buffer.writeInteger(flags)
            buffer.writeInteger(UInt32(stream) & 0x7fff_ffff)
            buffer.writeBytes(payload)
            return buffer
        }

        /// Header fields as an HPACK block of literals never indexed, so that the client's dynamic table stays as the
        /// server's swift-nio-http2 encoder believes it is (RFC 7541 §6.2.2).
        static func headerBlock(_ fields: [(name: String, value: String)]) -> [UInt8] {
            var block: [UInt8] = []
            for (name, value) in fields {
                block.append(0x00)
                for text in [name, value] {
                    block += integer(text.utf8.count, prefixBits: 7)
                    block += Array(text.utf8)
                }
            }
            return block
        }

        /// An HPACK integer with a prefix of `prefixBits` bits, the bits above it zero (RFC 7541 §5.1).
        static func integer(_ value: Int, prefixBits: Int) -> [UInt8] {
            let limit = (1 << prefixBits) - 1
            guard value >= limit else { return [UInt8(value)] }
            var bytes = [UInt8(limit)]
            var rest = value - limit
            while rest >= 128 {
                bytes.append(UInt8(rest % 128 + 128))
                rest /= 128
            }
            bytes.append(UInt8(rest))
            return bytes
        }
    }

    /// Adds trailer fields to the end of a stream's answer.
    final class TrailerAddingHandler: ChannelOutboundHandler {
        typealias OutboundIn = HTTPServerResponsePart
        typealias OutboundOut = HTTPServerResponsePart

        private let trailers: [(name: String, value: String)]
        init(_ trailers: [(name: String, value: String)]) { self.trailers = trailers }

        func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
            guard case .end(nil) = unwrapOutboundIn(data) else {
                context.write(data, promise: promise)
                return
            }
            context.write(wrapOutboundOut(.end(HTTPHeaders(trailers))), promise: promise)
        }
    }

    /// Sends a stream's answer itself, as raw frames: its head, with `extraBytes` more bytes of fields, split into a
    /// HEADERS frame and CONTINUATION frames, then its body in DATA frames. swift-nio-http2 never sees the answer.
    final class ContinuedHeadWriter: ChannelOutboundHandler {
        typealias OutboundIn = HTTP2Frame.FramePayload

        /// The most bytes of header block a frame carries here: less than any SETTINGS_MAX_FRAME_SIZE, so that a head
        /// of several kilobytes takes several frames.
        static let piece = 4_096

        private let raw: RawFrameWriter
        private let stream: Int
        private let extraBytes: Int

        init(raw: RawFrameWriter, stream: Int, extraBytes: Int) {
            self.raw = raw
            self.stream = stream
            self.extraBytes = extraBytes
        }

        /// The extra fields: `x-continued-<n>`, 1,000 bytes each.
        static func extraFields(_ bytes: Int) -> [(name: String, value: String)] {
            (0..<max(1, bytes / 1_000)).map { ("x-continued-\($0)", String(repeating: "c", count: 1_000)) }
        }

        func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
            switch unwrapOutboundIn(data) {
            case .headers(let headers):
                let fields = headers.headers.map { (name: $0.name, value: $0.value) } + Self.extraFields(extraBytes)
                let block = RawFrameWriter.headerBlock(fields)
                var frames: [ByteBuffer] = []
                var start = 0
                while start < block.count {
                    let end = min(start + Self.piece, block.count)
                    let last = end == block.count
                    // HEADERS first (END_STREAM when the head is all), then CONTINUATION; END_HEADERS on the last.
                    let flags: UInt8 = (last ? 0x4 : 0) | (start == 0 && headers.endStream ? 0x1 : 0)
                    frames.append(
                        RawFrameWriter.frame(type: start == 0 ? 0x1 : 0x9, flags: flags, stream: stream, payload: Array(block[start..<end]))
                    )
                    start = end
                }
                raw.send(frames)
            case .data(let body):
                guard case .byteBuffer(let bytes) = body.data else { break }
                raw.send([
                    RawFrameWriter.frame(
                        type: 0x0, flags: body.endStream ? 0x1 : 0, stream: stream, payload: Array(bytes.readableBytesView))
                ])
            default:
                break
            }
            promise?.succeed()
        }
    }

    /// Once its stream's answer has ended, sends GOAWAY naming that stream as the last the server processed, then closes
    /// the connection.
    final class ConnectionEndingHandler: ChannelOutboundHandler {
        typealias OutboundIn = HTTP2Frame.FramePayload

        private let stream: HTTP2StreamID
        init(stream: HTTP2StreamID) { self.stream = stream }

        func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
            let ends: Bool
            switch unwrapOutboundIn(data) {
            case .headers(let headers): ends = headers.endStream
            case .data(let body): ends = body.endStream
            default: ends = false
            }
            guard ends, let connection = context.channel.parent else {
                context.write(data, promise: promise)
                return
            }
            let written = context.writeAndFlush(data)
            written.cascade(to: promise)
            let last = stream
            written.whenComplete { _ in
                let frame = HTTP2Frame(streamID: .rootStream, payload: .goAway(lastStreamID: last, errorCode: .noError, opaqueData: nil))
                connection.writeAndFlush(frame).whenComplete { _ in connection.close(promise: nil) }
            }
        }
    }
#endif
