import Foundation

/// Where a transport reports the progress of the call it is sending, when someone observes it (see
/// ``TransferProgress/observe(_:isolation:during:)``).
///
/// Transports read the call's reporter from ``HttpRequestParams/progress`` and skip all counting when it is `nil`. Each
/// endpoint call (with its retries and redirects) gets a reporter of its own, so the calls an
/// operation makes one after another, or at once, are each reported whole. The reporter keeps the promises of
/// ``TransferProgress``: it drops reports that would go backwards or repeat, caps uploads at their size, and sends
/// each direction's finished report once.
public final class TransferProgressReporter: Sendable {
    /// The observation the current task's calls report to, or `nil` when nobody observes them: set by
    /// ``TransferProgress/observe(_:isolation:during:)``, read when a call starts.
    @TaskLocal static var current: TransferProgressReporter?

    private struct Direction {
        var completed: Int64 = -1
        var finished = false
        /// A download that ran past its `Content-Length` (a body the transport decompressed): its size is unknown.
        var outgrewExpected = false
    }

    // Shared by the reporters of one observation: the handler runs under this lock, so reports arrive one at a time
    // and, per call, in order, whatever thread sends them.
    private let handler: Locked<@Sendable (TransferProgress) -> Void>
    private let state = Locked((upload: Direction(), download: Direction()))

    /// Creates a reporter that passes reports to `handler`.
    ///
    /// - Parameter handler: Receives the reports, one at a time.
    convenience init(_ handler: @escaping @Sendable (TransferProgress) -> Void) {
        self.init(sharing: Locked(handler))
    }

    private init(sharing handler: Locked<@Sendable (TransferProgress) -> Void>) {
        self.handler = handler
    }

    /// A reporter for one more call, with the same handler and a progress of its own; RetroSwift makes one per
    /// endpoint call, which its retries and redirects share.
    ///
    /// - Returns: A new reporter.
    func forCall() -> TransferProgressReporter {
        TransferProgressReporter(sharing: handler)
    }

    /// Reports request body bytes handed to the connection.
    ///
    /// - Parameters:
    ///   - completed: Bytes of the body sent so far.
    ///   - expected: The body's size, when known.
    public func reportUpload(completed: Int64, expected: Int64?) {
        report(.upload, completed: completed, expected: expected, finished: false)
    }

    /// Reports bytes of a 2xx response body received; do not report error or redirect bodies. Only
    /// ``finishDownload(total:)`` finishes a download: a body the transport decompresses can run past its
    /// `Content-Length`, and then the size is reported as unknown from there on.
    ///
    /// - Parameters:
    ///   - completed: Bytes of the body received so far.
    ///   - expected: The body's size from `Content-Length`, when known.
    public func reportDownload(completed: Int64, expected: Int64?) {
        report(.download, completed: completed, expected: expected, finished: false)
    }

    /// Reports that a 2xx response body arrived whole: the one way a download finishes, so call it at the end of
    /// every 2xx body you report, streamed ones included.
    ///
    /// - Parameter total: The body's size; a total below the bytes already reported finishes at those.
    public func finishDownload(total: Int64) {
        report(.download, completed: total, expected: total, finished: true)
    }

    private func report(_ direction: TransferProgress.Direction, completed: Int64, expected: Int64?, finished: Bool) {
        let path: WritableKeyPath<(upload: Direction, download: Direction), Direction> =
            direction == .upload ? \.upload : \.download
        state.withLock { state in
            var current = state[keyPath: path]
            guard !current.finished else { return }
            var expected = expected.flatMap { $0 >= 0 ? $0 : nil }
            var completed = max(0, completed)
            let reachesTotal: Bool
            switch direction {
            case .upload:
                // A request body's size is exact: reaching it is the end, and a transport's overshoot is capped.
                if let expected { completed = min(completed, expected) }
                reachesTotal = finished || expected.map { completed == $0 } ?? false
            case .download:
                if !finished, let size = expected, completed > size { current.outgrewExpected = true }
                if current.outgrewExpected && !finished { expected = nil }
                if finished, completed < current.completed {
                    // A transport's total below what it reported (the compressed size, say) must still end the report.
                    completed = current.completed
                    expected = completed
                }
                reachesTotal = finished
            }
            guard completed > current.completed || (reachesTotal && completed == current.completed) else {
                state[keyPath: path] = current
                return
            }
            current.completed = completed
            current.finished = reachesTotal
            state[keyPath: path] = current
            let progress = TransferProgress(
                direction: direction, completedBytes: completed, expectedBytes: expected, isFinished: reachesTotal)
            handler.withLock { $0(progress) }
        }
    }
}
