import Foundation
import RetroSwift

/// A lock-guarded value for test doubles that are shared between tasks.
public final class Protected<Value>: Sendable {
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
    public func mutate<Result>(_ body: (inout Value) throws -> Result) rethrows -> Result {
        try storage.withLock(body)
    }
}
