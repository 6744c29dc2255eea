import Foundation

/// Where a transport sends requests, and the headers it adds to each.
public struct HttpTransportConfiguration: Sendable, Hashable {
    /// The base URL: scheme, host, optional port and optional base path.
    public let baseURL: URL
    /// Headers sent with every request; a request's own header of the same name wins.
    public let sharedHeaders: [String: String]

    /// Creates a configuration.
    public init(baseURL: URL, sharedHeaders: [String: String]? = nil) {
        self.baseURL = baseURL
        self.sharedHeaders = sharedHeaders ?? [:]
    }
}
