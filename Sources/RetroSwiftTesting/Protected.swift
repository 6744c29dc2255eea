import Foundation

/// A lock-guarded value for test doubles that are shared between tasks.
// @unchecked Sendable: `storage` is only read or written while `lock` is held.
public final class Protected<Value>: @unchecked Sendable {
    private let lock = NSLock()
    private var storage: Value

    /// Wraps `value`.
    public init(_ value: Value) {
        storage = value
    }

    /// A copy of the current value.
    public var value: Value {
        lock.lock()
        defer { lock.unlock() }
        return storage
    }

    /// Changes the value under the lock and returns what `body` returns.
    @discardableResult
    public func mutate<Result>(_ body: (inout Value) throws -> Result) rethrows -> Result {
        lock.lock()
        defer { lock.unlock() }
        return try body(&storage)
    }
}
