#if NIO
    import NIOConcurrencyHelpers
    import NIOCore

    /// A task executor that runs jobs on one event loop (``NIOTransport/withCallsOnEventLoop(_:)``): a task that
    /// prefers it makes its calls on the thread that reads their answers, so an answer reaches it without waking
    /// another thread.
    @available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, visionOS 2.0, *)
    final class EventLoopTaskExecutor: TaskExecutor {
        let eventLoop: any EventLoop

        /// An executor of its own for `eventLoop`, for a task that runs once (a TLS handshake's verification): unlike
        /// ``of(_:)``'s, it keeps the loop only as long as the task.
        init(_ eventLoop: any EventLoop) {
            self.eventLoop = eventLoop
        }

        func enqueue(_ job: consuming ExecutorJob) {
            let job = UnownedJob(job)
            let executor = asUnownedTaskExecutor()
            eventLoop.execute { job.runSynchronously(on: executor) }
        }

        /// The executor of `eventLoop`, one per event loop for the life of the process (a group has one per core).
        static func of(_ eventLoop: any EventLoop) -> EventLoopTaskExecutor {
            let id = ObjectIdentifier(eventLoop)
            return executors.withLockedValue { executors in
                if let executor = executors[id] { return executor }
                let executor = EventLoopTaskExecutor(eventLoop)
                executors[id] = executor
                return executor
            }
        }

        private static let executors = NIOLockedValueBox<[ObjectIdentifier: EventLoopTaskExecutor]>([:])
    }
#endif
