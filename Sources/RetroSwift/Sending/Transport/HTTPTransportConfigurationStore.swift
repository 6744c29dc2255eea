import Foundation

/// Thread-safe storage for a transport's configuration that refuses to be silently overwritten.
///
/// README-style domains configure their transport in `init`. When two domains share one transport and configure
/// it differently, the last call would quietly redirect the other domain's requests. Instead the store remembers
/// the conflict and every later request that relies on it fails with ``RequestError/Kind/transportNotConfigured``,
/// naming both configurations. Configuring the same values again is fine. Domains that carry their own
/// configuration (``Domain/baseURL``, as ``ApiDomain`` does) never rely on the store, so they can share one
/// transport safely and switch base URLs while the app runs.
public final class HTTPTransportConfigurationStore: Sendable {
    private enum State: Sendable {
        case unset
        case configured(HTTPTransportConfiguration)
        case invalid(String)
    }

    private let state = Locked(State.unset)

    /// Whether a call fails when neither its domain nor this store has a usable base URL.
    public let baseURLRequired: Bool

    /// Creates an empty store.
    ///
    /// - Parameter baseURLRequired: `true` (the default) for a transport that sends over a network: RetroSwift then
    ///   fails a call with ``RequestError/Kind/transportNotConfigured`` before it reaches the transport when there is
    ///   no usable base URL. `false` for a test double that can answer anyway: such a call reaches it with a relative
    ///   ``HttpRequestParams/url``, and ``configuration(for:)`` throws the error when asked.
    public init(baseURLRequired: Bool = true) {
        self.baseURLRequired = baseURLRequired
    }

    /// Records `scheme://host` (the README's call). A port may be given as `host:port`.
    public func set(scheme: String, host: String, sharedHeaders: [String: String]?) {
        guard let url = URL(string: "\(scheme)://\(host)"), url.host != nil, !host.contains("/") else {
            state.withLock { $0 = .invalid("scheme '\(scheme)' and host '\(host)' do not form a valid base URL") }
            return
        }
        set(HTTPTransportConfiguration(baseURL: url, sharedHeaders: sharedHeaders))
    }

    /// Records a base URL, which may carry a port and a base path.
    public func set(baseURL: URL, sharedHeaders: [String: String]?) {
        set(HTTPTransportConfiguration(baseURL: baseURL, sharedHeaders: sharedHeaders))
    }

    /// Records a configuration, or a conflict when a different one is already set.
    public func set(_ configuration: HTTPTransportConfiguration) {
        let problem = HTTPTransportConfiguration.problem(
            baseURL: configuration.baseURL, sharedHeaders: configuration.sharedHeaders)
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
                        + "\(configuration.baseURL)); set each domain's baseURL instead, or give each domain its own "
                        + "transport instance"
                )
            case .invalid:
                break
            }
        }
    }

    /// The configuration to use for `params`, or a ``RequestError`` saying why there is none.
    ///
    /// A request from a domain with a base URL of its own (``Domain/baseURL``) goes there, with the domain's shared
    /// headers only: what is stored here is not used, so domains configured this way can share a transport whatever
    /// it holds. Otherwise the stored configuration is used, with the domain's shared headers added (they win over
    /// stored ones of the same name).
    ///
    /// - Parameter params: The request about to be sent.
    /// - Returns: The base URL and shared headers to send it with.
    /// - Throws: ``RequestError`` of kind ``RequestError/Kind/transportNotConfigured`` when neither the domain nor
    ///   this store has a usable base URL, or when two domains stored different configurations here.
    public func configuration(for params: HttpRequestParams) throws -> HTTPTransportConfiguration {
        // What RetroSwift resolved when the call started, so a call sees one configuration from start to end.
        if let target = params.target { return target }
        return try resolve(for: params)
    }

    /// The configuration for `params` from the domain's target and this store, as the core resolves it when a call
    /// starts (see ``configuration(for:)``).
    func resolve(for params: HttpRequestParams) throws -> HTTPTransportConfiguration {
        if let own = params.domainTarget?.configuration { return own }
        switch state.current {
        case .configured(let configuration):
            guard let target = params.domainTarget else { return configuration }
            return configuration.adding(sharedHeaders: target.sharedHeaders)
        case .unset:
            throw RequestError(
                .transportNotConfigured, endpoint: params.endpoint,
                reason: "neither the domain nor the transport has a base URL; set the domain's baseURL or call the "
                    + "transport's setConfiguration(baseURL:sharedHeaders:) first"
            )
        case .invalid(let reason):
            throw RequestError(.transportNotConfigured, endpoint: params.endpoint, reason: reason)
        }
    }
}
