/// Sends a request on to the rest of the chain (the next interceptor, finally the transport).
public typealias InterceptorNext = @Sendable (HttpRequestParams) async throws -> HttpOperationResult

/// A step between an endpoint and its transport, in the spirit of OkHttp interceptors and swift-openapi's
/// `ClientMiddleware`.
///
/// An interceptor may change the request, answer without calling `next` (short-circuit), inspect or replace the
/// response, or call `next` again (retry). Interceptors run in the order of ``Domain/interceptors``.
public protocol Interceptor: Sendable {
    /// Handles one request.
    func intercept(_ request: HttpRequestParams, next: InterceptorNext) async throws -> HttpOperationResult
}
