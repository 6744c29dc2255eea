#if NIO
    import NIOCore

    /// Unfolds obs-fold in response heads before NIOHTTP1's decoder (llhttp), which refuses it, reads them: between TLS
    /// (or the socket) and the decoder, it passes the bytes read through an ``ObsFoldUnfolder``.
    ///
    /// It learns that a response head is next from ``expectResponseHead()``, which ``HTTP1ClientHandler`` calls right
    /// before it writes each request head; never from the writes themselves, since an upload's body may still go out
    /// after an early answer's head arrived.
    final class ObsFoldUnfoldingHandler: ChannelInboundHandler, RemovableChannelHandler {
        typealias InboundIn = ByteBuffer
        typealias InboundOut = ByteBuffer

        private var unfolder = ObsFoldUnfolder()

        /// A request head is about to be written, so a response head is next. Called on the channel's event loop.
        func expectResponseHead() {
            unfolder.expectHead()
        }

        func channelRead(context: ChannelHandlerContext, data: NIOAny) {
            let buffer = unwrapInboundIn(data)
            switch unfolder.unfold(buffer.readableBytesUInt8Span) {
            case .unchanged:
                context.fireChannelRead(data)
            case .replaced(let bytes):
                // Empty when the whole read was held back; the read's channelReadComplete still goes on (this handler
                // does not stop it), so the handler at the tail asks for the next read as always.
                guard !bytes.isEmpty else { return }
                context.fireChannelRead(wrapInboundOut(context.channel.allocator.buffer(bytes: bytes)))
            }
        }

        func channelInactive(context: ChannelHandlerContext) {
            passOnHeldBytes(context: context)
            context.fireChannelInactive()
        }

        func handlerRemoved(context: ChannelHandlerContext) {
            passOnHeldBytes(context: context)
        }

        /// Passes on the bytes held back: a line break the connection's end followed is no fold.
        private func passOnHeldBytes(context: ChannelHandlerContext) {
            let held = unfolder.flush()
            guard !held.isEmpty else { return }
            context.fireChannelRead(wrapInboundOut(context.channel.allocator.buffer(bytes: held)))
        }
    }
#endif
