#if NIO
    import Foundation
    import NIOCore
    import NIOHTTP1
    import NIOPosix
    import NIOSSL
    import NIOTLS
    import RetroSwift

    /// Runs the calls of one connection, one at a time, on its event loop: writes the request, reads the response as
    /// far as its reader wants it, keeps the call's timeout and limits, and hands the connection back to the pool or
    /// closes it.
    ///
    /// Two state machines: the connection's (``State``: connecting, ready, idle, busy, closed) and, while busy, the
    /// exchange's (``Exchange/Response``: waiting for the head, receiving the body into a sink, complete).
    final class HTTP1ClientHandler: ChannelInboundHandler {
        typealias InboundIn = HTTPClientResponsePart
        typealias OutboundOut = HTTPClientRequestPart

        private enum State {
            /// Connecting, or in the TLS handshake, which a timer bounds.
            case connecting(handshakeTimer: Scheduled<Void>?)
            /// Reported to the pool, which has not handed it a call or kept it idle yet.
            case ready
            /// In the pool without a call since then, reading so as to see the server close it, until the idle timeout
            /// closes it.
            case idle(since: NIODeadline)
            /// Running a call.
            case busy(Exchange)
            /// Closed, or closing.
            case closed
        }

        private let origin: PooledOrigin
        private let key: OriginKey
        private let pool: ConnectionPool
        private let verdict: TrustVerdict
        private let compressedBytes: CompressedBodyCounter
        /// The handler before the decoder that unfolds obs-fold in response heads, told of each request head directly
        /// (it is on this channel, so on this event loop): a user event through the pipeline costs every handler a hop.
        private let unfolding: ObsFoldUnfoldingHandler?
        /// The HTTP/2 connection whose stream this handler runs one call on, or `nil` on an HTTP/1.1 connection. A
        /// stream is never handed back to the pool: it closes once its exchange ends, and its connection frees its slot.
        private let stream: HTTP2Connection?
        /// The stream's place on its connection, given back as soon as the exchange ends.
        private let slot: StreamSlot?
        private let report: @Sendable (Result<HTTP1Connection, NIOTransportFailure>) -> Void
        private var state = State.connecting(handshakeTimer: nil)
        private var context: ChannelHandlerContext?
        /// The connection the pool knows, from the moment it is ready until it closes.
        private var connection: HTTP1Connection?
        /// How many exchanges completed here: a failure on a connection that served one before may be the server
        /// closing it under us, and an idempotent request is then sent once more on a new one.
        private var served = 0
        /// The connection's one timer, for whatever is due first: the exchange's silence (no byte of the request taken
        /// by the connection, nor of the response arriving, for the call's timeout), the idle timeout. Scheduling and
        /// cancelling a timer per call costs allocations and a lock of the event loop's; this one is armed only when
        /// nothing is scheduled at or before the new deadline, and when it fires it checks what is due and arms itself
        /// again for what is not. With the same timeout on every call it is scheduled about once per timeout, however
        /// many calls the connection runs.
        private var timer: Scheduled<Void>?
        /// When ``timer`` fires.
        private var timerDeadline = NIODeadline.distantFuture
        /// Counts the timers armed, so that one cancelled too late to stop it does nothing when it runs.
        private var timerGeneration = 0

        init(
            origin: PooledOrigin, pool: ConnectionPool, verdict: TrustVerdict, compressedBytes: CompressedBodyCounter,
            unfolding: ObsFoldUnfoldingHandler?, stream: HTTP2Connection? = nil, slot: StreamSlot? = nil,
            report: @escaping @Sendable (Result<HTTP1Connection, NIOTransportFailure>) -> Void
        ) {
            self.origin = origin
            self.key = origin.key
            self.pool = pool
            self.verdict = verdict
            self.compressedBytes = compressedBytes
            self.unfolding = unfolding
            self.stream = stream
            self.slot = slot
            self.report = report
        }

        // MARK: Connecting

        func handlerAdded(context: ChannelHandlerContext) {
            self.context = context
        }

        func handlerRemoved(context: ChannelHandlerContext) {
            self.context = nil
        }

        func channelActive(context: ChannelHandlerContext) {
            guard case .connecting = state else { return }
            // A stream runs inside its connection's TLS, if any.
            guard key.isTLS, stream == nil else {
                becomeReady(context: context)
                return
            }
            // The handshake reads on its own once it has begun (SwiftNIO SSL asks for more while it has no plaintext);
            // this read begins it. The connect timeout bounds the handshake too.
            let timer = context.eventLoop.assumeIsolated().scheduleTask(in: pool.settings.connectTimeout) { [self] in
                guard case .connecting = state else { return }
                failConnecting(.timedOut)
            }
            state = .connecting(handshakeTimer: timer)
            context.read()
        }

        func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
            if case .connecting = state, let tlsEvent = event as? TLSUserEvent, case .handshakeCompleted = tlsEvent {
                becomeReady(context: context)
                return
            }
            context.fireUserInboundEventTriggered(event)
        }

        private func becomeReady(context: ChannelHandlerContext) {
            if case .connecting(let timer) = state { timer?.cancel() }
            state = .ready
            let connection = HTTP1Connection(channel: context.channel, origin: origin, handler: self)
            self.connection = connection
            // The pool answers at once, on this loop: it runs a call here, or keeps the connection idle.
            report(.success(connection))
        }

        private func failConnecting(_ failure: NIOTransportFailure) {
            if case .connecting(let timer) = state { timer?.cancel() }
            state = .closed
            report(.failure(verdict.isRefused ? .untrustedServer : failure))
            context?.close(promise: nil)
        }

        // MARK: The pool's orders

        /// Runs `call`; a connection that closed on its way here sends it back to the pool, nothing written.
        func start(_ call: NIOCall, on connection: HTTP1Connection) {
            switch state {
            case .ready, .idle:
                if let stream, let context, !context.channel.isActive {
                    // The stream closed before its request could go: its connection ended (a server closes after a
                    // GOAWAY, as nginx does every 1,000 requests) between the stream's opening and now. Nothing of the
                    // call reached the server, so it goes again, whatever its method, and the connection takes no new
                    // stream.
                    pool.goingAway(stream)
                    if !call.isCancelled { pool.lease(call) }
                    return
                }
            case .connecting, .busy, .closed:
                // Nothing of it was written, so any request may go again, on another connection.
                if !call.isCancelled { pool.lease(call) }
                return
            }
            guard let context, call.run(on: connection) else {
                // Cancelled or timed out on its way here: the connection is as good as it was (a stream, unused, closes).
                if stream != nil, let context {
                    close(context: context)
                    return
                }
                state = .ready
                pool.release(connection)
                return
            }
            let exchange = Exchange(call: call, reused: served > 0, now: .now(), eventLoop: context.eventLoop)
            state = .busy(exchange)
            write(exchange, context: context)
            // The request is on its way: the silence counts from now, each byte either way starting it again.
            arm(at: exchange.lastActivity + call.request.timeout, context: context)
            context.read()
        }

        /// The calling task cancelled `call`; if it runs here, the connection closes at once.
        func abandon(_ call: NIOCall) {
            guard case .busy(let exchange) = state, exchange.call === call else { return }
            fail(exchange, .cancelled)
        }

        /// The pool keeps this connection: it reads, to see the server close it, until the idle timeout closes it.
        func becomeIdle(_ connection: HTTP1Connection) {
            guard case .ready = state, let context else { return }
            let now = NIODeadline.now()
            state = .idle(since: now)
            arm(at: now + pool.settings.idleTimeout, context: context)
            context.read()
        }

        // MARK: The request

        private func write(_ exchange: Exchange, context: ChannelHandlerContext) {
            let request = exchange.call.request
            // The bytes read from now on are a response head, which the unfolder of obs-fold reads.
            unfolding?.expectResponseHead()
            context.write(
                wrapOutboundOut(
                    .head(
                        HTTPRequestHead(
                            version: .http1_1, method: request.method, uri: request.target, headers: request.headers))), promise: nil)
            switch request.body {
            case .none:
                context.writeAndFlush(wrapOutboundOut(.end(nil)), promise: nil)
                exchange.requestSent = true
            case .bytes(let buffer):
                let progress = request.progress
                guard progress != nil || buffer.readableBytes > Self.uploadSlice else {
                    // Head, body and end in one flush: the socket takes them at once.
                    context.write(wrapOutboundOut(.body(.byteBuffer(buffer))), promise: nil)
                    context.writeAndFlush(wrapOutboundOut(.end(nil)), promise: nil)
                    exchange.requestSent = true
                    return
                }
                // Observed, or larger than the socket takes at once: in slices, each one the connection takes starting
                // the silence again (a slow reader of a long upload is not a silent server), and reported.
                let length = Int64(buffer.readableBytes)
                var rest = buffer
                var sent: Int64 = 0
                while rest.readableBytes > 0, let slice = rest.readSlice(length: min(rest.readableBytes, Self.uploadSlice)) {
                    sent += Int64(slice.readableBytes)
                    let promise = context.eventLoop.makePromise(of: Void.self)
                    let reached = sent
                    promise.futureResult.assumeIsolated().whenSuccess {
                        exchange.lastActivity = .now()
                        progress?.reportUpload(completed: reached, expected: length)
                    }
                    context.write(wrapOutboundOut(.body(.byteBuffer(slice))), promise: promise)
                }
                context.writeAndFlush(wrapOutboundOut(.end(nil)), promise: nil)
                exchange.requestSent = true
            case .file(let length, let makeSource):
                context.flush()
                request.progress?.reportUpload(completed: 0, expected: length)
                pump(makeSource(), exchange: exchange, sent: 0, length: length)
            case .stream(let length, let chunks):
                context.flush()
                request.progress?.reportUpload(completed: 0, expected: length)
                pump(chunks, exchange: exchange, length: length, context: context)
            }
        }

        /// Sends a body of asynchronous chunks: a task (only bodies of this kind have one) iterates the sequence, and
        /// each chunk is written on the event loop, the next one asked for only once the connection has taken it, so at
        /// most one chunk is in memory and a slow server slows the producer. The task ends with the exchange.
        private func pump(
            _ chunks: HTTPRequestBodyStream, exchange: Exchange, length: Int64?, context: ChannelHandlerContext
        ) {
            let eventLoop = context.eventLoop
            let bound = NIOLoopBound((self, exchange), eventLoop: eventLoop)
            let progress = exchange.call.request.progress
            exchange.upload = Task {
                var sent: Int64 = 0
                do {
                    for try await chunk in chunks {
                        sent += Int64(chunk.count)
                        if let length, sent > length { throw NIOTransportFailure.bodyLengthMismatch(expected: length, sent: sent) }
                        // An empty chunk would end a chunked body early: it is skipped.
                        guard !chunk.isEmpty else { continue }
                        try await eventLoop.flatSubmit { bound.value.0.writeUploadChunk(chunk, bound.value.1) }.get()
                        progress?.reportUpload(completed: sent, expected: length)
                    }
                    if let length, sent != length { throw NIOTransportFailure.bodyLengthMismatch(expected: length, sent: sent) }
                    eventLoop.execute { bound.value.0.endUpload(bound.value.1) }
                } catch {
                    eventLoop.execute { bound.value.0.uploadFailed(bound.value.1, error) }
                }
            }
        }

        /// Writes one chunk of a streamed body; the future completes once the connection took it, and fails when the
        /// exchange is over (the pump then stops).
        private func writeUploadChunk(_ chunk: Data, _ exchange: Exchange) -> EventLoopFuture<Void> {
            guard case .busy(let current) = state, current === exchange, let context else {
                return exchange.eventLoop.makeFailedFuture(CancellationError())
            }
            let written = context.eventLoop.makePromise(of: Void.self)
            context.writeAndFlush(wrapOutboundOut(.body(.byteBuffer(ByteBuffer(bytes: chunk)))), promise: written)
            // Taken by the connection: the request is moving, and its silence starts again.
            return written.futureResult.assumeIsolated().map { exchange.lastActivity = .now() }.nonisolated()
        }

        /// The streamed body ended as it should: the request is whole.
        private func endUpload(_ exchange: Exchange) {
            exchange.upload = nil
            guard case .busy(let current) = state, current === exchange, let context else { return }
            context.writeAndFlush(wrapOutboundOut(.end(nil)), promise: nil)
            exchange.requestSent = true
        }

        /// The streamed body failed (its sequence threw, or did not add up to its length): the half-sent request cannot
        /// go on.
        private func uploadFailed(_ exchange: Exchange, _ error: any Error) {
            exchange.upload = nil
            guard case .busy(let current) = state, current === exchange else { return }
            fail(exchange, (error as? NIOTransportFailure) ?? .refused(error))
        }

        /// Sends the body from `source` chunk by chunk: each is read on the thread pool, written, and the next read only
        /// once the connection has taken it, so at most one chunk is in memory.
        private func pump(_ source: BlockingChunkSource, exchange: Exchange, sent: Int64, length: Int64?) {
            guard let context else { return }
            let read = NIOThreadPool.singleton.runIfActive(eventLoop: context.eventLoop) { try source.next() }
            read.assumeIsolated().whenComplete { [self] result in
                guard case .busy(let current) = state, current === exchange, let context = self.context else { return }
                switch result {
                case .success(.some(let chunk)):
                    let total = sent + Int64(chunk.count)
                    let written = context.eventLoop.makePromise(of: Void.self)
                    context.writeAndFlush(wrapOutboundOut(.body(.byteBuffer(ByteBuffer(bytes: chunk)))), promise: written)
                    written.futureResult.assumeIsolated().whenSuccess { [self] in
                        exchange.lastActivity = .now()
                        exchange.call.request.progress?.reportUpload(completed: total, expected: length)
                        pump(source, exchange: exchange, sent: total, length: length)
                    }
                case .success(.none):
                    context.writeAndFlush(wrapOutboundOut(.end(nil)), promise: nil)
                    exchange.requestSent = true
                case .failure(let error):
                    // The body's own file could not be read: the half-sent request cannot go on.
                    fail(exchange, .refused(error))
                }
            }
        }

        // MARK: The response

        func channelRead(context: ChannelHandlerContext, data: NIOAny) {
            guard case .busy(let exchange) = state else {
                // Bytes nobody asked for (a body after a 204, say): the connection cannot be trusted with another call.
                close(context: context)
                return
            }
            exchange.receivedAny = true
            switch unwrapInboundIn(data) {
            case .head(let head): receive(head, exchange, context: context)
            case .body(let buffer): receive(buffer, exchange)
            case .end: complete(exchange)
            }
        }

        private func receive(_ head: HTTPResponseHead, _ exchange: Exchange, context: ChannelHandlerContext) {
            // Over HTTP/2 an interim answer (100 Continue, 103 Early Hints) reaches the handler as a head of its own;
            // HTTP/1.1's decoder drops them before it. The final answer follows on the same stream.
            if stream != nil, (100..<200).contains(head.status.code), head.status != .switchingProtocols { return }
            guard case .awaitingHead = exchange.response else {
                fail(exchange, .malformed(.unknown))
                return
            }
            // No request of RetroSwift's asks to switch protocols, and after a 101 the parser reads no more HTTP: the
            // call fails, and the connection, which now speaks something else, closes with it.
            if head.status == .switchingProtocols {
                fail(exchange, .malformed(.invalidStatus))
                return
            }
            let request = exchange.call.request
            let checked: CheckedHead
            do {
                checked = try request.policy.checkHead(head)
            } catch {
                fail(exchange, .refused(error))
                return
            }
            let status = Int(head.status.code)
            exchange.keepAlive = head.isKeepAlive
            exchange.lastActivity = .now()
            let isSuccess = (200..<300).contains(status)
            let contentLength = head.headers.first(name: "Content-Length").flatMap { Int64($0) }
            let encoding = head.headers.first(name: "Content-Encoding")?.lowercased()
            if encoding == "gzip" || encoding == "deflate", contentLength == nil {
                // Decompressed by the pipeline without a length to hold it to: the handler holds it to the call's ratio.
                exchange.ratioGuard = request.decompressionRatio
            }
            if isSuccess, let progress = request.progress {
                exchange.download = DownloadProgress(reporter: progress, expected: contentLength)
            }
            let sink: BodySink
            switch request.destination {
            case .stream where isSuccess:
                let bound = NIOLoopBound((self, exchange), eventLoop: context.eventLoop)
                let eventLoop = context.eventLoop
                let (stream, writer) = HTTPBodyStream.makeStream {
                    eventLoop.execute { bound.value.0.readerLeft(bound.value.1) }
                }
                writer.onDemand { eventLoop.execute { bound.value.0.readerCaughtUp(bound.value.1) } }
                sink = .stream(StreamSink(writer: writer))
                exchange.call.finish(.success(NIOResponse(status: status, headers: checked.headers, body: .stream(stream))))
            case .file(let directory) where isSuccess:
                let bound = NIOLoopBound((self, exchange), eventLoop: context.eventLoop)
                sink = .file(
                    FileSink(directory: directory, eventLoop: context.eventLoop) {
                        bound.value.0.fileCaughtUp(bound.value.1)
                    })
            default:
                // Collected straight into the `Data` RetroSwift takes: one allocation and one copy of each part.
                let capacity = contentLength.map { Int(clamping: min($0, 1 << 20)) } ?? 0
                sink = .memory(MemorySink(capacity: capacity))
            }
            exchange.response = .receiving(sink, budget: checked.budget, status: status, headers: checked.headers)
            // The body's silence timer is armed when this read ends with the body still arriving: a small response
            // whole in one read (most of them) schedules no second timer.
        }

        private func receive(_ buffer: ByteBuffer, _ exchange: Exchange) {
            guard case .receiving(let sink, var budget, let status, let headers) = exchange.response else { return }
            let size = buffer.readableBytes
            do {
                try budget.add(size)
            } catch {
                fail(exchange, .refused(error))
                return
            }
            exchange.response = .receiving(sink, budget: budget, status: status, headers: headers)
            if let ratio = exchange.ratioGuard {
                let (product, overflow) = compressedBytes.count.multipliedReportingOverflow(by: max(ratio, 1))
                // The same floor as RetroSwift's own check: small, repetitive bodies compress very well.
                if !overflow && budget.count > max(product, 64 << 10) {
                    fail(exchange, .decompressionRatioExceeded(ratio: ratio, compressedBytes: compressedBytes.count))
                    return
                }
            }
            exchange.lastActivity = .now()
            exchange.download?.add(size)
            switch sink {
            case .memory(let memory):
                memory.append(buffer)
            case .stream(let stream):
                // Offered as it arrives, in order: what came before a failure reaches the reader before the error.
                if !stream.writer.offer(Data(buffer.readableBytesView)) { stream.paused = true }
            case .file(let file):
                file.append(buffer)
            }
        }

        private func complete(_ exchange: Exchange) {
            guard case .receiving(let sink, _, let status, let headers) = exchange.response else {
                fail(exchange, .malformed(.unknown))
                return
            }
            exchange.response = .complete
            let download = exchange.download
            switch sink {
            case .memory(let memory):
                download?.finish()
                // Held until the connection is back in the pool (``deliverHeldEnd(_:)``): a caller resumed now would
                // find it still busy, and its next call would open a connection of its own.
                exchange.heldAnswer = NIOResponse(status: status, headers: headers, body: .bytes(memory.data))
            case .stream(let stream):
                download?.finish()
                exchange.heldStreamEnd = stream.writer
            case .file(let file):
                let call = exchange.call
                file.finish { result in
                    switch result {
                    case .success(let url):
                        download?.finish()
                        // A call cancelled while the file was being closed never sees it: nobody else would delete it.
                        if !call.finish(.success(NIOResponse(status: status, headers: headers, body: .file(url)))) {
                            try? FileManager.default.removeItem(at: url)
                        }
                    case .failure(let error):
                        call.finish(.failure(NIOTransportFailure.refused(error)))
                    }
                }
            }
        }

        func channelReadComplete(context: ChannelHandlerContext) {
            switch state {
            case .busy(let exchange):
                if case .complete = exchange.response {
                    // Handed back only now that every byte of this read was parsed: bytes past the response (a body
                    // after a 204) show up as an error first, and close the connection instead.
                    finishExchange(exchange, context: context)
                } else {
                    if case .receiving = exchange.response {
                        // The body's silence is bounded from its last byte; usually the timer armed for the head is
                        // due earlier already, and this costs one comparison.
                        arm(at: exchange.lastActivity + exchange.call.request.timeout, context: context)
                    }
                    if exchange.wantsRead { context.read() }
                }
            case .idle, .ready:
                context.read()
            case .connecting, .closed:
                break
            }
            context.fireChannelReadComplete()
        }

        /// The exchange is over: the connection goes back to the pool if it can take another request.
        private func finishExchange(_ exchange: Exchange, context: ChannelHandlerContext) {
            // The server answered before the streamed body ended: the rest is not wanted (and the connection closes).
            exchange.upload?.cancel()
            if stream != nil, exchange.requestSent {
                // Both sides ended the stream: swift-nio-http2 closes its channel itself, where closing it now would
                // send a needless RST_STREAM (which servers count against a client, as in rapid-reset floods).
                cancelTimer()
                state = .closed
                slot?.release()
                deliverHeldEnd(exchange)
                return
            }
            // A stream serves one exchange: it closes (with RST_STREAM when the request was not whole).
            guard exchange.keepAlive, exchange.requestSent, let connection, stream == nil else {
                close(context: context)
                deliverHeldEnd(exchange)
                return
            }
            served += 1
            state = .ready
            pool.release(connection)
            deliverHeldEnd(exchange)
        }

        /// Hands the caller the end of a response held back until the connection was back in the pool, or closing: the
        /// answer in memory, or the end of a stream.
        private func deliverHeldEnd(_ exchange: Exchange) {
            if let answer = exchange.heldAnswer {
                exchange.heldAnswer = nil
                exchange.call.finish(.success(answer))
            }
            if let writer = exchange.heldStreamEnd {
                exchange.heldStreamEnd = nil
                writer.finish()
            }
        }

        // MARK: The reader's pace

        /// The stream's reader caught up: reading resumes.
        private func readerCaughtUp(_ exchange: Exchange) {
            guard case .busy(let current) = state, current === exchange,
                case .receiving(.stream(let stream), _, _, _) = exchange.response, stream.paused
            else { return }
            stream.paused = false
            exchange.lastActivity = .now()
            context?.read()
        }

        /// The stream's reader went away before its end: the rest of the body is not wanted, so the connection closes.
        private func readerLeft(_ exchange: Exchange) {
            guard case .busy(let current) = state, current === exchange else { return }
            fail(exchange, .cancelled)
        }

        /// The file caught up with the body: reading resumes.
        private func fileCaughtUp(_ exchange: Exchange) {
            guard case .busy(let current) = state, current === exchange, exchange.wantsRead else { return }
            exchange.lastActivity = .now()
            context?.read()
        }

        // MARK: Timing

        /// The largest piece of a body in memory written at once: each one the connection takes is progress for the
        /// timeout and for an observer.
        static let uploadSlice = 64 << 10

        /// Makes sure ``timer`` fires at `deadline` or before; a timer due earlier already stays as it is.
        private func arm(at deadline: NIODeadline, context: ChannelHandlerContext) {
            if timer != nil, timerDeadline <= deadline { return }
            timer?.cancel()
            timerDeadline = deadline
            timerGeneration &+= 1
            let generation = timerGeneration
            timer = context.eventLoop.assumeIsolated().scheduleTask(deadline: deadline) { [self] in
                guard generation == timerGeneration else { return }
                timer = nil
                timerDeadline = .distantFuture
                timerFired()
            }
        }

        /// Checks what is due: an exchange silent for the call's timeout — no byte of the request taken, nor of the
        /// response arrived, while the transport waited for the network (a reader or a file that is behind is not the
        /// server's silence) — or a connection idle for the idle timeout; arms the timer again for what is still to come.
        private func timerFired() {
            guard let context else { return }
            let now = NIODeadline.now()
            switch state {
            case .busy(let exchange):
                let timeout = exchange.call.request.timeout
                switch exchange.response {
                case .awaitingHead, .receiving:
                    if !exchange.isWaitingForNetwork {
                        arm(at: now + timeout, context: context)
                    } else if now - exchange.lastActivity >= timeout {
                        fail(exchange, .timedOut)
                    } else {
                        arm(at: exchange.lastActivity + timeout, context: context)
                    }
                case .complete:
                    break
                }
            case .idle(let since):
                let idleTimeout = pool.settings.idleTimeout
                if now - since >= idleTimeout {
                    if let connection { pool.closeIfIdle(connection) }
                } else {
                    arm(at: since + idleTimeout, context: context)
                }
            case .connecting, .ready, .closed:
                break
            }
        }

        // MARK: Failures

        func errorCaught(context: ChannelHandlerContext, error: any Error) {
            switch state {
            case .connecting:
                failConnecting(NIOTransportFailure.classify(error, connecting: true))
            case .busy(let exchange):
                if case .complete = exchange.response {
                    close(context: context)
                    deliverHeldEnd(exchange)
                } else if let stream, case .awaitingHead = exchange.response, stream.wasNeverProcessed(error),
                    exchange.call.prepareRetry(neverProcessed: true)
                {
                    // The server refused the stream, or left it above a GOAWAY's last stream id: it processed nothing,
                    // so the call, whatever its method, goes again on another connection.
                    exchange.upload?.cancel()
                    exchange.upload = nil
                    exchange.response = .complete
                    close(context: context)
                    pool.lease(exchange.call)
                } else {
                    fail(exchange, NIOTransportFailure.classify(error, connecting: false))
                }
            case .ready, .idle:
                close(context: context)
            case .closed:
                break
            }
        }

        func channelInactive(context: ChannelHandlerContext) {
            switch state {
            case .connecting:
                failConnecting(.connectionLost(ChannelError.eof))
            case .busy(let exchange):
                if case .complete = exchange.response {
                    state = .closed
                    deliverHeldEnd(exchange)
                } else if let stream, case .awaitingHead = exchange.response,
                    stream.wasNeverProcessed(closedStream: context.channel), exchange.call.prepareRetry(neverProcessed: true)
                {
                    // Closed with its connection, above the last stream id of the server's GOAWAY: the server processed
                    // nothing of it, so the call, whatever its method, goes again on another connection.
                    exchange.upload?.cancel()
                    exchange.upload = nil
                    exchange.response = .complete
                    state = .closed
                    pool.lease(exchange.call)
                } else {
                    fail(exchange, .connectionLost(ChannelError.eof))
                }
            case .ready, .idle:
                state = .closed
            case .closed:
                break
            }
            cancelTimer()
            if let connection {
                self.connection = nil
                if stream == nil { pool.remove(connection) }
            }
            context.fireChannelInactive()
        }

        /// Fails the exchange with `failure` and closes the connection; an idempotent request whose reused connection
        /// failed before any byte of the answer goes once more, on a new connection.
        private func fail(_ exchange: Exchange, _ failure: NIOTransportFailure) {
            // A body still being produced is not wanted any more.
            exchange.upload?.cancel()
            exchange.upload = nil
            let call = exchange.call
            switch exchange.response {
            case .awaitingHead:
                if exchange.mayRetry(after: failure), call.prepareRetry() {
                    pool.lease(call, freshConnection: true)
                } else {
                    call.finish(.failure(failure))
                }
            case .receiving(let sink, _, _, _):
                switch sink {
                case .memory: call.finish(.failure(failure))
                case .stream(let stream):
                    if case .cancelled = failure {
                        stream.writer.finish(throwing: CancellationError())
                    } else {
                        stream.writer.finish(throwing: call.request.policy.translate(failure))
                    }
                case .file(let file):
                    file.fail()
                    call.finish(.failure(failure))
                }
            case .complete:
                // The response was whole (bytes past it, or a cancellation, came before it was handed over): the
                // caller gets it, and the connection closes.
                deliverHeldEnd(exchange)
            }
            exchange.response = .complete
            if let context { close(context: context) } else { state = .closed }
        }

        private func close(context: ChannelHandlerContext) {
            cancelTimer()
            state = .closed
            context.close(promise: nil)
        }

        private func cancelTimer() {
            timer?.cancel()
            timer = nil
            timerDeadline = .distantFuture
            timerGeneration &+= 1
        }
    }

    /// One request and its response on a connection.
    final class Exchange {
        /// Where the response stands.
        enum Response {
            case awaitingHead
            case receiving(BodySink, budget: ResponseBodyBudget, status: Int, headers: HTTPHeaderFields)
            case complete
        }

        let call: NIOCall
        /// Whether the connection served a request before this one.
        let reused: Bool
        var response = Response.awaitingHead
        /// Whether the whole request went out.
        var requestSent = false
        /// Whether any part of a response arrived.
        var receivedAny = false
        /// Whether the response lets the connection serve another request.
        var keepAlive = true
        /// A whole response in memory, held until the connection is back in the pool or closing.
        var heldAnswer: NIOResponse?
        /// The writer of a whole streamed response, finished once the connection is back in the pool or closing.
        var heldStreamEnd: HTTPBodyStream.Writer?
        /// When the exchange last moved: it started, the connection took a slice of the request body, a byte of the
        /// response arrived, or the reader caught up. The call's timeout bounds the silence since.
        var lastActivity: NIODeadline
        /// The call's decompression ratio, for a compressed body without a `Content-Length`.
        var ratioGuard: Int?
        var download: DownloadProgress?
        /// The task sending a streamed request body, while it runs.
        var upload: Task<Void, Never>?
        /// The loop the exchange runs on.
        let eventLoop: any EventLoop

        init(call: NIOCall, reused: Bool, now: NIODeadline, eventLoop: any EventLoop) {
            self.call = call
            self.reused = reused
            self.lastActivity = now
            self.eventLoop = eventLoop
        }

        /// Whether the socket should be read: not while a stream's reader or the file is behind.
        var wantsRead: Bool {
            switch response {
            case .awaitingHead: true
            case .receiving(.stream(let stream), _, _, _): !stream.paused
            case .receiving(.file(let file), _, _, _): !file.isBehind
            case .receiving(.memory, _, _, _): true
            case .complete: false
            }
        }

        /// Whether the body's silence is the server's: false while the reader or the file is behind.
        var isWaitingForNetwork: Bool {
            wantsRead
        }

        /// Whether a failure before any byte of the answer, on a connection that served a request before, may be the
        /// server having closed it as the request went out: an idempotent request is then sent once more (RFC 9110
        /// §9.2.2). Never a `POST`, and never after a timeout or a cancellation.
        func mayRetry(after failure: NIOTransportFailure) -> Bool {
            guard reused, !receivedAny, call.request.isIdempotent, !call.isRetry else { return false }
            switch failure {
            case .connectionLost, .malformed: return true
            default: return false
            }
        }
    }

    /// Where a response body goes.
    enum BodySink {
        case memory(MemorySink)
        case stream(StreamSink)
        case file(FileSink)
    }

    /// A body kept in memory: the bytes the parts are appended to, in a class so that appending never copies them.
    final class MemorySink {
        private(set) var data: Data

        init(capacity: Int) {
            data = Data(capacity: capacity)
        }

        func append(_ buffer: ByteBuffer) {
            buffer.withUnsafeReadableBytes { bytes in
                guard let base = bytes.baseAddress, !bytes.isEmpty else { return }
                data.append(base.assumingMemoryBound(to: UInt8.self), count: bytes.count)
            }
        }
    }

    /// A body handed to a stream's reader, and whether reading waits for it.
    final class StreamSink {
        let writer: HTTPBodyStream.Writer
        var paused = false

        init(writer: HTTPBodyStream.Writer) {
            self.writer = writer
        }
    }

    /// Counts a 2xx body for a progress observer.
    struct DownloadProgress {
        let reporter: TransferProgressReporter
        let expected: Int64?
        private var received: Int64 = 0

        init(reporter: TransferProgressReporter, expected: Int64?) {
            self.reporter = reporter
            self.expected = expected
            reporter.reportDownload(completed: 0, expected: expected)
        }

        mutating func add(_ count: Int) {
            received += Int64(count)
            reporter.reportDownload(completed: received, expected: expected)
        }

        func finish() {
            reporter.finishDownload(total: received)
        }
    }
#endif
