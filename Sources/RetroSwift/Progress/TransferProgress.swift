import Foundation

/// How far one direction of a call's transfer has come: the request body going up, or a 2xx response body coming down.
///
/// Observe the calls an operation makes with ``observe(_:isolation:during:)``; the declarations stay as they are.
public struct TransferProgress: Sendable, Hashable {
    /// Which way the bytes go.
    public enum Direction: Sendable, Hashable {
        /// The request body, to the server.
        case upload
        /// The response body of a 2xx response, from the server.
        case download
    }

    /// Which way the bytes go.
    public let direction: Direction
    /// Bytes transferred so far; never less than in an earlier report of the same call and direction.
    public let completedBytes: Int64
    /// The size of the body when known (a request body, or a response with `Content-Length`), else `nil`; also `nil`
    /// once a download has run past its `Content-Length` (a body the transport decompressed).
    public let expectedBytes: Int64?
    /// Whether this is the last report of this direction: the body has been transferred whole.
    public let isFinished: Bool

    /// Creates a report, for tests of code that shows progress.
    ///
    /// - Parameters:
    ///   - direction: Which way the bytes go.
    ///   - completedBytes: Bytes transferred so far.
    ///   - expectedBytes: The size of the body, when known.
    ///   - isFinished: Whether the body has been transferred whole.
    init(direction: Direction, completedBytes: Int64, expectedBytes: Int64?, isFinished: Bool) {
        self.direction = direction
        self.completedBytes = completedBytes
        self.expectedBytes = expectedBytes
        self.isFinished = isFinished
    }

    /// `completedBytes / expectedBytes` from 0 to 1, or `nil` when the size is unknown (1 once finished).
    public var fractionCompleted: Double? {
        if isFinished { return 1 }
        guard let expectedBytes, expectedBytes > 0 else { return nil }
        return min(1, Double(completedBytes) / Double(expectedBytes))
    }
}

extension TransferProgress {
    /// Runs `operation` and reports the upload and download progress of every call it makes through RetroSwift's
    /// transports to `handler`.
    ///
    /// ```swift
    /// let uploaded = try await TransferProgress.observe({ progress in
    ///     if progress.direction == .upload { print(progress.fractionCompleted ?? 0) }
    /// }) {
    ///     try await api.upload(UploadRequest(file: .init(fileName: "big.bin", fileURL: url)))
    /// }
    /// ```
    ///
    /// Per call and direction, the reports only go up and the last one has ``isFinished`` set, once: a download
    /// finishes when the whole 2xx body has arrived (for a streamed response, when the stream ends), an upload when
    /// the whole body has been handed to the connection. A retried or redirected request's second upload is not
    /// reported again; error and redirect bodies are not reported. Calls made outside `operation` cost nothing extra.
    ///
    /// - Parameters:
    ///   - handler: Receives the reports, one at a time, from the transport's threads: keep it short, and hop to the
    ///     main actor to update a view.
    ///   - isolation: The caller's actor, inherited by `operation`.
    ///   - operation: The calls to observe.
    /// - Returns: What `operation` returns.
    /// - Throws: What `operation` throws.
    public static func observe<T>(
        _ handler: @escaping @Sendable (TransferProgress) -> Void, isolation: isolated (any Actor)? = #isolation,
        during operation: () async throws -> T
    ) async throws -> T {
        try await TransferProgressReporter.$current.withValue(
            TransferProgressReporter(handler), operation: operation, isolation: isolation)
    }
}
