import Foundation

/// The network layer RetroSwift sends requests through.
///
/// `RetroSwiftURLSession`, `RetroSwiftAsyncHTTPClient` and `RetroSwiftNIO` ship transports; `RetroSwiftTesting`
/// ships a recording fake. A transport of your own writes one method, ``sendRequest(with:)``: RetroSwift resolves each
/// request completely before the transport sees it and follows redirects itself (see ``RedirectPolicy``), and its
/// promises about credentials and other origins hold as long as the transport
/// - sends ``HttpRequestParams/url``, ``HttpRequestParams/method``, ``HttpRequestParams/headerFields`` and
///   ``HttpRequestParams/body`` as they are, adding no credentials of its own;
/// - never follows a redirect itself, returning the `3xx` instead;
/// - throws only when no response arrived.
///
/// The `RetroSwiftTransportConformance` product (trait `TransportConformance`) checks all of this, and more, against
/// a scripted server: see <doc:Transports>.
public protocol HttpTransport: Sendable {
    /// Points the transport at `scheme://host`, with headers sent on every request.
    ///
    /// RetroSwift keeps what a domain sets here for a transport that does not implement it, and resolves every call's
    /// ``HttpRequestParams/url`` and ``HttpRequestParams/headerFields`` from it. A transport that implements it keeps
    /// the configuration itself, and then receives a relative ``HttpRequestParams/url`` for the domains without a
    /// base URL of their own.
    ///
    /// - Parameters:
    ///   - scheme: `http` or `https`.
    ///   - host: The host, with `:port` when it is not the scheme's default.
    ///   - sharedHeaders: Headers sent with every request; a request's own of the same name wins.
    func setConfiguration(scheme: String, host: String, sharedHeaders: [String: String]?)
    /// Points the transport at a base URL that may carry a port and a base path, such as `http://127.0.0.1:8080/api/v2`.
    ///
    /// - Parameters:
    ///   - baseURL: An absolute `http` or `https` URL.
    ///   - sharedHeaders: Headers sent with every request; a request's own of the same name wins.
    func setConfiguration(baseURL: URL, sharedHeaders: [String: String]?)
    /// Sends one request and returns the response, whatever its status code, without following redirects.
    ///
    /// - Parameter params: The request, fully resolved.
    /// - Returns: The status, headers and body, and the URL requested.
    /// - Throws: Only when no response arrived (connection failures, timeouts, cancellation).
    func sendRequest(with params: HttpRequestParams) async throws -> HttpOperationResult
}

extension HttpTransport {
    /// Records `scheme://host` and the shared headers for the calls of domains without a base URL of their own;
    /// RetroSwift keeps them, for a transport that is a class. A second, different configuration of the same
    /// transport makes the calls relying on it fail with ``RequestError/Kind/transportNotConfigured``.
    ///
    /// - Parameters:
    ///   - scheme: `http` or `https`.
    ///   - host: The host, with `:port` when it is not the scheme's default.
    ///   - sharedHeaders: Headers sent with every request; a request's own of the same name wins.
    public func setConfiguration(scheme: String, host: String, sharedHeaders: [String: String]?) {
        TransportTarget.of(self)?.set(scheme: scheme, host: host, sharedHeaders: sharedHeaders)
    }

    /// Records a base URL and shared headers for the calls of domains without a base URL of their own; see
    /// ``setConfiguration(scheme:host:sharedHeaders:)``.
    ///
    /// - Parameters:
    ///   - baseURL: An absolute `http` or `https` URL, which may carry a port and a base path.
    ///   - sharedHeaders: Headers sent with every request; a request's own of the same name wins.
    public func setConfiguration(baseURL: URL, sharedHeaders: [String: String]?) {
        TransportTarget.of(self)?.set(HTTPTransportConfiguration(baseURL: baseURL, sharedHeaders: sharedHeaders))
    }
}
