import Foundation
import RetroSwift
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Runs URLSession tasks with completion handlers, so Swift task cancellation can cancel them on every platform
/// (the async URLSession methods of swift-corelibs-foundation do not all react to cancellation).
enum SessionTaskRunner {
    static func data(_ request: URLRequest, upload: UploadSource, in session: URLSession) async throws -> HttpOperationResult {
        try await run { complete in
            let handler: @Sendable (Data?, URLResponse?, (any Error)?) -> Void = { data, response, error in
                complete(result(response, error) { HttpOperationResult(statusCode: $0, headers: $1, body: data ?? Data()) })
            }
            switch upload {
            case .none: return session.dataTask(with: request, completionHandler: handler)
            case .data(let body): return session.uploadTask(with: request, from: body, completionHandler: handler)
            case .file(let url): return session.uploadTask(with: request, fromFile: url, completionHandler: handler)
            }
        }
    }

    /// Downloads to a file we own; a non-2xx body is read back into memory, as error bodies are small.
    static func download(_ request: URLRequest, in session: URLSession) async throws -> HttpOperationResult {
        try await run { complete in
            session.downloadTask(with: request) { location, response, error in
                complete(result(response, error) { status, headers in
                    guard let location else { return HttpOperationResult(statusCode: status, headers: headers) }
                    // URLSession deletes `location` when this handler returns, so move it first.
                    if (200..<300).contains(status) {
                        let kept = FileManager.default.temporaryDirectory.appendingPathComponent("retroswift-download-\(UUID().uuidString)")
                        try FileManager.default.moveItem(at: location, to: kept)
                        return HttpOperationResult(statusCode: status, headers: headers, downloadedFileURL: kept)
                    }
                    return HttpOperationResult(statusCode: status, headers: headers, body: try Data(contentsOf: location))
                })
            }
        }
    }

    private static func result(
        _ response: URLResponse?, _ error: (any Error)?, _ make: (Int, [String: String]) throws -> HttpOperationResult
    ) -> Result<HttpOperationResult, any Error> {
        if let error { return .failure(normalized(error)) }
        guard let http = response as? HTTPURLResponse else { return .failure(URLError(.badServerResponse)) }
        var headers: [String: String] = [:]
        for (name, value) in http.allHeaderFields {
            headers["\(name)"] = "\(value)"
        }
        return Result { try make(http.statusCode, headers) }
    }

    /// swift-corelibs-foundation reports a connection closed mid-body as `URLError(.unknown)` ("transfer closed
    /// with N bytes remaining"); Apple platforms say `.networkConnectionLost`. Report the latter everywhere so
    /// callers and retry policies see one error.
    private static func normalized(_ error: any Error) -> any Error {
        guard let urlError = error as? URLError, urlError.code == .unknown,
              urlError.localizedDescription.hasPrefix("transfer closed")
        else { return error }
        return URLError(.networkConnectionLost, userInfo: urlError.userInfo)
    }

    private static func run(
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
                box.start(task)
            }
        } onCancel: {
            box.cancel()
        }
    }
}

/// The URLSession task of one call, shared between the call and its cancellation handler.
// @unchecked Sendable: `task` and `cancelled` are only touched while `lock` is held.
private final class TaskBox: @unchecked Sendable {
    private let lock = NSLock()
    private var task: URLSessionTask?
    private var cancelled = false

    var isCancelled: Bool {
        lock.withLock { cancelled }
    }

    /// Resumes `task`, or cancels it at once when the call was cancelled before the task existed.
    func start(_ task: URLSessionTask) {
        let alreadyCancelled = lock.withLock {
            self.task = task
            return cancelled
        }
        task.resume()
        if alreadyCancelled { task.cancel() }
    }

    func cancel() {
        let task = lock.withLock {
            cancelled = true
            return self.task
        }
        task?.cancel()
    }
}
