import Dispatch
import Foundation

/// Runs blocking file work — a read of a multipart file part or of an upload's file, a write of a body to a file — on
/// threads of its own, never on a thread of Swift's cooperative pool.
///
/// The cooperative pool has one thread per core: on a 2-core server, two reads waiting on a slow disk would hold
/// every other call's task, cancellation and timeout until they return. A Dispatch queue's threads are not the pool's,
/// and the awaiting task gives its thread back while the work runs. Each piece of work is one read or write of at
/// most a chunk (256 KiB), so a queue without a width limit stays small: one thread per body being read at once.
package enum BlockingIO {
    private static let queue = DispatchQueue(label: "RetroSwift.blocking-io", qos: .utility, attributes: .concurrent)

    /// Runs `work` on the blocking-work queue and returns what it returns.
    ///
    /// - Parameter work: The blocking work: one read or write.
    /// - Returns: What `work` returned.
    /// - Throws: What `work` threw.
    package static func run<T: Sendable>(_ work: @escaping @Sendable () throws -> T) async throws -> T {
        try await withCheckedThrowingContinuation { continuation in
            queue.async { continuation.resume(with: Result { try work() }) }
        }
    }
}
