import Foundation

/// A transport that keeps its configuration in an ``HTTPTransportConfigurationStore`` and so gets both
/// `setConfiguration` requirements of ``HttpTransport`` from this protocol.
public protocol ConfigurableHTTPTransport: HttpTransport {
    /// Where the configuration set by the domain is kept: one store for the transport's lifetime (a `let`), which
    /// each domain reads once, when it is created.
    var configuration: HTTPTransportConfigurationStore { get }
}

extension ConfigurableHTTPTransport {
    /// Records `scheme://host` in ``configuration``.
    public func setConfiguration(scheme: String, host: String, sharedHeaders: [String: String]?) {
        configuration.set(scheme: scheme, host: host, sharedHeaders: sharedHeaders)
    }

    /// Records a base URL, which may carry a port and a base path, in ``configuration``.
    public func setConfiguration(baseURL: URL, sharedHeaders: [String: String]?) {
        configuration.set(baseURL: baseURL, sharedHeaders: sharedHeaders)
    }
}
