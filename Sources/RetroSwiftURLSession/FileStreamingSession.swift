import Foundation
import RetroSwift

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// A session of the transport's own for responses that go to a file when a download task cannot take them: a body
/// uploaded from a file (Apple platforms), and, on Linux, any call while `NSTemporaryDirectory()` cannot be written.
///
/// An upload task sends a file with `Content-Length` (a body stream would go chunked, which presigned object-store
/// uploads refuse), but hands its response body only to a session delegate. On Linux a download task first writes
/// to `NSTemporaryDirectory()` and crashes the process (a `try!` in swift-corelibs-foundation) when it cannot
/// create its file there, whatever ``URLSessionTransport/temporaryDirectory`` says. This session's delegate writes
/// 2xx bodies to disk piece by piece, straight into the transport's directory, and reports a file it cannot create
/// as the call's error. Created on first use, with the configuration of the transport's session.
final class FileStreamingSession: Sendable {
    private let session: URLSession
    private let delegate: FileStreamingDelegate

    init(configuration: URLSessionConfiguration) {
        delegate = FileStreamingDelegate()
        session = URLSession(configuration: configuration, delegate: delegate, delegateQueue: nil)
    }

    deinit {
        // A session keeps its delegate, and on Linux itself, until invalidated.
        session.finishTasksAndInvalidate()
    }

    /// Sends `request` with `upload` as its body and streams a 2xx response body to a new file in `temporaryDirectory`.
    func send(
        _ request: URLRequest, upload: UploadSource, decisions: SessionTaskDelegate, temporaryDirectory: URL
    ) async throws -> HttpOperationResult {
        try await SessionTaskRunner.run(delegate: nil) { complete in
            let task: URLSessionTask =
                switch upload {
                case .none: session.dataTask(with: request)
                case .data(let body): session.uploadTask(with: request, from: body)
                case .file(let file, _): session.uploadTask(with: request, fromFile: file)
                }
            delegate.register(
                task,
                call: FileStreamingCall(
                    request: request, decisions: decisions, temporaryDirectory: temporaryDirectory, complete: complete))
            return task
        }
    }
}

/// What one call answered into a file has received so far.
// @unchecked Sendable: its `var`s are touched only from the session's serial delegate queue, after registration.
private final class FileStreamingCall: @unchecked Sendable {
    let request: URLRequest
    let decisions: SessionTaskDelegate
    let temporaryDirectory: URL
    let complete: @Sendable (Result<HttpOperationResult, any Error>) -> Void
    var response: HTTPURLResponse?
    var file: URL?
    var handle: FileHandle?
    var body = Data()
    var writeError: (any Error)?

    init(
        request: URLRequest, decisions: SessionTaskDelegate, temporaryDirectory: URL,
        complete: @escaping @Sendable (Result<HttpOperationResult, any Error>) -> Void
    ) {
        self.request = request
        self.decisions = decisions
        self.temporaryDirectory = temporaryDirectory
        self.complete = complete
    }
}

/// Routes each task's callbacks to its call; redirects and challenges are decided by the call's
/// ``SessionTaskDelegate``, as for every other task of the transport.
// @unchecked Sendable: an NSObject subclass cannot be checked; its one stored property is a `let` of a Sendable type.
private final class FileStreamingDelegate: NSObject, URLSessionDataDelegate, @unchecked Sendable {
    private let calls = Locked<[Int: FileStreamingCall]>([:])

    func register(_ task: URLSessionTask, call: FileStreamingCall) {
        calls.withLock { $0[task.taskIdentifier] = call }
    }

    private func call(for task: URLSessionTask) -> FileStreamingCall? {
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
        call.response = http
        if (200..<300).contains(http.statusCode) {
            do {
                (call.file, call.handle) = try TemporaryFile.create(.download, in: call.temporaryDirectory)
            } catch {
                call.writeError = error
                return completionHandler(.cancel)
            }
        }
        completionHandler(.allow)
    }

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
        guard let call = call(for: dataTask) else { return }
        guard let handle = call.handle else { return call.body.append(data) }
        do {
            try handle.write(contentsOf: data)
        } catch {
            call.writeError = error
            dataTask.cancel()
        }
    }

    func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?) {
        guard let call = calls.withLock({ $0.removeValue(forKey: task.taskIdentifier) }) else { return }
        try? call.handle?.close()
        let outcome = SessionTaskRunner.result(call.response, call.writeError ?? error, call.request, call.decisions) {
            status, headers, url in
            if let file = call.file { return HttpOperationResult(statusCode: status, headers: headers, downloadedFileURL: file, url: url) }
            return HttpOperationResult(statusCode: status, headers: headers, body: call.body, url: url)
        }
        if case .failure = outcome, let file = call.file { try? FileManager.default.removeItem(at: file) }
        call.complete(outcome)
    }
}
