import Foundation

/// Sends `Authorization: Bearer <token>` and, on `401`, refreshes the token once and replays the call.
///
/// A store made without a token, or with an empty one, fetches one before the first call.
public struct BearerAuthInterceptor: Interceptor {
    /// Where tokens come from; share one store between domains that share credentials.
    let store: BearerTokenStore

    /// Creates the interceptor.
    public init(store: BearerTokenStore) {
        self.store = store
    }

    /// Authorizes the request; on `401` refreshes (single flight) and sends it once more. A call that a `@Url` field
    /// leads to another origin without credentials (``HttpRequestParams/withholdsCredentials``) passes through
    /// untouched: the token would be dropped before sending, and that origin's `401` says nothing about it.
    public func intercept(_ request: HttpRequestParams, next: InterceptorNext) async throws -> HttpOperationResult {
        if request.withholdsSharedHeaders { return try await next(request) }
        let token = try await store.currentToken()
        let response = try await next(try Self.authorizing(request, with: token))
        guard response.statusCode == 401 else { return response }
        let fresh = try await store.refreshToken(rejected: token)
        return try await next(try Self.authorizing(request, with: fresh))
    }

    /// `request` with `Authorization: Bearer <token>`; without it when the token is empty, so that a refresher that
    /// has no token to give yet leads to a `401` rather than to a value RetroSwift refuses to send. Spaces around the
    /// token are left out, as servers would strip them (RFC 9110 §5.5).
    private static func authorizing(_ request: HttpRequestParams, with token: String) throws -> HttpRequestParams {
        let token = token.trimmingCharacters(in: .whitespaces)
        guard !token.isEmpty else { return request }
        return try request.settingHeader("Authorization", to: "Bearer \(token)")
    }
}
