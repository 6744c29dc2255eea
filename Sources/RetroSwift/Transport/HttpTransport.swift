import Foundation

/// The network layer RetroSwift sends requests through.
///
/// `RetroSwiftURLSession` ships a URLSession-based transport; `RetroSwiftTesting` ships a recording fake.
/// A custom transport conforms to ``ConfigurableHttpTransport`` for its configuration and builds the URL with
/// ``HttpRequestParams/url(relativeTo:)``, which leaves it no encoding work.
public protocol HttpTransport: Sendable {
    /// Points the transport at `scheme://host`, with headers sent on every request.
    func setConfiguration(scheme: String, host: String, sharedHeaders: [String: String]?)
    /// Points the transport at a base URL that may carry a port and a base path, such as `http://127.0.0.1:8080/api/v2`.
    func setConfiguration(baseURL: URL, sharedHeaders: [String: String]?)
    /// Sends one request and returns the response, whatever its status code.
    ///
    /// Throws only when no response arrived (connection failures, timeouts, cancellation).
    func sendRequest(with params: HttpRequestParams) async throws -> HttpOperationResult
}
