#if NIO
    import NIOCore
    import NIOHPACK
    import NIOHTTP1
    import NIOHTTP2

    /// A rule of HTTP/2 that NIOTransport breaks on purpose: set only by the mutants that prove an `http2/` conformance
    /// case can fail (reached through `@testable import`), where no wrapper around the transport can break the rule.
    enum HTTP2Fault: Sendable {
        /// Leaves `SETTINGS_ENABLE_PUSH` out of the client's SETTINGS, so that push stays allowed (RFC 9113 §6.5.2).
        case allowsPush
        /// Takes no CONTINUATION frame: a header block split over several frames is a connection error.
        case refusesContinuation
        /// Fails a response whose stream ends with a HEADERS frame of trailer fields.
        case failsOnTrailers
        /// Puts `Connection: keep-alive` back into each request's HEADERS, after the codec dropped the app's.
        case sendsConnectionFields
        /// Keeps handing out a connection after the server sent GOAWAY on it or closed it.
        case ignoresConnectionEnd
    }

    /// ``HTTP2Fault/sendsConnectionFields``: adds a connection-specific field to the HEADERS of a request.
    final class ConnectionFieldAddingHandler: ChannelOutboundHandler {
        typealias OutboundIn = HTTP2Frame.FramePayload
        typealias OutboundOut = HTTP2Frame.FramePayload

        func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
            guard case .headers(var headers) = unwrapOutboundIn(data) else {
                context.write(data, promise: promise)
                return
            }
            headers.headers.add(name: "connection", value: "keep-alive")
            context.write(wrapOutboundOut(.headers(headers)), promise: promise)
        }
    }

    /// ``HTTP2Fault/failsOnTrailers``: turns a response's trailer fields into an error.
    final class TrailerRefusingHandler: ChannelInboundHandler {
        typealias InboundIn = HTTPClientResponsePart
        typealias InboundOut = HTTPClientResponsePart

        struct TrailersRefused: Error {}

        func channelRead(context: ChannelHandlerContext, data: NIOAny) {
            if case .end(.some) = unwrapInboundIn(data) {
                context.fireErrorCaught(TrailersRefused())
                return
            }
            context.fireChannelRead(data)
        }
    }
#endif
