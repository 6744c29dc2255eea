import Foundation

/// A value guarded by a lock, shared between tasks.
///
/// `Mutex` from the Synchronization module needs macOS 15 / iOS 18; we support older systems, so this wraps `NSLock`.
// @unchecked Sendable: every access to `value` goes through `lock`, so no two threads touch it at once.
final class Locked<Value>: @unchecked Sendable {
    private let lock = NSLock()
    private var value: Value

    init(_ value: Value) {
        self.value = value
    }

    func withLock<Result>(_ body: (inout Value) throws -> Result) rethrows -> Result {
        lock.lock()
        defer { lock.unlock() }
        return try body(&value)
    }

    var current: Value {
        withLock { $0 }
    }
}
