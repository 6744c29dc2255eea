import Foundation

/// Where a transport reports the progress of the call it is sending, when someone observes it (see
/// ``TransferProgress/observe(_:isolation:during:)``).
///
/// Transports read ``current`` once per call, in the calling task, and skip all counting when it is `nil`. The
/// reporter keeps the promises of ``TransferProgress``: it drops reports that would go backwards or repeat, caps them
/// at the expected size, and sends the finished report once.
public final class TransferProgressReporter: Sendable {
    /// The reporter of the calls the current task makes, or `nil` when nobody observes them.
    @TaskLocal public static var current: TransferProgressReporter?

    private struct Direction {
        var completed: Int64 = -1
        var finished = false
    }

    private let handler: @Sendable (TransferProgress) -> Void
    // The handler runs under the lock, so reports arrive one at a time and in order whatever thread sends them.
    private let state = Locked((upload: Direction(), download: Direction()))

    /// Creates a reporter that passes reports to `handler`.
    ///
    /// - Parameter handler: Receives the reports, one at a time.
    public init(_ handler: @escaping @Sendable (TransferProgress) -> Void) {
        self.handler = handler
    }

    /// Reports request body bytes handed to the connection.
    ///
    /// - Parameters:
    ///   - completed: Bytes of the body sent so far.
    ///   - expected: The body's size, when known.
    public func reportUpload(completed: Int64, expected: Int64?) {
        report(.upload, completed: completed, expected: expected, finished: false)
    }

    /// Reports bytes of a 2xx response body received; do not report error or redirect bodies.
    ///
    /// - Parameters:
    ///   - completed: Bytes of the body received so far.
    ///   - expected: The body's size from `Content-Length`, when known.
    public func reportDownload(completed: Int64, expected: Int64?) {
        report(.download, completed: completed, expected: expected, finished: false)
    }

    /// Reports that a 2xx response body arrived whole.
    ///
    /// - Parameter total: The body's size.
    public func finishDownload(total: Int64) {
        report(.download, completed: total, expected: total, finished: true)
    }

    private func report(_ direction: TransferProgress.Direction, completed: Int64, expected: Int64?, finished: Bool) {
        let path: WritableKeyPath<(upload: Direction, download: Direction), Direction> =
            direction == .upload ? \.upload : \.download
        state.withLock { state in
            var current = state[keyPath: path]
            guard !current.finished else { return }
            let expected = expected.flatMap { $0 >= 0 ? $0 : nil }
            var completed = max(0, completed)
            if let expected { completed = min(completed, expected) }
            let reachesTotal = finished || expected.map { completed == $0 } ?? false
            guard completed > current.completed || (reachesTotal && completed == current.completed) else { return }
            current.completed = completed
            current.finished = reachesTotal
            state[keyPath: path] = current
            handler(TransferProgress(direction: direction, completedBytes: completed, expectedBytes: expected, isFinished: reachesTotal))
        }
    }
}
