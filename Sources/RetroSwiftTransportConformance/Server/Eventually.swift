#if TransportConformance
    /// Waits until `condition` holds, checking it every few milliseconds, for at most `limit`.
    ///
    /// The one way the suite and RetroSwift's own tests wait for something another task or the server does: they wait
    /// for the thing itself, never for a time that usually suffices. `package`, so the product's users never see it.
    ///
    /// - Parameters:
    ///   - limit: How long to wait at most; a bound for a hang, never a delay the test relies on: a minute by default,
    ///     since a sanitized run on two loaded cores can take many seconds over what a quick run takes in one.
    ///   - condition: What must come to hold; called on the waiting task.
    /// - Returns: Whether `condition` held before `limit` passed.
    /// - Throws: `CancellationError` when the waiting task is cancelled.
    package func eventually(within limit: Duration = .seconds(60), _ condition: () async throws -> Bool) async throws -> Bool {
        let deadline = ContinuousClock.now + limit
        while try await !condition() {
            guard ContinuousClock.now < deadline else { return false }
            try await Task.sleep(for: .milliseconds(2))
        }
        return true
    }
#endif
