import RetroSwift

/// Pairs the suspend and resume of a streamed URLSession task, which two threads ask for: the delegate queue pauses
/// when ``HTTPBodyStream/Writer/offer(_:)`` returns `false`, and the reader's task asks to go on when it has caught up.
///
/// The reader can catch up between `offer` returning `false` and the delegate suspending the task; a `resume()` then
/// would come before the `suspend()` and leave the task suspended for good. The gate remembers such early demand and
/// skips the suspend it answers, and runs both actions under its lock, so a resume always follows its suspend.
/// Compiled on every platform so its tests run on Linux; used where URLSession can pause (Apple platforms).
final class SuspensionGate: Sendable {
    private struct State {
        var suspended = false
        var demandArrived = false
    }

    private let state = Locked(State())
    private let suspend: @Sendable () -> Void
    private let resume: @Sendable () -> Void

    /// - Parameters:
    ///   - suspend: Stops the transfer (`URLSessionTask.suspend`).
    ///   - resume: Starts it again (`URLSessionTask.resume`).
    init(suspend: @escaping @Sendable () -> Void, resume: @escaping @Sendable () -> Void) {
        self.suspend = suspend
        self.resume = resume
    }

    /// The writer was told to pause: suspends, unless the reader has already asked to go on or the task is suspended
    /// already (data URLSession had queued before the suspend still arrives, and finds the buffer still full; a
    /// second `suspend()` would need a second `resume()`).
    func pause() {
        state.withLock { state in
            if state.demandArrived {
                state.demandArrived = false
                return
            }
            guard !state.suspended else { return }
            state.suspended = true
            suspend()
        }
    }

    /// The reader has caught up: resumes a suspended transfer, or cancels the pause that is about to come.
    func demand() {
        state.withLock { state in
            guard state.suspended else {
                state.demandArrived = true
                return
            }
            state.suspended = false
            resume()
        }
    }
}
