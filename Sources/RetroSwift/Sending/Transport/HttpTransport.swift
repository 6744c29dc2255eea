import Foundation

/// The network layer RetroSwift sends requests through.
///
/// `RetroSwiftURLSession` ships a URLSession-based transport; `RetroSwiftTesting` ships a recording fake.
/// A custom transport conforms to ``ConfigurableHTTPTransport`` for its configuration. RetroSwift resolves each request
/// completely before the transport sees it and follows redirects itself (see ``RedirectPolicy``); its promises about
/// credentials and other origins hold only if the transport:
/// - sends ``HttpRequestParams/url`` and ``HttpRequestParams/headerFields`` as they are, adding no credentials of its
///   own;
/// - never follows a redirect itself, returning the `3xx` instead;
/// - throws only when no response arrived.
///
/// The `RetroSwiftTransportConformance` product (trait `TransportConformance`) checks all of this, and more, against
/// a scripted server: see <doc:Transports>.
public protocol HttpTransport: Sendable {
    /// Points the transport at `scheme://host`, with headers sent on every request.
    func setConfiguration(scheme: String, host: String, sharedHeaders: [String: String]?)
    /// Points the transport at a base URL that may carry a port and a base path, such as `http://127.0.0.1:8080/api/v2`.
    func setConfiguration(baseURL: URL, sharedHeaders: [String: String]?)
    /// Sends one request and returns the response, whatever its status code, without following redirects.
    ///
    /// - Parameter params: The request, fully built and encoded.
    /// - Returns: The status, headers and body, and the URL requested.
    /// - Throws: Only when no response arrived (connection failures, timeouts, cancellation).
    func sendRequest(with params: HttpRequestParams) async throws -> HttpOperationResult
    /// What of a ``ServerTrust`` this transport enforces on its connections (``HttpRequestParams/serverTrust``).
    /// RetroSwift refuses to hand it a call whose domain asks for more. None by default, so that a transport that
    /// never reads ``HttpRequestParams/serverTrust`` is never trusted to.
    var serverTrustSupport: ServerTrustSupport { get }
}

extension HttpTransport {
    /// None: a transport enforces a ``ServerTrust`` only once it says so.
    public var serverTrustSupport: ServerTrustSupport { [] }
}
