import Foundation
import RetroSwift

/// A transport for tests: records every request and answers with what you tell it, without a network.
///
/// ```swift
/// let transport = RecordingTransport { _ in .json(#"{"id": 1}"#) }
/// let api = SchedulesApi(transport: transport)
/// _ = try await api.getSchedules(request)
/// #expect(transport.requests.first?.encodedPathAndQuery == "/api/v1/schedule?page=1")
/// ```
public final class RecordingTransport: HttpTransport, ServerTrustEnforcing {
    /// Produces the response for a request; throw to simulate a transport failure.
    public typealias Responder = @Sendable (HttpRequestParams) async throws -> HttpOperationResult

    private let responder: Responder
    private let recorded = Protected<[HttpRequestParams]>([])

    /// Creates a transport that answers every request with `responder` (by default `204 No Content`).
    public init(responder: @escaping Responder = { _ in HttpOperationResult(statusCode: 204) }) {
        self.responder = responder
    }

    /// Every request sent so far, in order.
    public var requests: [HttpRequestParams] {
        recorded.value
    }

    /// The most recent request.
    public var lastRequest: HttpRequestParams? {
        requests.last
    }

    /// Everything: the transport makes no connection, and records `HttpRequestParams.serverTrust` and
    /// `HttpRequestParams.clientIdentity` with the rest of the request for a test to check.
    public var serverTrustSupport: ServerTrustSupport { [.certificateAuthorities, .publicKeyPins, .clientIdentity] }

    /// Records the request and returns the responder's answer. A test that does not care about URLs need not configure
    /// a base URL: the request then comes with a relative `url`, the path and query.
    ///
    /// - Parameter params: The request RetroSwift built.
    /// - Returns: The responder's answer.
    /// - Throws: What the responder throws.
    public func sendRequest(with params: HttpRequestParams) async throws -> HttpOperationResult {
        recorded.mutate { $0.append(params) }
        return try await responder(params)
    }
}
