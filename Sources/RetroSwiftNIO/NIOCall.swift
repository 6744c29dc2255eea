#if NIO
    import NIOConcurrencyHelpers
    import NIOCore

    /// One call on its way through the pool and a connection: the one continuation that bridges it to `async`, and
    /// where it stands, so that a cancellation from the calling task reaches it wherever it is.
    final class NIOCall: Sendable {
        /// Unchecked: the state below hands the continuation out exactly once (whoever takes it sets it to `nil` under
        /// the lock), which is what a checked continuation would verify with an allocation of its own per call.
        typealias Continuation = UnsafeContinuation<NIOResponse, any Error>

        /// Where the call stands; the one state touched from outside an event loop (by cancellation).
        private enum Stage {
            /// Made, not yet in the pool.
            case created
            /// Waiting in the pool for a connection, with the timer that fails it at its deadline.
            case waiting(Scheduled<Void>?)
            /// On a connection: cancelling it closes that connection, on its event loop.
            case running(HTTP1Connection)
            /// Answered or failed: nothing changes any more.
            case finished
        }

        private struct State {
            var stage = Stage.created
            var continuation: Continuation?
            var cancelled = false
            /// How many times the call went again on a new connection.
            var resends = 0
        }

        let request: NIORequest
        /// When the wait for a connection (a pooled one, or connecting a new one) runs out: the call's timeout from the
        /// moment it reached the transport. On a connection, the exchange's silences are timed from its own activity.
        let headDeadline: NIODeadline
        /// The event loop of the transport's group the calling task runs on, if any
        /// (`NIOTransport.withCallsOnEventLoop`): a connection opened for the call is made on it.
        let callersEventLoop: (any EventLoop)?
        private let state: NIOLockedValueBox<State>

        init(request: NIORequest, headDeadline: NIODeadline, callersEventLoop: (any EventLoop)? = nil) {
            self.request = request
            self.headDeadline = headDeadline
            self.callersEventLoop = callersEventLoop
            self.state = NIOLockedValueBox(State())
        }

        /// How many times a call the server never processed (a refused stream, or one above a GOAWAY's last stream id)
        /// may go again. RFC 9113 §8.7 makes any such resend safe, whatever the method; more than one, because with many
        /// streams in flight to a server that ends its connections every few hundred streams (nginx's
        /// `keepalive_requests`), a call can meet a second GOAWAY on the connection it was sent again on (64 tasks against nginx
        /// ending connections every 20 streams needed more than 4). Bounded, so a server that refuses every stream fails
        /// the call rather than keeping it going round new connections until its deadline.
        static let unprocessedResends = 10

        /// Makes the call ready to go again, on a new connection, within the same deadline and answering the same
        /// continuation. `false` when it is over, or has gone again as often as it may: once for an idempotent request
        /// whose reused connection failed before answering, ``unprocessedResends`` times for one the server never
        /// processed (`neverProcessed`).
        func prepareRetry(neverProcessed: Bool = false) -> Bool {
            state.withLockedValue { state in
                let allowed = neverProcessed ? Self.unprocessedResends : 1
                guard state.continuation != nil, !state.cancelled, state.resends < allowed else { return false }
                state.resends += 1
                state.stage = .created
                return true
            }
        }

        /// Whether this call went again after a failed attempt.
        var isRetry: Bool {
            state.withLockedValue { $0.resends > 0 }
        }

        /// Keeps the continuation to answer; `false` when the call was cancelled before (it is then answered already).
        func begin(_ continuation: Continuation) -> Bool {
            let cancelled = state.withLockedValue { state in
                if !state.cancelled { state.continuation = continuation }
                return state.cancelled
            }
            if cancelled { continuation.resume(throwing: CancellationError()) }
            return !cancelled
        }

        /// Whether the calling task has cancelled the call.
        var isCancelled: Bool {
            state.withLockedValue { $0.cancelled }
        }

        /// Records that the call waits in the pool; `false` when it is already over.
        func wait(timer: Scheduled<Void>?) -> Bool {
            state.withLockedValue { state in
                guard case .created = state.stage, state.continuation != nil else { return false }
                state.stage = .waiting(timer)
                return true
            }
        }

        /// Records that `connection` runs the call, stopping its wait timer; `false` when the call is already over (a
        /// cancellation or the wait timer won), and the connection should go on without it.
        func run(on connection: HTTP1Connection) -> Bool {
            state.withLockedValue { state in
                guard state.continuation != nil, !state.cancelled else { return false }
                if case .waiting(let timer) = state.stage { timer?.cancel() }
                state.stage = .running(connection)
                return true
            }
        }

        /// Answers the call, once; later answers are dropped. Returns whether this one was delivered.
        @discardableResult
        func finish(_ result: Result<NIOResponse, any Error>) -> Bool {
            let continuation = state.withLockedValue { state -> Continuation? in
                if case .waiting(let timer) = state.stage { timer?.cancel() }
                state.stage = .finished
                defer { state.continuation = nil }
                return state.continuation
            }
            continuation?.resume(with: result)
            return continuation != nil
        }

        /// The calling task was cancelled: the call throws `CancellationError` at once, and the connection it runs on,
        /// if any, is closed on its event loop (a half-sent request or a half-read response cannot be reused).
        func cancel(pool: ConnectionPool) {
            let (stage, continuation) = state.withLockedValue { state -> (Stage, Continuation?) in
                state.cancelled = true
                let stage = state.stage
                if case .waiting(let timer) = stage { timer?.cancel() }
                state.stage = .finished
                defer { state.continuation = nil }
                return (stage, state.continuation)
            }
            continuation?.resume(throwing: CancellationError())
            switch stage {
            case .waiting: pool.forget(self)
            case .running(let connection): connection.abandon(self)
            case .created, .finished: break
            }
        }
    }
#endif
