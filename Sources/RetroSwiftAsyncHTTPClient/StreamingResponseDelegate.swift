#if AsyncHTTPClient
    import AsyncHTTPClient
    import Foundation
    import NIOConcurrencyHelpers
    import NIOCore
    import NIOHTTP1
    @_spi(Transport) import RetroSwift

    /// Receives the response of a call that asked for its body as a stream, on the connection's event loop.
    ///
    /// A 2xx body goes to an ``HTTPBodyStream`` part by part, each offered the moment async-http-client parses it:
    /// never through a task, which the cooperative pool may not run in time, since async-http-client discards the parts
    /// it has read but not handed over when the connection then fails (a reader busy for a moment lost an event that
    /// had arrived before the connection dropped). While the reader is a buffer behind, the part's future stays pending,
    /// so async-http-client stops reading the socket until the reader catches up.
    ///
    /// The call returns at the head of a 2xx response; any other status's body is collected in memory and returned
    /// whole. The timeout bounds the wait for the head, and then each silence of the body while the reader waits, by
    /// timers on the event loop: no task per call.
    final class StreamingResponseDelegate: HTTPClientResponseDelegate, Sendable {
        typealias Response = Void
        typealias Continuation = CheckedContinuation<HttpOperationResult, any Error>

        private enum State {
            /// The head has not arrived; the call waits on the continuation, once `start` has set it.
            case waitingForHead(Continuation?)
            /// A 2xx body streams to `writer`; `demand` is pending while the reader is a buffer behind.
            case streaming(Streaming)
            /// Another status's body is collected, and the call returns once it is whole.
            case collecting(Collecting)
            /// The call and its body are over.
            case finished
        }

        private struct Streaming {
            var writer: HTTPBodyStream.Writer
            var budget: ResponseBodyBudget
            var demand: EventLoopPromise<Void>?
            var lastActivity: NIODeadline
            /// Counts the body for a progress observer, when there is one.
            var counter: DownloadCounter?
        }

        private struct Collecting {
            var continuation: Continuation?
            var result: HttpOperationResult
            var body: ByteBuffer
            var budget: ResponseBodyBudget
        }

        private struct Shared {
            var state: State = .waitingForHead(nil)
            var task: HTTPClient.Task<Void>?
            var timer: Scheduled<Void>?
            /// The calling task was cancelled, or the reader went away: the errors that follow are a cancellation.
            var cancelled = false
            /// The last URL a client of the user's redirected to, when it followed redirects itself; RetroSwift fills in
            /// the one requested otherwise.
            var redirectedTo: URL?
            var sent: Int64 = 0
        }

        private let shared: NIOLockedValueBox<Shared>
        private let params: HttpRequestParams
        private let timeout: TimeAmount
        private let uploadLength: Int64?
        private let translate: @Sendable (any Error) -> any Error

        init(params: HttpRequestParams, timeout: TimeAmount, translate: @escaping @Sendable (any Error) -> any Error) {
            self.params = params
            self.timeout = timeout
            self.translate = translate
            self.uploadLength = try? params.body?.length()
            shared = NIOLockedValueBox(Shared())
        }

        /// Sends `request` through `client` and returns at the head of a 2xx response, or with the whole body of another.
        ///
        /// Errors before the body streams come as async-http-client throws them; those of a streaming body are
        /// `translate`d. An idempotent request is sent once more on a new connection when the pooled one it was given
        /// turns out closed before the request went out (RFC 9110 §9.2.2), within the same deadline for the head.
        static func send(
            _ request: HTTPClient.Request, params: HttpRequestParams, through client: HTTPClient, timeout: TimeAmount,
            translate: @escaping @Sendable (any Error) -> any Error
        ) async throws -> HttpOperationResult {
            let headDeadline = NIODeadline.now() + timeout
            func attempt() async throws -> HttpOperationResult {
                let delegate = StreamingResponseDelegate(params: params, timeout: timeout, translate: translate)
                return try await withTaskCancellationHandler {
                    try await withCheckedThrowingContinuation { continuation in
                        delegate.start(continuation)
                        delegate.attach(
                            client.execute(request: request, delegate: delegate, eventLoop: .indifferent, deadline: nil),
                            headDeadline: headDeadline)
                    }
                } onCancel: {
                    delegate.cancel()
                }
            }
            do {
                return try await attempt()
            } catch ChannelError.ioOnClosedChannel where params.method.isIdempotent {
                return try await attempt()
            }
        }

        private func start(_ continuation: Continuation) {
            shared.withLockedValue { $0.state = .waitingForHead(continuation) }
        }

        /// Keeps the task, to cancel it, and times the wait for the head on its event loop.
        private func attach(_ task: HTTPClient.Task<Void>, headDeadline: NIODeadline) {
            let cancelled = shared.withLockedValue { shared in
                shared.task = task
                if case .waitingForHead = shared.state {
                    shared.timer = task.eventLoop.scheduleTask(deadline: headDeadline) { self.headTimedOut() }
                }
                return shared.cancelled
            }
            if cancelled { task.cancel() }
        }

        /// The calling task was cancelled before the head, or the reader left the stream.
        private func cancel() {
            let task = shared.withLockedValue { shared in
                shared.cancelled = true
                return shared.task
            }
            task?.cancel()
        }

        private func headTimedOut() {
            let (continuation, task) = shared.withLockedValue { shared -> (Continuation?, HTTPClient.Task<Void>?) in
                guard case .waitingForHead(let continuation) = shared.state else { return (nil, nil) }
                shared.state = .finished
                return (continuation, shared.task)
            }
            continuation?.resume(throwing: URLError(.timedOut))
            task?.cancel()
        }

        // MARK: The request

        func didSendRequestPart(task: HTTPClient.Task<Void>, _ part: IOData) {
            guard let progress = params.progress else { return }
            let sent = shared.withLockedValue { shared in
                shared.sent += Int64(part.readableBytes)
                return shared.sent
            }
            progress.reportUpload(completed: sent, expected: uploadLength)
        }

        func didVisitURL(task: HTTPClient.Task<Void>, _ request: HTTPClient.Request, _ head: HTTPResponseHead) {
            shared.withLockedValue { $0.redirectedTo = request.url }
        }

        // MARK: The response

        func didReceiveHead(task: HTTPClient.Task<Void>, _ head: HTTPResponseHead) -> EventLoopFuture<Void> {
            let status = Int(head.status.code)
            let headers = HTTPHeaderFields(head.headers.map { HTTPHeader(name: $0.name, value: $0.value) })
            let (continuation, url) = shared.withLockedValue { shared -> (Continuation?, URL?) in
                shared.timer?.cancel()
                shared.timer = nil
                guard case .waitingForHead(let continuation) = shared.state else { return (nil, nil) }
                shared.state = .finished
                return (continuation, shared.redirectedTo)
            }
            guard let continuation else { return task.eventLoop.makeSucceededVoidFuture() }
            var result = HttpOperationResult(statusCode: status, headers: headers, url: url)
            let budget: ResponseBodyBudget
            do {
                // The head is refused here, before a byte of its body is read: a broken one, or one announcing a body
                // over the call's limits.
                budget = try ResponseBodyBudget(for: params, statusCode: status, headers: headers)
            } catch {
                continuation.resume(throwing: error)
                task.cancel()
                return task.eventLoop.makeSucceededVoidFuture()
            }
            guard (200..<300).contains(status) else {
                shared.withLockedValue { shared in
                    shared.state = .collecting(Collecting(continuation: continuation, result: result, body: ByteBuffer(), budget: budget))
                }
                return task.eventLoop.makeSucceededVoidFuture()
            }
            let (stream, writer) = HTTPBodyStream.makeStream { [weak self] in self?.cancel() }
            // Set before the first part is offered: a reader that catches up between a full offer and the promise
            // being kept finds the promise once the lock is free (`resumeReading` waits for it).
            writer.onDemand { [weak self] in self?.resumeReading() }
            let counter = params.progress.map { DownloadCounter(progress: $0, expected: headers["Content-Length"].flatMap { Int64($0) }) }
            shared.withLockedValue { shared in
                shared.state = .streaming(Streaming(writer: writer, budget: budget, lastActivity: .now(), counter: counter))
                shared.timer = task.eventLoop.scheduleTask(in: timeout) { self.checkSilence() }
            }
            result.body = .stream(stream)
            continuation.resume(returning: result)
            return task.eventLoop.makeSucceededVoidFuture()
        }

        func didReceiveBodyPart(task: HTTPClient.Task<Void>, _ buffer: ByteBuffer) -> EventLoopFuture<Void> {
            enum Next {
                case read(DownloadCounter?)
                case wait(EventLoopPromise<Void>, DownloadCounter?)
                case stop(HTTPBodyStream.Writer?, Continuation?, any Error)
            }
            let size = buffer.readableBytes
            let next = shared.withLockedValue { shared -> Next in
                switch shared.state {
                case .streaming(var streaming):
                    do {
                        try streaming.budget.add(size)
                    } catch {
                        shared.state = .finished
                        return .stop(streaming.writer, nil, error)
                    }
                    streaming.lastActivity = .now()
                    // Offered under the lock, so parts reach the stream in the order they were parsed.
                    if streaming.writer.offer(Data(buffer.readableBytesView)) {
                        shared.state = .streaming(streaming)
                        return .read(streaming.counter)
                    }
                    let demand = task.eventLoop.makePromise(of: Void.self)
                    streaming.demand = demand
                    shared.state = .streaming(streaming)
                    return .wait(demand, streaming.counter)
                case .collecting(var collecting):
                    do {
                        try collecting.budget.add(size)
                    } catch {
                        shared.state = .finished
                        return .stop(nil, collecting.continuation, error)
                    }
                    var part = buffer
                    collecting.body.writeBuffer(&part)
                    shared.state = .collecting(collecting)
                    return .read(nil)
                case .waitingForHead, .finished:
                    return .read(nil)
                }
            }
            switch next {
            case .read(let counter):
                counter?.add(size)
                return task.eventLoop.makeSucceededVoidFuture()
            case .wait(let demand, let counter):
                counter?.add(size)
                // The reader has a buffer to catch up on: async-http-client reads no more until it has.
                return demand.futureResult
            case .stop(let writer, let continuation, let error):
                writer?.finish(throwing: error)
                continuation?.resume(throwing: error)
                task.cancel()
                return task.eventLoop.makeSucceededVoidFuture()
            }
        }

        /// The reader caught up: async-http-client may read on.
        private func resumeReading() {
            let demand = shared.withLockedValue { shared -> EventLoopPromise<Void>? in
                guard case .streaming(var streaming) = shared.state, let demand = streaming.demand else { return nil }
                streaming.demand = nil
                streaming.lastActivity = .now()
                shared.state = .streaming(streaming)
                return demand
            }
            demand?.succeed()
        }

        /// Fails the stream once the body has been silent for the timeout while the reader waited for it.
        private func checkSilence() {
            let outcome = shared.withLockedValue { shared -> (HTTPBodyStream.Writer, HTTPClient.Task<Void>?)? in
                guard case .streaming(let streaming) = shared.state, let task = shared.task else { return nil }
                // A paused body is the reader's to catch up on, not the server's silence.
                let since = streaming.demand == nil ? streaming.lastActivity : .now()
                if NIODeadline.now() - since >= timeout {
                    shared.state = .finished
                    return (streaming.writer, task)
                }
                shared.timer = task.eventLoop.scheduleTask(deadline: since + timeout) { self.checkSilence() }
                return nil
            }
            guard let (writer, task) = outcome else { return }
            writer.finish(throwing: URLError(.timedOut))
            task?.cancel()
        }

        func didReceiveError(task: HTTPClient.Task<Void>, _ error: any Error) {
            let (state, cancelled) = shared.withLockedValue { shared in
                defer {
                    shared.state = .finished
                    shared.timer?.cancel()
                    shared.timer = nil
                }
                return (shared.state, shared.cancelled)
            }
            let failure = cancelled ? CancellationError() : error
            switch state {
            case .waitingForHead(let continuation): continuation?.resume(throwing: failure)
            case .streaming(let streaming):
                streaming.demand?.fail(error)
                streaming.writer.finish(throwing: cancelled ? failure : translate(failure))
            case .collecting(let collecting): collecting.continuation?.resume(throwing: failure)
            case .finished: break
            }
        }

        func didFinishRequest(task: HTTPClient.Task<Void>) throws {
            let state = shared.withLockedValue { shared in
                defer {
                    shared.state = .finished
                    shared.timer?.cancel()
                    shared.timer = nil
                }
                return shared.state
            }
            switch state {
            case .streaming(let streaming):
                streaming.demand?.succeed()
                streaming.counter?.finish()
                streaming.writer.finish()
            case .collecting(var collecting):
                collecting.result.body = .bytes(Data(collecting.body.readableBytesView))
                collecting.continuation?.resume(returning: collecting.result)
            case .waitingForHead(let continuation):
                continuation?.resume(throwing: URLError(.badServerResponse))
            case .finished: break
            }
        }
    }
#endif
