#if AsyncHTTPClient
    import AsyncHTTPClient
    import Foundation
    import NIOConcurrencyHelpers
    import NIOCore
    import NIOHTTP1
    import NIOPosix
    import RetroSwift

    /// Receives one call's response on the connection's event loop, through async-http-client's delegate API, where
    /// the body comes part by part as it is parsed and the transport decides when the next part may be read.
    ///
    /// - A 2xx body asked for as a stream goes to an ``HTTPBodyStream`` part by part, each offered the moment it is
    ///   parsed: never through a task, which the cooperative pool may not run in time, since async-http-client
    ///   discards the parts it has read but not handed over when the connection then fails. The call returns at the
    ///   head; while the reader is a buffer behind, the part's future stays pending, so the socket is not read.
    /// - A 2xx body asked for as a file is written on SwiftNIO's thread pool, each part before the next is read.
    /// - Any other body is collected in memory. Every body is counted against the call's `ResponseLimits` as it
    ///   arrives.
    ///
    /// The timeout bounds connecting (waiting for a pooled connection included) and each silence of the exchange in
    /// either direction while the transport waits for the network: one timer on the connection's event loop, re-armed
    /// from the last part of the request body the connection took (`didSendRequestPart`) or the last part of the
    /// response that arrived, so a long upload or download that keeps moving completes: no task per call.
    final class ResponseDelegate: HTTPClientResponseDelegate, Sendable {
        typealias Response = Void
        typealias Continuation = CheckedContinuation<HttpOperationResult, any Error>

        private enum State {
            /// The head has not arrived; the call waits on the continuation, once `start` has set it.
            case waitingForHead(Continuation?)
            /// A 2xx body streams to the caller, who has the result already.
            case streaming(Streaming)
            /// A 2xx body will go to a file, being made on the thread pool; the call waits on the continuation.
            case openingFile(Continuation)
            /// A 2xx body goes to a file; the call returns once it is written and closed.
            case writing(Writing)
            /// A body is collected in memory, and the call returns once it is whole.
            case collecting(Collecting)
            /// The call and its body are over.
            case finished
        }

        private struct Streaming {
            var writer: HTTPBodyStream.Writer
            var budget: ResponseBodyBudget
            /// Pending while the reader is a buffer behind: async-http-client reads no more until it is kept.
            var demand: EventLoopPromise<Void>?
            var lastActivity: NIODeadline
            var counter: DownloadCounter?
        }

        private struct Writing {
            var continuation: Continuation?
            var result: HttpOperationResult
            var file: URL
            var handle: FileHandle
            var budget: ResponseBodyBudget
            /// Whether a part is being written: the transport, not the network, is what the body waits for.
            var isWriting = false
            var lastActivity: NIODeadline
            var counter: DownloadCounter?
        }

        private struct Collecting {
            var continuation: Continuation?
            var result: HttpOperationResult
            var body: ByteBuffer
            var budget: ResponseBodyBudget
            var lastActivity: NIODeadline
            var counter: DownloadCounter?
            /// The announced length of a body of 300 or more that came while the request body was still going out: the
            /// call returns once that much arrived, since async-http-client ends the call only once the request body's
            /// writer finishes.
            var answeredEarly: Int?
        }

        private struct Shared {
            var state: State = .waitingForHead(nil)
            var task: HTTPClient.Task<Void>?
            var timer: Scheduled<Void>?
            /// The calling task was cancelled, or the reader went away: the errors that follow are a cancellation.
            var cancelled = false
            /// The URL of the last hop whose head arrived: the one requested, since the transport accepts no client
            /// that follows redirects (a second hop fails the call, see `didVisitURL`).
            var redirectedTo: URL?
            var sent: Int64 = 0
            /// When the request last moved: the call started, or the connection took its head or a part of its body.
            var requestActivity = NIODeadline.now()
            /// Whether async-http-client has sent the whole request.
            var requestSent = false
            /// Whether the request's head reached the connection: from then on the server may have the request, so a
            /// broken connection is a lost one, not one never made.
            var requestHeadSent = false
        }

        private let shared: NIOLockedValueBox<Shared>
        private let params: HttpRequestParams
        private let timeout: TimeAmount
        private let temporaryDirectory: URL
        private let uploadLength: Int64?
        /// Paces the request body's writer: told of the bytes on the socket, and when a response of 300 or more arrived
        /// whole while the body was still going out, or the call ended.
        private let gate = UploadGate()

        private init(params: HttpRequestParams, timeout: TimeAmount, temporaryDirectory: URL) {
            self.params = params
            self.timeout = timeout
            self.temporaryDirectory = temporaryDirectory
            self.uploadLength = params.progress == nil ? nil : try? params.body?.length()
            shared = NIOLockedValueBox(Shared())
        }

        /// Sends `request` through `client` and returns the response: at its head for a 2xx stream, else once its body
        /// is whole (in memory or in a file).
        ///
        /// Errors before the head come as async-http-client throws them (the transport translates them); those after
        /// it are translated here, knowing a response had begun. An idempotent request is sent once more on a new
        /// connection when the pooled one it was given turns out closed before the request went out (RFC 9110 §9.2.2),
        /// its silence timed from the new attempt.
        static func send(
            _ request: HTTPClient.Request, upload: BodyByteStream?, params: HttpRequestParams, through client: HTTPClient,
            timeout: TimeAmount, temporaryDirectory: URL
        ) async throws -> HttpOperationResult {
            let headDeadline = NIODeadline.now() + timeout
            func attempt() async throws -> HttpOperationResult {
                let delegate = ResponseDelegate(params: params, timeout: timeout, temporaryDirectory: temporaryDirectory)
                var request = request
                // The call's task runs on this loop, where the body's writes and end are handed over.
                let eventLoop = client.eventLoopGroup.next()
                if let upload { request.body = upload.upload(on: eventLoop, gate: delegate.gate) }
                return try await withTaskCancellationHandler {
                    try await withCheckedThrowingContinuation { continuation in
                        delegate.start(continuation)
                        delegate.attach(
                            client.execute(request: request, delegate: delegate, eventLoop: .delegate(on: eventLoop), deadline: nil),
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

        /// The calling task was cancelled, or the reader left the stream.
        private func cancel() {
            let task = shared.withLockedValue { shared in
                shared.cancelled = true
                return shared.task
            }
            task?.cancel()
        }

        /// Fails the call once no part of the request has been taken, and no head has come, for the timeout; re-arms the
        /// timer from the last part taken otherwise (an upload the server reads slowly is not a silent server).
        private func headTimedOut() {
            let (continuation, task) = shared.withLockedValue { shared -> (Continuation?, HTTPClient.Task<Void>?) in
                guard case .waitingForHead(let continuation) = shared.state else { return (nil, nil) }
                if NIODeadline.now() - shared.requestActivity < timeout, let task = shared.task {
                    shared.timer = task.eventLoop.scheduleTask(deadline: shared.requestActivity + timeout) { self.headTimedOut() }
                    return (nil, nil)
                }
                shared.state = .finished
                return (continuation, shared.task)
            }
            continuation?.resume(throwing: URLError(.timedOut))
            task?.cancel()
        }

        // MARK: The request

        func didSendRequest(task: HTTPClient.Task<Void>) {
            shared.withLockedValue { $0.requestSent = true }
        }

        func didSendRequestHead(task: HTTPClient.Task<Void>, _ head: HTTPRequestHead) {
            // The request reached a connection (a later failure is a lost connection), and the exchange moved.
            shared.withLockedValue { shared in
                shared.requestHeadSent = true
                shared.requestActivity = .now()
            }
        }

        func didSendRequestPart(task: HTTPClient.Task<Void>, _ part: IOData) {
            // On the socket: the exchange moved, and its silence starts again.
            let sent = shared.withLockedValue { shared in
                shared.requestActivity = .now()
                shared.sent += Int64(part.readableBytes)
                return shared.sent
            }
            params.progress?.reportUpload(completed: sent, expected: uploadLength)
        }

        /// Called with each hop's head before async-http-client decides to follow it. A second hop means the client
        /// followed a redirect itself, which the transport refuses such clients for when it is made: should one get
        /// through (a version of async-http-client whose setting was misread), the call fails rather than pass the
        /// client's answer on as RetroSwift's, though the hop has been sent.
        func didVisitURL(task: HTTPClient.Task<Void>, _ request: HTTPClient.Request, _ head: HTTPResponseHead) {
            let followed = shared.withLockedValue { shared -> (Continuation, from: URL)? in
                defer { shared.redirectedTo = request.url }
                guard let previous = shared.redirectedTo, case .waitingForHead(let continuation?) = shared.state else { return nil }
                shared.state = .finished
                shared.timer?.cancel()
                shared.timer = nil
                return (continuation, previous)
            }
            guard let (continuation, from) = followed else { return }
            continuation.resume(
                throwing: RequestError(
                    .redirectRefused, endpoint: params.endpoint,
                    reason: "the client followed a redirect itself, from '\(from.absoluteString)' to '\(request.url.absoluteString)', "
                        + "which AsyncHTTPClientTransport never lets it do: create it with redirects disallowed "
                        + "(AsyncHTTPClientTransport.clientConfiguration)",
                    underlyingError: UnsuitableClientError(.followsRedirects, parameter: "client")))
            task.cancel()
        }

        // MARK: The head

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
            let result = HttpOperationResult(statusCode: status, headers: headers, url: url)
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
            let isSuccess = (200..<300).contains(status)
            // Only 2xx bodies are reported: error and redirect bodies are not what the caller waits for.
            let counter =
                isSuccess
                ? params.progress.map { DownloadCounter(progress: $0, expected: headers["Content-Length"].flatMap { Int64($0) }) } : nil
            switch params.responseDestination {
            case .stream where isSuccess:
                return startStream(result, budget: budget, counter: counter, continuation: continuation, task: task)
            case .file where isSuccess:
                return startFile(result, budget: budget, counter: counter, continuation: continuation, task: task)
            default:
                let length = headers["Content-Length"].flatMap { Int($0) }
                let answeredEarly = shared.withLockedValue { shared -> Bool in
                    let early = status >= 300 && !shared.requestSent
                    shared.state = .collecting(
                        Collecting(
                            continuation: continuation, result: result, body: ByteBuffer(), budget: budget, lastActivity: .now(),
                            counter: counter, answeredEarly: early ? length : nil))
                    shared.timer = task.eventLoop.scheduleTask(in: timeout) { self.checkSilence() }
                    return early
                }
                if answeredEarly {
                    // A body of unknown length ends with no word to the delegate: the writer is let go at once.
                    if length == nil { gate.release() }
                    if length == 0 { collectedEarlyAnswer() }
                }
                return task.eventLoop.makeSucceededVoidFuture()
            }
        }

        private func startStream(
            _ result: HttpOperationResult, budget: ResponseBodyBudget, counter: DownloadCounter?, continuation: Continuation,
            task: HTTPClient.Task<Void>
        ) -> EventLoopFuture<Void> {
            let (stream, writer) = HTTPBodyStream.makeStream { [weak self] in self?.cancel() }
            // Set before the first part is offered: a reader that catches up between a full offer and the promise
            // being kept finds the promise once the lock is free (`resumeReading` waits for it).
            writer.onDemand { [weak self] in self?.resumeReading() }
            shared.withLockedValue { shared in
                shared.state = .streaming(Streaming(writer: writer, budget: budget, lastActivity: .now(), counter: counter))
                shared.timer = task.eventLoop.scheduleTask(in: timeout) { self.checkSilence() }
            }
            var streamed = result
            streamed.body = .stream(stream)
            continuation.resume(returning: streamed)
            return task.eventLoop.makeSucceededVoidFuture()
        }

        /// Makes the file on the thread pool; async-http-client reads no part of the body until it exists. A failure of
        /// the exchange meanwhile ends the call at once (`didReceiveError` finds the continuation), and the file made
        /// for it is deleted.
        private func startFile(
            _ result: HttpOperationResult, budget: ResponseBodyBudget, counter: DownloadCounter?, continuation: Continuation,
            task: HTTPClient.Task<Void>
        ) -> EventLoopFuture<Void> {
            shared.withLockedValue { $0.state = .openingFile(continuation) }
            let directory = temporaryDirectory
            return NIOThreadPool.singleton.runIfActive(eventLoop: task.eventLoop) { try TemporaryFile.create(.download, in: directory) }
                .flatMapThrowing { file, handle in
                    let opened = self.shared.withLockedValue { shared -> Bool in
                        guard case .openingFile = shared.state else { return false }
                        shared.state = .writing(
                            Writing(
                                continuation: continuation, result: result, file: file, handle: handle, budget: budget,
                                lastActivity: .now(),
                                counter: counter))
                        shared.timer = task.eventLoop.scheduleTask(in: self.timeout) { self.checkSilence() }
                        return true
                    }
                    if !opened {
                        Self.discard(file, handle, on: task.eventLoop)
                        throw CancellationError()
                    }
                }
                .flatMapErrorThrowing { error in
                    let waiting = self.shared.withLockedValue { shared -> Continuation? in
                        guard case .openingFile(let continuation) = shared.state else { return nil }
                        shared.state = .finished
                        return continuation
                    }
                    waiting?.resume(throwing: error)
                    task.cancel()
                    throw error
                }
        }

        // MARK: The body

        func didReceiveBodyPart(task: HTTPClient.Task<Void>, _ buffer: ByteBuffer) -> EventLoopFuture<Void> {
            enum Next {
                case read(DownloadCounter?)
                case answeredEarly(DownloadCounter?)
                case wait(EventLoopPromise<Void>, DownloadCounter?)
                case write(FileHandle, DownloadCounter?)
                case stop(HTTPBodyStream.Writer?, Continuation?, (URL, FileHandle)?, any Error)
            }
            let size = buffer.readableBytes
            let next = shared.withLockedValue { shared -> Next in
                switch shared.state {
                case .streaming(var streaming):
                    do {
                        try streaming.budget.add(size)
                    } catch {
                        shared.state = .finished
                        return .stop(streaming.writer, nil, nil, error)
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
                case .writing(var writing):
                    do {
                        try writing.budget.add(size)
                    } catch {
                        shared.state = .finished
                        return .stop(nil, writing.continuation, (writing.file, writing.handle), error)
                    }
                    writing.isWriting = true
                    shared.state = .writing(writing)
                    return .write(writing.handle, writing.counter)
                case .collecting(var collecting):
                    // The state lets go of its copy first, so the body buffer is referenced once and grows in place:
                    // otherwise every part copies all the body so far (a 64 MiB body took 29 s).
                    shared.state = .finished
                    do {
                        try collecting.budget.add(size)
                    } catch {
                        return .stop(nil, collecting.continuation, nil, error)
                    }
                    var part = buffer
                    collecting.body.writeBuffer(&part)
                    collecting.lastActivity = .now()
                    shared.state = .collecting(collecting)
                    if let length = collecting.answeredEarly, collecting.body.readableBytes >= length {
                        return .answeredEarly(collecting.counter)
                    }
                    return .read(collecting.counter)
                case .waitingForHead, .openingFile, .finished:
                    return .read(nil)
                }
            }
            switch next {
            case .read(let counter):
                counter?.add(size)
                return task.eventLoop.makeSucceededVoidFuture()
            case .answeredEarly(let counter):
                counter?.add(size)
                collectedEarlyAnswer()
                return task.eventLoop.makeSucceededVoidFuture()
            case .wait(let demand, let counter):
                counter?.add(size)
                return demand.futureResult
            case .write(let handle, let counter):
                let bytes = Data(buffer.readableBytesView)
                return NIOThreadPool.singleton.runIfActive(eventLoop: task.eventLoop) { try handle.write(contentsOf: bytes) }
                    .map {
                        counter?.add(size)
                        self.shared.withLockedValue { shared in
                            guard case .writing(var writing) = shared.state else { return }
                            writing.isWriting = false
                            writing.lastActivity = .now()
                            shared.state = .writing(writing)
                        }
                    }
            case .stop(let writer, let continuation, let file, let error):
                writer?.finish(throwing: error)
                if let (url, handle) = file { Self.discard(url, handle, on: task.eventLoop) }
                continuation?.resume(throwing: error)
                task.cancel()
                return task.eventLoop.makeSucceededVoidFuture()
            }
        }

        /// An answer of 300 or more that came while the request body was going out arrived whole: the call returns it,
        /// and the request body's writer is let go, so async-http-client can end the exchange (closing the connection).
        private func collectedEarlyAnswer() {
            let collected = shared.withLockedValue { shared -> Collecting? in
                guard case .collecting(let collecting) = shared.state else { return nil }
                shared.state = .finished
                shared.timer?.cancel()
                shared.timer = nil
                return collecting
            }
            gate.release()
            guard var collected else { return }
            collected.counter?.finish()
            collected.result.body = .bytes(Data(collected.body.readableBytesView))
            collected.continuation?.resume(returning: collected.result)
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

        /// Fails the call, or its stream, once the body has been silent for the timeout while the transport waited for
        /// the network; a reader behind, or a write under way, is not the server's silence.
        private func checkSilence() {
            enum Outcome {
                case rearm(NIODeadline)
                case fail(HTTPBodyStream.Writer?, Continuation?, (URL, FileHandle)?)
                case none
            }
            let (outcome, task) = shared.withLockedValue { shared -> (Outcome, HTTPClient.Task<Void>?) in
                var since: NIODeadline
                switch shared.state {
                case .streaming(let streaming): since = streaming.demand == nil ? streaming.lastActivity : .now()
                case .writing(let writing): since = writing.isWriting ? .now() : writing.lastActivity
                case .collecting(let collecting): since = collecting.lastActivity
                case .waitingForHead, .openingFile, .finished: return (.none, nil)
                }
                // A request body still going out (an answer that came early) moves the exchange too.
                since = max(since, shared.requestActivity)
                guard NIODeadline.now() - since >= timeout else { return (.rearm(since + timeout), shared.task) }
                defer { shared.state = .finished }
                switch shared.state {
                case .streaming(let streaming): return (.fail(streaming.writer, nil, nil), shared.task)
                case .writing(let writing): return (.fail(nil, writing.continuation, (writing.file, writing.handle)), shared.task)
                case .collecting(let collecting): return (.fail(nil, collecting.continuation, nil), shared.task)
                case .waitingForHead, .openingFile, .finished: return (.none, nil)
                }
            }
            guard let task else { return }
            switch outcome {
            case .rearm(let deadline):
                let timer = task.eventLoop.scheduleTask(deadline: deadline) { self.checkSilence() }
                shared.withLockedValue { $0.timer = timer }
            case .fail(let writer, let continuation, let file):
                writer?.finish(throwing: URLError(.timedOut))
                continuation?.resume(throwing: URLError(.timedOut))
                if let (url, handle) = file { Self.discard(url, handle, on: task.eventLoop) }
                task.cancel()
            case .none:
                break
            }
        }

        // MARK: The end

        func didReceiveError(task: HTTPClient.Task<Void>, _ error: any Error) {
            // The call is over: a writer waiting for its body to reach the socket waits no more.
            gate.release()
            let (state, cancelled, requestHeadSent) = shared.withLockedValue { shared in
                defer {
                    shared.state = .finished
                    shared.timer?.cancel()
                    shared.timer = nil
                }
                return (shared.state, shared.cancelled, shared.requestHeadSent)
            }
            let failure: any Error =
                cancelled ? CancellationError() : AsyncHTTPClientTransport.translate(error, params, requestWritten: true)
            switch state {
            case .waitingForHead(let continuation):
                // Before any response: once the request's head was written the server may have it, so a reset is a
                // lost connection (a POST must not look unsent); before that, the transport translates the error
                // untouched, and an idempotent request on a pooled connection found closed is sent again.
                continuation?.resume(throwing: cancelled ? CancellationError() : requestHeadSent ? failure : error)
            case .openingFile(let continuation):
                continuation.resume(throwing: failure)
            case .streaming(let streaming):
                streaming.demand?.fail(error)
                streaming.writer.finish(throwing: failure)
            case .writing(let writing):
                Self.discard(writing.file, writing.handle, on: task.eventLoop)
                writing.continuation?.resume(throwing: failure)
            case .collecting(let collecting):
                collecting.continuation?.resume(throwing: failure)
            case .finished:
                break
            }
        }

        func didFinishRequest(task: HTTPClient.Task<Void>) throws {
            gate.release()
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
            case .writing(let writing):
                let (continuation, counter, file, handle) = (writing.continuation, writing.counter, writing.file, writing.handle)
                var result = writing.result
                result.body = .file(file)
                let finished = result
                // Closed on the thread pool, then the call returns the file.
                NIOThreadPool.singleton.runIfActive(eventLoop: task.eventLoop) { try handle.close() }.whenComplete { closed in
                    switch closed {
                    case .success:
                        counter?.finish()
                        continuation?.resume(returning: finished)
                    case .failure(let error):
                        try? FileManager.default.removeItem(at: file)
                        continuation?.resume(throwing: error)
                    }
                }
            case .collecting(var collecting):
                collecting.counter?.finish()
                collecting.result.body = .bytes(Data(collecting.body.readableBytesView))
                collecting.continuation?.resume(returning: collecting.result)
            case .waitingForHead(let continuation):
                continuation?.resume(throwing: URLError(.badServerResponse))
            case .openingFile(let continuation):
                continuation.resume(throwing: URLError(.badServerResponse))
            case .finished:
                break
            }
        }

        /// Closes and deletes a download that will not be returned, on the thread pool.
        private static func discard(_ file: URL, _ handle: FileHandle, on eventLoop: any EventLoop) {
            _ = NIOThreadPool.singleton.runIfActive(eventLoop: eventLoop) {
                try? handle.close()
                try? FileManager.default.removeItem(at: file)
            }
        }
    }
#endif
