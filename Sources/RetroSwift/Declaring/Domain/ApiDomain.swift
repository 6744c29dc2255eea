import Foundation

/// A ``Domain`` created with its base URL, for APIs that need nothing more.
///
/// ```swift
/// final class SchedulesApi: ApiDomain, @unchecked Sendable { ... }
/// let api = SchedulesApi(transport: URLSessionTransport(), baseURL: URL(string: "https://example.com/api")!)
/// ```
///
/// The base URL and shared headers belong to the domain (``Domain/baseURL``, ``Domain/sharedHeaders``), not to the
/// transport, so several `ApiDomain`s can share one transport, and each can switch its base URL while the app runs.
open class ApiDomain: Domain {
    /// Creates the domain with its base URL and shared headers; `transport` is left as it is.
    ///
    /// - Parameters:
    ///   - transport: The transport every endpoint sends through; it may be shared with other domains.
    ///   - baseURL: Where calls go: scheme, host, and optionally a port and a base path.
    ///   - sharedHeaders: Headers every call carries, such as an API key.
    public init(transport: any HttpTransport, baseURL: URL, sharedHeaders: [String: String]? = nil) {
        super.init(transport: transport)
        setConfiguration(baseURL: baseURL, sharedHeaders: sharedHeaders ?? [:])
    }

    /// Creates the domain with a transport you have configured yourself.
    public override init(transport: any HttpTransport) {
        super.init(transport: transport)
    }

    /// Creates a domain nested in `parent`, sharing its transport and settings; see ``Domain/init(parent:path:values:)``.
    ///
    /// - Parameters:
    ///   - parent: The domain this one is reached from.
    ///   - path: The path before this domain's endpoints' own, such as `/repos/{owner}/{name}`.
    ///   - values: The placeholders' values, by name.
    public override init(parent: Domain, path: String, values: [String: Any] = [:]) {
        super.init(parent: parent, path: path, values: values)
    }
}
