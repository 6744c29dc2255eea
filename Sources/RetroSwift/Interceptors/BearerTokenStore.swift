/// Holds a bearer token and refreshes it at most once at a time (single flight).
///
/// When many calls see `401` together, the first starts a refresh and the rest wait for it; a call whose token
/// was already replaced gets the new one without another refresh. A failed refresh fails every call waiting on it.
public actor BearerTokenStore {
    /// Produces a new token; receives the token that was rejected (`nil` when there was none yet).
    public typealias Refresh = @Sendable (_ rejected: String?) async throws -> String

    private var token: String?
    private var refreshing: Task<String, any Error>?
    private let refresh: Refresh

    /// Creates a store with an initial token (or `nil` to fetch one on first use) and a refresh function.
    public init(token: String? = nil, refresh: @escaping Refresh) {
        self.token = token
        self.refresh = refresh
    }

    /// The token to send now, waiting for a refresh in flight or fetching the first one.
    public func currentToken() async throws -> String {
        if let refreshing { return try await refreshing.value }
        if let token { return token }
        return try await refreshToken(rejected: nil)
    }

    /// A token to replace `rejected`: the one already refreshed by another call, or a new one.
    public func refreshToken(rejected: String?) async throws -> String {
        if let refreshing { return try await refreshing.value }
        if let token, token != rejected { return token }
        let refresh = refresh
        let task = Task { try await refresh(rejected) }
        refreshing = task
        do {
            let fresh = try await task.value
            token = fresh
            refreshing = nil
            return fresh
        } catch {
            refreshing = nil
            throw error
        }
    }
}
