import Dispatch
import Foundation
import RetroSwift

#if canImport(FoundationNetworking)
    import FoundationNetworking

    /// The transport's own timeout of one call on Linux, where swift-corelibs-foundation's cannot keep the rule: it
    /// turns `timeoutInterval` into whole seconds (0.5 s fires at once, 1.9 s after one), so a call that asks for
    /// fractions runs on this one instead, with URLSession's own set far beyond it.
    ///
    /// It bounds each silence in either direction, as the timeout does on every transport: the session's delegate
    /// tells it of every move (``moved()``: the head arrived, a piece of the body arrived, the connection took a part
    /// of the request body), and once the call has been silent for the timeout the task is cancelled and
    /// ``hasFired`` says it was this timer, so the call fails with `URLError(.timedOut)`. One dispatch timer at a
    /// time, re-armed from the last move when it fires early: no task per call, and no work per move but storing the
    /// time.
    final class SilenceTimer: Sendable {
        // @unchecked Sendable: URLSessionTask is thread-safe but not declared Sendable on Linux.
        private struct State: @unchecked Sendable {
            var lastMove = DispatchTime.now()
            var fired = false
            var stopped = false
            var task: URLSessionTask?
        }

        private let state = Locked(State())
        private let timeout: DispatchTimeInterval

        /// A timer for silences of `seconds`.
        init(seconds: TimeInterval) {
            timeout = .nanoseconds(Int(min(seconds, 365 * 24 * 3600) * 1e9))
        }

        /// Whether a call whose timeout is `seconds` needs this timer: swift-corelibs-foundation's counts whole seconds
        /// only.
        static func isNeeded(for seconds: TimeInterval?) -> Bool {
            guard let seconds, seconds.isFinite, seconds > 0 else { return false }
            return seconds.rounded(.down) != seconds
        }

        /// Starts timing `task`'s silences, from now.
        func start(_ task: URLSessionTask) {
            state.withLock { state in
                state.task = task
                state.lastMove = .now()
            }
            schedule(at: .now() + timeout)
        }

        /// The exchange moved: the silence starts again.
        func moved() {
            state.withLock { $0.lastMove = .now() }
        }

        /// Whether the call was cancelled because it was silent for its timeout.
        var hasFired: Bool {
            state.withLock { $0.fired }
        }

        /// The call is over: the timer does nothing more.
        func stop() {
            state.withLock { state in
                state.stopped = true
                state.task = nil
            }
        }

        private func schedule(at deadline: DispatchTime) {
            DispatchQueue.global().asyncAfter(deadline: deadline) { [weak self] in self?.check() }
        }

        /// Cancels the task if it has been silent for the timeout, or waits for the rest of the timeout from its last
        /// move.
        private func check() {
            enum Next {
                case cancel(URLSessionTask)
                case wait(DispatchTime)
                case none
            }
            let next = state.withLock { state -> Next in
                guard !state.stopped, let task = state.task else { return .none }
                let due = state.lastMove + timeout
                guard DispatchTime.now() >= due else { return .wait(due) }
                state.fired = true
                state.stopped = true
                state.task = nil
                return .cancel(task)
            }
            switch next {
            case .cancel(let task): task.cancel()
            case .wait(let due): schedule(at: due)
            case .none: break
            }
        }
    }
#endif
