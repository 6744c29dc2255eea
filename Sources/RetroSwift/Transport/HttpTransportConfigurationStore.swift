import Foundation

/// Thread-safe storage for a transport's configuration that refuses to be silently overwritten.
///
/// README-style domains configure their transport in `init`. When two domains share one transport and configure
/// it differently, the last call would quietly redirect the other domain's requests. Instead the store remembers
/// the conflict and every later request fails with ``RequestError/Kind/transportNotConfigured``, naming both
/// configurations. Configuring the same values again is fine; give each differently configured domain its own
/// transport (they can share one `URLSession` or `HTTPClient`).
public final class HttpTransportConfigurationStore: Sendable {
    private enum State: Sendable {
        case unset
        case configured(HttpTransportConfiguration)
        case invalid(String)
    }

    private let state = Locked(State.unset)

    /// Creates an empty store.
    public init() {}

    /// Records `scheme://host` (the README's call). A port may be given as `host:port`.
    public func set(scheme: String, host: String, sharedHeaders: [String: String]?) {
        guard let url = URL(string: "\(scheme)://\(host)"), url.host != nil, !host.contains("/") else {
            state.withLock { $0 = .invalid("scheme '\(scheme)' and host '\(host)' do not form a valid base URL") }
            return
        }
        set(HttpTransportConfiguration(baseURL: url, sharedHeaders: sharedHeaders))
    }

    /// Records a base URL, which may carry a port and a base path.
    public func set(baseURL: URL, sharedHeaders: [String: String]?) {
        set(HttpTransportConfiguration(baseURL: baseURL, sharedHeaders: sharedHeaders))
    }

    /// Records a configuration, or a conflict when a different one is already set.
    public func set(_ configuration: HttpTransportConfiguration) {
        let problem = Self.problem(in: configuration)
        state.withLock { state in
            if let problem {
                state = .invalid(problem)
                return
            }
            switch state {
            case .unset:
                state = .configured(configuration)
            case .configured(let existing) where existing == configuration:
                break
            case .configured(let existing):
                state = .invalid(
                    "the transport was configured twice with different settings (\(existing.baseURL) and "
                        + "\(configuration.baseURL)); give each domain its own transport instance"
                )
            case .invalid:
                break
            }
        }
    }

    /// The configuration to use for `params`, or a ``RequestError`` saying why there is none.
    public func configuration(for params: HttpRequestParams) throws -> HttpTransportConfiguration {
        switch state.current {
        case .configured(let configuration):
            return configuration
        case .unset:
            throw RequestError(
                .transportNotConfigured, endpoint: params.endpoint,
                reason: "the transport has no base URL; call setConfiguration(baseURL:sharedHeaders:) first"
            )
        case .invalid(let reason):
            throw RequestError(.transportNotConfigured, endpoint: params.endpoint, reason: reason)
        }
    }

    private static func problem(in configuration: HttpTransportConfiguration) -> String? {
        guard let scheme = configuration.baseURL.scheme?.lowercased(), scheme == "http" || scheme == "https",
            configuration.baseURL.host != nil
        else {
            return "base URL '\(configuration.baseURL)' must be an absolute http or https URL"
        }
        for (name, value) in configuration.sharedHeaders {
            if let reason = HeaderRules.problem(inName: name) ?? HeaderRules.problem(inValue: value) {
                return "shared header '\(name)': \(reason)"
            }
        }
        return nil
    }
}
