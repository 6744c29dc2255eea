import Foundation
import RetroSwift

/// A lock-guarded value for test doubles that are shared between tasks.
///
/// Only `Sendable` values: the lock keeps two tasks from changing the value at once, but ``value`` hands out a copy,
/// and a value that is not `Sendable` (a class without a lock of its own) would be shared by that copy unguarded.
public final class Protected<Value: Sendable>: Sendable {
    private let storage: Locked<Value>

    /// Wraps `value`.
    ///
    /// - Parameter value: The initial value.
    public init(_ value: Value) {
        storage = Locked(value)
    }

    /// A copy of the current value.
    public var value: Value {
        storage.current
    }

    /// Changes the value under the lock and returns what `body` returns.
    ///
    /// - Parameter body: Reads or changes the value.
    /// - Returns: What `body` returns.
    /// - Throws: What `body` throws.
    @discardableResult
    public func mutate<Result: Sendable>(_ body: (inout Value) throws -> Result) rethrows -> Result {
        try storage.withLock(body)
    }
}
