import Foundation

/// A domain's own base URL and shared headers (``Domain/baseURL``, ``Domain/sharedHeaders``), checked once when they
/// are set and carried by each call's ``HttpRequestParams`` as they were when the call started.
final class DomainTarget: Sendable {
    let baseURL: URL?
    let sharedHeaders: [String: String]
    /// Why the values cannot be used, or `nil` when they can.
    let problem: String?
    /// Where calls go when the domain has a base URL of its own: that URL with the domain's shared headers alone.
    let configuration: HTTPTransportConfiguration?

    init(baseURL: URL?, sharedHeaders: [String: String]) {
        self.baseURL = baseURL
        self.sharedHeaders = sharedHeaders
        problem = HTTPTransportConfiguration.problem(baseURL: baseURL, sharedHeaders: sharedHeaders)
        configuration = baseURL.map { HTTPTransportConfiguration(baseURL: $0, sharedHeaders: sharedHeaders) }
    }
}
