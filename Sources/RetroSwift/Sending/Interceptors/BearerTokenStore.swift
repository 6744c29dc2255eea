import Foundation

/// Holds a bearer token and refreshes it at most once at a time (single flight).
///
/// When many calls see `401` together, the first starts a refresh and the rest wait for it; a call whose token
/// was already replaced gets the new one without another refresh. A failed refresh fails every call waiting on it.
/// A waiting call whose task is cancelled stops waiting at once with `CancellationError`; the refresh goes on for
/// the others.
public actor BearerTokenStore {
    /// Produces a new token; receives the token that was rejected (`nil` when there was none yet).
    typealias Refresh = @Sendable (_ rejected: String?) async throws -> String

    private var token: String?
    private var refreshing = false
    private var waiters: [Int: CheckedContinuation<String, any Error>] = [:]
    private var nextWaiter = 0
    private let refresh: Refresh

    /// Creates a store.
    ///
    /// - Parameters:
    ///   - token: The initial token, or `nil` or an empty string (an app that has none yet) to fetch one on first use.
    ///   - refresh: Produces a new token.
    public init(token: String? = nil, refresh: @escaping @Sendable (_ rejected: String?) async throws -> String) {
        self.token = token?.isEmpty == true ? nil : token
        self.refresh = refresh
    }

    /// The token to send now, waiting for a refresh in flight or fetching the first one.
    ///
    /// - Returns: The token.
    /// - Throws: What the refresh throws, or `CancellationError` when the calling task is cancelled while waiting.
    public func currentToken() async throws -> String {
        if refreshing { return try await waitForRefresh() }
        if let token { return token }
        return try await refreshToken(rejected: nil)
    }

    /// A token to replace `rejected`: the one already refreshed by another call, or a new one.
    ///
    /// - Parameter rejected: The token the server refused, or `nil` when there was none.
    /// - Returns: The new token.
    /// - Throws: What the refresh throws, or `CancellationError` when the calling task is cancelled while waiting.
    public func refreshToken(rejected: String?) async throws -> String {
        if !refreshing {
            if let token, token != rejected { return token }
            refreshing = true
            let refresh = refresh
            // Unstructured, so one caller's cancellation does not cancel the refresh the others wait for.
            Task {
                let result = await Result { try await refresh(rejected) }
                self.finish(result)
            }
        }
        return try await waitForRefresh()
    }

    private func finish(_ result: Result<String, any Error>) {
        if case .success(let fresh) = result { token = fresh }
        refreshing = false
        let waiting = waiters
        waiters = [:]
        for continuation in waiting.values { continuation.resume(with: result) }
    }

    private func waitForRefresh() async throws -> String {
        let id = nextWaiter
        nextWaiter += 1
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                if Task.isCancelled {
                    continuation.resume(throwing: CancellationError())
                } else {
                    waiters[id] = continuation
                }
            }
        } onCancel: {
            Task { await self.cancelWaiter(id) }
        }
    }

    /// How many calls wait for the refresh under way: what a test of single-flight refreshing waits on.
    var waitingCallCount: Int {
        waiters.count
    }

    private func cancelWaiter(_ id: Int) {
        waiters.removeValue(forKey: id)?.resume(throwing: CancellationError())
    }
}

extension Result where Failure == any Error {
    /// The outcome of `body`.
    fileprivate init(catching body: () async throws -> Success) async {
        do {
            self = .success(try await body())
        } catch {
            self = .failure(error)
        }
    }
}
