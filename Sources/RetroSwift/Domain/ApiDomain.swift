import Foundation

/// A ``Domain`` that configures its transport from a base URL, for APIs that need nothing more.
///
/// ```swift
/// final class SchedulesApi: ApiDomain, @unchecked Sendable { ... }
/// let api = SchedulesApi(transport: URLSessionTransport(), baseURL: URL(string: "https://example.com/api")!)
/// ```
open class ApiDomain: Domain {
    /// Configures `transport` with `baseURL` and `sharedHeaders`, then creates the domain.
    public init(transport: any HttpTransport, baseURL: URL, sharedHeaders: [String: String]? = nil) {
        transport.setConfiguration(baseURL: baseURL, sharedHeaders: sharedHeaders)
        super.init(transport: transport)
    }

    /// Creates the domain with a transport you have configured yourself.
    public override init(transport: any HttpTransport) {
        super.init(transport: transport)
    }
}
