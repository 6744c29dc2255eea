import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
    import Dispatch

    /// The delegate queue of the transport's own sessions on Linux, which holds libcurl to the pace of the delegate.
    ///
    /// swift-corelibs-foundation cannot pause a transfer: libcurl reads and decompresses at full speed on the sessions'
    /// shared work queue, and hands every piece of at most 16 KiB to the delegate through `addOperation` on this
    /// queue, with no limit on how many wait. A gzip body inflating to a gigabyte was all queued (1.2 GB resident,
    /// 12 s) before the delegate counted past `ResponseLimits.maxBodyBytes`. Here `addOperation` waits while
    /// ``maxQueued`` pieces wait already, so the work queue, and libcurl with it, goes no faster than the delegate:
    /// what a call holds stays near its limit.
    ///
    /// The wait is bounded (``maxWait``): swift-corelibs-foundation's `cancel()`, `suspend()` and `resume()`, and
    /// the completion handler of an authentication challenge, run synchronously on the work queue, so a delegate
    /// callback that called one of them while the work queue waited here would wait for it forever. The transport's
    /// delegate never does (``DelegateSessionDelegate`` cancels from another queue), and a user's challenge decision
    /// can at worst let one more piece in every ``maxWait``.
    // @unchecked Sendable: OperationQueue is thread-safe but not declared Sendable on Linux; the one stored property is
    // a semaphore, which is.
    final class BoundedDelegateQueue: OperationQueue, @unchecked Sendable {
        /// How many pieces may wait for the delegate: 64 of libcurl's 16 KiB writes, about a megabyte.
        static let maxQueued = 64
        /// The longest the work queue waits for room before it queues a piece anyway.
        static let maxWait = DispatchTimeInterval.milliseconds(50)

        private let room = DispatchSemaphore(value: maxQueued)

        override init() {
            super.init()
            maxConcurrentOperationCount = 1
            name = "RetroSwiftURLSession.delegate"
        }

        override func addOperation(_ operation: Operation) {
            // Added from a delegate callback (a challenge's completion queues the task's end here): waiting for room
            // that only this queue can make would never end.
            if OperationQueue.current === self { return super.addOperation(operation) }
            let reserved = room.wait(timeout: .now() + Self.maxWait) == .success
            let room = room
            super.addOperation(
                BlockOperation {
                    operation.start()
                    if reserved { room.signal() }
                })
        }

        override func addOperation(_ block: @escaping @Sendable () -> Void) {
            addOperation(BlockOperation(block: block))
        }
    }
#endif
