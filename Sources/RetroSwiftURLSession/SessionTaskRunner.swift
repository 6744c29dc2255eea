import Foundation
import RetroSwift

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Runs URLSession tasks for ``URLSessionTransport`` and turns their outcome into an ``HttpOperationResult``.
///
/// Every task gets a ``SessionTaskDelegate`` of its own before it starts: it refuses redirects (RetroSwift follows
/// them by its ``RedirectPolicy``, the same on every transport) and authentication challenges nobody configured a
/// credential for. Per-task delegates work on Apple platforms and on Linux alike, whatever session the user passed
/// (swift-corelibs-foundation ignores the `delegate:` argument of the async methods, hence completion handlers).
enum SessionTaskRunner {
    /// Downloads to a file we own in `temporaryDirectory`; a non-2xx body is read back into memory, as error bodies
    /// are small.
    static func download(
        _ request: URLRequest, params: HttpRequestParams, in session: URLSession, delegate: SessionTaskDelegate,
        temporaryDirectory: URL
    ) async throws -> HttpOperationResult {
        try await run(delegate: delegate) { complete in
            session.downloadTask(with: request) { location, response, error in
                // Apple's URLSession deletes `location` once this handler returns; swift-corelibs-foundation never
                // does, so a body not moved out below (an error status's, one over the call's limits) would stay in
                // NSTemporaryDirectory() for good.
                defer { if let location { try? FileManager.default.removeItem(at: location) } }
                complete(
                    result(response, error, request, delegate) { status, headers, url in
                        guard let location else { return HttpOperationResult(statusCode: status, headers: headers, url: url) }
                        // A download task has written the whole body before anyone can count it: the file's size is held
                        // to the call's limits here, before an error body is read into memory.
                        var budget = try ResponseBodyBudget(for: params, statusCode: status, headers: headers)
                        try budget.add((try? location.resourceValues(forKeys: [.fileSizeKey]).fileSize) ?? 0)
                        // A 2xx body is moved to a file the call returns, before `location` goes.
                        if (200..<300).contains(status) {
                            let kept = TemporaryFile.url(for: .download, in: temporaryDirectory)
                            try FileManager.default.moveItem(at: location, to: kept)
                            return HttpOperationResult(statusCode: status, headers: headers, body: .file(kept), url: url)
                        }
                        return HttpOperationResult(
                            statusCode: status, headers: headers, body: try TemporaryFile.contents(of: location), url: url)
                    })
            }
        }
    }

    /// - Parameter knownHeaders: `response`'s fields when the caller already read them (``headers(of:)`` sorts and
    ///   splits them, work not to repeat on every call).
    static func result(
        _ response: URLResponse?, _ error: (any Error)?, _ request: URLRequest, _ delegate: SessionTaskDelegate,
        knownHeaders: HTTPHeaderFields? = nil, _ make: (Int, HTTPHeaderFields, URL?) throws -> HttpOperationResult
    ) -> Result<HttpOperationResult, any Error> {
        // A chain the call's ServerTrust refused ends the task as cancelled: the server was not trusted.
        if let error, delegate.refusedServerTrust, (error as? URLError)?.code == .cancelled {
            return .failure(URLError(.serverCertificateUntrusted))
        }
        // A challenge the delegate refused ends the task as cancelled; the 401 it kept is the answer, without its
        // body, which went with the cancelled task.
        if let error, let refused = delegate.refusedChallengeResponse, (error as? URLError)?.code == .cancelled {
            return .success(
                HttpOperationResult(statusCode: refused.statusCode, headers: headers(of: refused), url: refused.url ?? request.url))
        }
        if let error { return .failure(normalized(error, response: response)) }
        guard let http = response as? HTTPURLResponse else { return .failure(URLError(.badServerResponse)) }
        return Result { try make(http.statusCode, knownHeaders ?? headers(of: http), http.url ?? request.url) }
    }

    /// URLSession hands over one value per name, repeated fields already joined with `, ` (RFC 9110 §5.3 allows it
    /// for list fields). `Set-Cookie` is the exception the RFC names, so it is split back into one value per cookie;
    /// fields come in name order, as the dictionary has none.
    static func headers(of response: HTTPURLResponse) -> HTTPHeaderFields {
        var fields = HTTPHeaderFields()
        for (name, value) in response.allHeaderFields.map({ ("\($0.key)", "\($0.value)") }).sorted(by: { $0.0 < $1.0 }) {
            if HeaderName.matches(name, "Set-Cookie") {
                for cookie in splitSetCookie(value) { fields.append(name: name, value: cookie) }
            } else {
                fields.append(name: name, value: value)
            }
        }
        return fields
    }

    /// Splits `Set-Cookie` values joined with commas. A cookie's name and value hold no comma (RFC 6265 §4.1.1), so
    /// a comma starts a new cookie exactly when a `name=` follows it before any `;` or `,`; the comma inside an
    /// `Expires` date is not followed by one.
    static func splitSetCookie(_ joined: String) -> [String] {
        var cookies: [String] = []
        var current = Substring()
        var rest = Substring(joined)
        while let comma = rest.firstIndex(of: ",") {
            let after = rest[rest.index(after: comma)...]
            let nextPart = after.prefix { $0 != ";" && $0 != "," }
            current += rest[..<comma]
            if let equals = nextPart.firstIndex(of: "="), !nextPart[..<equals].trimmingCharacters(in: .whitespaces).isEmpty,
                !nextPart[..<equals].trimmingCharacters(in: .whitespaces).contains(" ")
            {
                cookies.append(current.trimmingCharacters(in: .whitespaces))
                current = Substring()
            } else {
                current += ","
            }
            rest = after
        }
        current += rest
        let last = current.trimmingCharacters(in: .whitespaces)
        if !last.isEmpty || cookies.isEmpty { cookies.append(last) }
        return cookies
    }

    /// swift-corelibs-foundation reports a connection closed mid-body as `URLError(.unknown)` ("transfer closed
    /// with N bytes remaining"), and one closed before any response as `.badServerResponse` (libcurl's "Empty reply
    /// from server"); Apple platforms and async-http-client say `.networkConnectionLost`. Report the latter
    /// everywhere so callers and retry policies see one error.
    static func normalized(_ error: any Error, response: URLResponse?) -> any Error {
        guard let urlError = error as? URLError else { return error }
        let closedMidBody = urlError.code == .unknown && urlError.localizedDescription.hasPrefix("transfer closed")
        let closedBeforeResponse = urlError.code == .badServerResponse && response == nil
        guard closedMidBody || closedBeforeResponse else { return error }
        return URLError(.networkConnectionLost, userInfo: urlError.userInfo)
    }

    /// Starts the task `makeTask` returns, with `delegate` as its own delegate (`nil` when the session's own
    /// delegate decides everything, as for ``DelegateSession``), and waits for it; cancelling the calling task
    /// cancels it.
    static func run(
        delegate: SessionTaskDelegate?,
        _ makeTask: (@escaping @Sendable (Result<HttpOperationResult, any Error>) -> Void) -> URLSessionTask
    ) async throws -> HttpOperationResult {
        let box = TaskBox()
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                let task = makeTask { result in
                    if case .failure(let error as URLError) = result, error.code == .cancelled, box.isCancelled {
                        continuation.resume(throwing: CancellationError())
                    } else {
                        continuation.resume(with: result)
                    }
                }
                if let delegate { task.delegate = delegate }
                box.start(task)
            }
        } onCancel: {
            box.cancel()
        }
    }
}

/// The URLSession task of one call, shared between the call and its cancellation handler.
private final class TaskBox: Sendable {
    // @unchecked Sendable: URLSessionTask is thread-safe but not declared Sendable on every platform.
    private struct State: @unchecked Sendable {
        var task: URLSessionTask?
        var cancelled = false
    }

    private let state = Locked(State())

    var isCancelled: Bool {
        state.current.cancelled
    }

    /// Resumes `task`, or cancels it at once when the call was cancelled before the task existed.
    func start(_ task: URLSessionTask) {
        let alreadyCancelled = state.withLock { state in
            state.task = task
            return state.cancelled
        }
        task.resume()
        if alreadyCancelled { task.cancel() }
    }

    func cancel() {
        let task = state.withLock { state in
            state.cancelled = true
            return state.task
        }
        task?.cancel()
    }
}
