import Foundation

/// A value guarded by a lock, shared between tasks: the one lock wrapper of the package, used by every product
/// (`package` access), so none keeps an `NSLock` and a `var` of its own.
///
/// `Mutex` from the Synchronization module needs macOS 15 / iOS 18; we support older systems, so this wraps `NSLock`.
// @unchecked Sendable: every access to `value` goes through `lock`, so no two threads touch it at once.
package final class Locked<Value>: @unchecked Sendable {
    private let lock = NSLock()
    private var value: Value

    package init(_ value: Value) {
        self.value = value
    }

    package func withLock<Result>(_ body: (inout Value) throws -> Result) rethrows -> Result {
        lock.lock()
        defer { lock.unlock() }
        return try body(&value)
    }

    package var current: Value {
        withLock { $0 }
    }
}
