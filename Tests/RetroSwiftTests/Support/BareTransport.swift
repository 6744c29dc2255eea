import Foundation
import RetroSwift

/// The one fake transport of these tests beside `RecordingTransport`: `HttpTransport` and nothing more — it enforces no
/// `ServerTrust`, keeps no base URL RetroSwift can read — answering from a closure, for tests of what RetroSwift does
/// with such a transport.
final class BareTransport: HttpTransport, Sendable {
    /// Produces the answer to a request.
    typealias Responder = @Sendable (HttpRequestParams) async throws -> HttpOperationResult

    private let responder: Responder
    private let received = Locked<[HttpRequestParams]>([])

    /// - Parameter responder: The answer to each request; by default a JSON item, `{"id":1}`.
    init(responder: @escaping Responder = { _ in .json(#"{"id":1}"#) }) {
        self.responder = responder
    }

    /// Every request handed over so far, in order.
    var requests: [HttpRequestParams] { received.current }

    func setConfiguration(scheme: String, host: String, sharedHeaders: [String: String]?) {}
    func setConfiguration(baseURL: URL, sharedHeaders: [String: String]?) {}

    func sendRequest(with params: HttpRequestParams) async throws -> HttpOperationResult {
        received.withLock { $0.append(params) }
        return try await responder(params)
    }
}
