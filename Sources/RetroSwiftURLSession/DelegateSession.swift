import Foundation
import RetroSwift

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// A session of the transport's own, whose delegate receives response bodies piece by piece: for streamed responses
/// (``ResponseDestination/stream``), handed to the caller as they arrive, and for responses that go to a file when a
/// download task cannot take them: a body uploaded from a file (Apple platforms), and, on Linux, any call while
/// `NSTemporaryDirectory()` cannot be written.
///
/// A streamed call returns when the head of a 2xx response arrives; its body goes to an ``HTTPBodyStream``. On Apple
/// platforms the task is suspended while the reader is a megabyte behind. swift-corelibs-foundation has no such
/// pause (its `suspend()` takes the transfer off the connection), so on Linux a reader slower than the network lets
/// the buffer grow, up to ``URLSessionTransport/maxBufferedStreamBytes``, past which the stream fails; the request's
/// timeout bounds each silence, so a silent stream fails with `URLError(.timedOut)` on both (on Linux a timeout with a
/// fraction of a second is timed by a ``SilenceTimer`` of the transport's own, which the delegate tells of each move).
///
/// An upload task sends a file with `Content-Length` (a body stream would go chunked, which presigned object-store
/// uploads refuse), but hands its response body only to a session delegate. On Linux a download task first writes
/// to `NSTemporaryDirectory()` and crashes the process (a `try!` in swift-corelibs-foundation) when it cannot
/// create its file there, whatever ``URLSessionTransport/temporaryDirectory`` says. This session's delegate writes
/// 2xx bodies to disk piece by piece, straight into the transport's directory, and reports a file it cannot create
/// as the call's error. Created on first use, with the configuration of the transport's session.
final class DelegateSession: Sendable {
    private let session: URLSession
    private let delegate: DelegateSessionDelegate

    init(configuration: URLSessionConfiguration) {
        delegate = DelegateSessionDelegate()
        #if canImport(FoundationNetworking)
            // Holds libcurl to the delegate's pace, so a body is counted against its limits as it arrives rather than
            // queued whole first (BoundedDelegateQueue).
            let queue: OperationQueue? = BoundedDelegateQueue()
        #else
            let queue: OperationQueue? = nil
        #endif
        session = URLSession(configuration: configuration, delegate: delegate, delegateQueue: queue)
    }

    deinit {
        // A session keeps its delegate, and on Linux itself, until invalidated.
        session.finishTasksAndInvalidate()
    }

    /// Sends `request` with `upload` as its body and puts a 2xx response body where `destination` says: in memory, in a
    /// new file in `temporaryDirectory`, or in ``HttpOperationResult/Body/stream(_:)``, returning at the head. Reports the
    /// transfer's progress to `progress`, if given.
    func send(
        _ request: URLRequest, params: HttpRequestParams, upload: UploadSource, decisions: SessionTaskDelegate,
        temporaryDirectory: URL, destination: ResponseDestination, progress: TransferProgressReporter?, maxBufferedStreamBytes: Int
    ) async throws -> HttpOperationResult {
        try await SessionTaskRunner.run(delegate: nil) { complete in
            let task: URLSessionTask =
                switch upload {
                case .none: session.dataTask(with: request)
                case .data(let body): session.uploadTask(with: request, from: body)
                case .file(let file, _): session.uploadTask(with: request, fromFile: file)
                }
            let call = DelegateSessionCall(
                request: request, params: params, decisions: decisions, temporaryDirectory: temporaryDirectory,
                destination: destination,
                progress: progress, maxBufferedStreamBytes: maxBufferedStreamBytes, complete: complete)
            delegate.register(task, call: call)
            #if canImport(FoundationNetworking)
                call.silence?.start(task)
            #endif
            return task
        }
    }
}

/// What one call of the delegate session has received so far.
// @unchecked Sendable: its `var`s are touched only from the session's serial delegate queue, after registration.
private final class DelegateSessionCall: @unchecked Sendable {
    let request: URLRequest
    /// The request as RetroSwift built it, whose limits the body is held to.
    let params: HttpRequestParams
    /// Counts the body against the call's `ResponseLimits`, from the head on.
    var budget: ResponseBodyBudget?
    /// The response's fields, read once at the head for the budget and kept for the result.
    var headers: HTTPHeaderFields?
    let decisions: SessionTaskDelegate
    let temporaryDirectory: URL
    /// Where a 2xx body goes.
    let destination: ResponseDestination
    let progress: TransferProgressReporter?
    let maxBufferedStreamBytes: Int
    /// Bytes of a 2xx body received so far, counted for `progress`.
    var received: Int64 = 0
    let complete: @Sendable (Result<HttpOperationResult, any Error>) -> Void
    var response: HTTPURLResponse?
    var file: URL?
    var handle: FileHandle?
    /// The streamed body's writer, once the call has returned.
    var writer: HTTPBodyStream.Writer?
    /// Suspends and resumes the streamed task as the reader falls behind and catches up (Apple platforms).
    var suspension: SuspensionGate?
    /// The pieces of a body held in memory, joined once at the end: appending each to one `Data` copied the body
    /// again and again as it grew (64 MiB in 16 KiB pieces took 4 s on Linux).
    var pieces: [Data] = []
    var pieceBytes = 0

    /// The body held in memory, in one piece.
    var body: Data {
        if pieces.count == 1 { return pieces[0] }
        var body = Data(capacity: pieceBytes)
        for piece in pieces { body.append(piece) }
        return body
    }
    var writeError: (any Error)?
    /// Whether the call has returned: at the head for a stream, or at a failure of the body's own (``fail(_:)``).
    var hasReturned = false
    #if canImport(FoundationNetworking)
        /// The call's own timeout, for a timeout swift-corelibs-foundation would round (see ``SilenceTimer``).
        let silence: SilenceTimer?
    #endif

    /// The 2xx body's size from `Content-Length`, when the server sent one.
    var expectedBytes: Int64? {
        guard let length = response?.expectedContentLength, length >= 0 else { return nil }
        return length
    }

    /// Ends the call with `error` now, before URLSession ends the task: on Linux a cancelled task ends only once
    /// libcurl has read and decompressed what the connection already holds (3.8 s for a gzip bomb's 6.7 MB,
    /// inflating to a gigabyte), so the caller would wait for that. What still arrives is dropped.
    func fail(_ error: any Error) {
        writeError = error
        if let writer {
            writer.finish(throwing: error)
        } else if !hasReturned {
            hasReturned = true
            try? handle?.close()
            handle = nil
            if let file { try? FileManager.default.removeItem(at: file) }
            file = nil
            pieces = []
            complete(.failure(error))
        }
    }

    init(
        request: URLRequest, params: HttpRequestParams, decisions: SessionTaskDelegate, temporaryDirectory: URL,
        destination: ResponseDestination,
        progress: TransferProgressReporter?, maxBufferedStreamBytes: Int,
        complete: @escaping @Sendable (Result<HttpOperationResult, any Error>) -> Void
    ) {
        self.maxBufferedStreamBytes = maxBufferedStreamBytes
        self.request = request
        self.params = params
        self.decisions = decisions
        self.temporaryDirectory = temporaryDirectory
        self.destination = destination
        self.progress = progress
        self.complete = complete
        #if canImport(FoundationNetworking)
            silence = SilenceTimer.isNeeded(for: params.timeout) ? SilenceTimer(seconds: params.timeout ?? 0) : nil
        #endif
    }

    /// The exchange moved (a part of the request taken, the head or a piece of the body arrived): its silence starts
    /// again.
    func moved() {
        #if canImport(FoundationNetworking)
            silence?.moved()
        #endif
    }
}

/// Routes each task's callbacks to its call; redirects and challenges are decided by the call's
/// ``SessionTaskDelegate``, as for every other task of the transport.
// @unchecked Sendable: an NSObject subclass cannot be checked; its one stored property is a `let` of a Sendable type.
private final class DelegateSessionDelegate: NSObject, URLSessionDataDelegate, @unchecked Sendable {
    private let calls = Locked<[Int: DelegateSessionCall]>([:])

    func register(_ task: URLSessionTask, call: DelegateSessionCall) {
        calls.withLock { $0[task.taskIdentifier] = call }
    }

    private func call(for task: URLSessionTask) -> DelegateSessionCall? {
        calls.withLock { $0[task.taskIdentifier] }
    }

    func urlSession(
        _ session: URLSession, task: URLSessionTask, willPerformHTTPRedirection response: HTTPURLResponse,
        newRequest request: URLRequest, completionHandler: @escaping @Sendable (URLRequest?) -> Void
    ) {
        guard let call = call(for: task) else { return completionHandler(nil) }
        call.decisions.urlSession(
            session, task: task, willPerformHTTPRedirection: response, newRequest: request, completionHandler: completionHandler)
    }

    func urlSession(
        _ session: URLSession, task: URLSessionTask, didReceive challenge: URLAuthenticationChallenge,
        completionHandler: @escaping @Sendable (URLSession.AuthChallengeDisposition, URLCredential?) -> Void
    ) {
        guard let call = call(for: task) else { return completionHandler(.cancelAuthenticationChallenge, nil) }
        call.decisions.urlSession(session, task: task, didReceive: challenge, completionHandler: completionHandler)
    }

    func urlSession(
        _ session: URLSession, dataTask: URLSessionDataTask, didReceive response: URLResponse,
        completionHandler: @escaping @Sendable (URLSession.ResponseDisposition) -> Void
    ) {
        guard let call = call(for: dataTask), let http = response as? HTTPURLResponse else { return completionHandler(.cancel) }
        call.moved()
        call.response = http
        do {
            // The head is refused here, before a byte of its body is read: a broken one, or one announcing a body over
            // the call's limits.
            let headers = SessionTaskRunner.headers(of: http)
            call.headers = headers
            call.budget = try ResponseBodyBudget(for: call.params, statusCode: http.statusCode, headers: headers)
        } catch {
            call.fail(error)
            // swift-corelibs-foundation ignores the disposition and would leave the task open until its timeout;
            // cancelling ends it, and before the disposition, so the transfer stops before more is read and queued.
            cancelWithoutWaiting(dataTask)
            return completionHandler(.cancel)
        }
        let isSuccess = (200..<300).contains(http.statusCode)
        if isSuccess { call.progress?.reportDownload(completed: 0, expected: call.expectedBytes) }
        if isSuccess, call.destination == .stream {
            startStream(call, task: dataTask, response: http)
        } else if isSuccess, call.destination == .file {
            do {
                (call.file, call.handle) = try TemporaryFile.create(.download, in: call.temporaryDirectory)
            } catch {
                call.fail(error)
                cancelWithoutWaiting(dataTask)
                return completionHandler(.cancel)
            }
        }
        completionHandler(.allow)
    }

    /// Returns the call with the body still to come, which goes to the caller as it arrives.
    private func startStream(_ call: DelegateSessionCall, task: URLSessionDataTask, response: HTTPURLResponse) {
        // @unchecked Sendable: URLSessionTask is thread-safe but not declared Sendable on every platform.
        struct TaskReference: @unchecked Sendable { let task: URLSessionTask }
        let reference = TaskReference(task: task)
        #if canImport(FoundationNetworking)
            // No pause on Linux: a reader too far behind fails the stream rather than grow memory without bound.
            let (stream, writer) = HTTPBodyStream.makeStream(overflowLimit: call.maxBufferedStreamBytes) {
                cancelWithoutWaiting(reference.task)
            }
        #else
            let (stream, writer) = HTTPBodyStream.makeStream { reference.task.cancel() }
            let gate = SuspensionGate(suspend: { reference.task.suspend() }, resume: { reference.task.resume() })
            writer.onDemand { gate.demand() }
            call.suspension = gate
        #endif
        call.writer = writer
        call.hasReturned = true
        let outcome = SessionTaskRunner.result(response, nil, call.request, call.decisions, knownHeaders: call.headers) {
            status, headers, url in
            HttpOperationResult(statusCode: status, headers: headers, body: .stream(stream), url: url)
        }
        call.complete(outcome)
    }

    func urlSession(
        _ session: URLSession, dataTask: URLSessionDataTask, willCacheResponse proposedResponse: CachedURLResponse,
        completionHandler: @escaping @Sendable (CachedURLResponse?) -> Void
    ) {
        // A call RetroSwift's HTTPCache handles is stored there, not twice.
        completionHandler(call(for: dataTask)?.params.isCachedByRetroSwift == true ? nil : proposedResponse)
    }

    func urlSession(
        _ session: URLSession, task: URLSessionTask, didSendBodyData bytesSent: Int64, totalBytesSent: Int64,
        totalBytesExpectedToSend: Int64
    ) {
        guard let call = call(for: task) else { return }
        call.moved()
        call.progress?.reportUpload(completed: totalBytesSent, expected: totalBytesExpectedToSend)
    }

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
        guard let call = call(for: dataTask), call.writeError == nil else { return }
        call.moved()
        do {
            try call.budget?.add(data.count)
        } catch {
            call.fail(error)
            return cancelWithoutWaiting(dataTask)
        }
        if let progress = call.progress, call.response.map({ (200..<300).contains($0.statusCode) }) ?? false {
            call.received += Int64(data.count)
            progress.reportDownload(completed: call.received, expected: call.expectedBytes)
        }
        if let writer = call.writer {
            // Suspending pauses reading on Apple platforms; swift-corelibs-foundation would drop the transfer instead.
            #if !canImport(FoundationNetworking)
                if !writer.offer(data) { call.suspension?.pause() }
            #else
                writer.offer(data)
            #endif
            return
        }
        guard let handle = call.handle else {
            call.pieces.append(data)
            call.pieceBytes += data.count
            return
        }
        do {
            try handle.write(contentsOf: data)
        } catch {
            call.fail(error)
            cancelWithoutWaiting(dataTask)
        }
    }

    func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?) {
        let ended = calls.withLock { $0.removeValue(forKey: task.taskIdentifier) }
        #if canImport(FoundationNetworking)
            ended?.silence?.stop()
            // The transport's own timer cancelled the task: the call timed out.
            let error = ended?.silence?.hasFired == true ? URLError(.timedOut) : error
        #endif
        guard let call = ended, !call.hasReturned || call.writer != nil else { return }
        if error == nil, call.writeError == nil, call.response.map({ (200..<300).contains($0.statusCode) }) ?? false {
            call.progress?.finishDownload(total: call.received)
        }
        if let writer = call.writer {
            // The call returned at the head: the end, or the failure, is the stream's.
            return writer.finish(throwing: error.map { SessionTaskRunner.normalized($0, response: call.response) })
        }
        try? call.handle?.close()
        let outcome = SessionTaskRunner.result(
            call.response, call.writeError ?? error, call.request, call.decisions, knownHeaders: call.headers
        ) {
            status, headers, url in
            if let file = call.file { return HttpOperationResult(statusCode: status, headers: headers, body: .file(file), url: url) }
            return HttpOperationResult(statusCode: status, headers: headers, body: call.body, url: url)
        }
        if case .failure = outcome, let file = call.file { try? FileManager.default.removeItem(at: file) }
        call.complete(outcome)
    }
}

/// Cancels `task` from a delegate callback. On Linux `cancel()` waits for the sessions' work queue, which may itself be
/// waiting for room on the ``BoundedDelegateQueue`` the calling callback runs on: it is called from another queue
/// there, and the delegate drops what still arrives meanwhile (`writeError` is set first).
private func cancelWithoutWaiting(_ task: URLSessionTask) {
    #if canImport(FoundationNetworking)
        // @unchecked Sendable: URLSessionTask is thread-safe but not declared Sendable on Linux.
        struct TaskReference: @unchecked Sendable { let task: URLSessionTask }
        let reference = TaskReference(task: task)
        DispatchQueue.global().async { reference.task.cancel() }
    #else
        task.cancel()
    #endif
}
