import Foundation

/// Where a transport's `setConfiguration` calls are kept when the transport does not implement them itself: one per
/// transport object, found by its identity, so that a transport needs no storage of its own for them.
///
/// README-style domains configure their transport in `init`. When two domains share one transport and configure it
/// differently, the last call would quietly redirect the other domain's requests. Instead the target remembers the
/// conflict and every later call that relies on it fails with ``RequestError/Kind/transportNotConfigured``, naming
/// both base URLs. Configuring the same values again is fine. Domains with a base URL of their own
/// (``Domain/baseURL``, as ``ApiDomain`` sets it) never rely on it, so they can share one transport safely and switch
/// base URLs while the app runs.
final class TransportTarget: Sendable {
    private enum State: Sendable {
        case unset
        case configured(HTTPTransportConfiguration)
        case invalid(String)
    }

    private let state = Locked(State.unset)
    /// The transport this target belongs to, to tell it from a later object at the same address.
    private let owner: WeakTransport

    private init(owner: AnyObject) {
        self.owner = WeakTransport(object: owner)
    }

    // MARK: Finding a transport's target

    /// Every transport object's target, by the object's identity.
    private static let targets = Locked<[ObjectIdentifier: TransportTarget]>([:])

    /// The target of `transport`, made on first use; `nil` for a transport that is a value (a struct or an enum),
    /// which has no identity to keep one by.
    static func of(_ transport: any HttpTransport) -> TransportTarget? {
        guard type(of: transport) is AnyClass else { return nil }
        let object = transport as AnyObject
        let key = ObjectIdentifier(object)
        return targets.withLock { targets in
            if let target = targets[key], target.owner.object === object { return target }
            // A transport that is gone leaves its target behind; they are dropped as new ones come.
            targets = targets.filter { $0.value.owner.object != nil }
            let target = TransportTarget(owner: object)
            targets[key] = target
            return target
        }
    }

    // MARK: Configuring

    /// Records `scheme://host` (the README's call). A port may be given as `host:port`.
    func set(scheme: String, host: String, sharedHeaders: [String: String]?) {
        guard let url = URL(string: "\(scheme)://\(host)"), url.host != nil, !host.contains("/") else {
            state.withLock { $0 = .invalid("scheme '\(scheme)' and host '\(host)' do not form a valid base URL") }
            return
        }
        set(HTTPTransportConfiguration(baseURL: url, sharedHeaders: sharedHeaders))
    }

    /// Records a configuration, or a conflict when a different one is already set.
    func set(_ configuration: HTTPTransportConfiguration) {
        let problem = HTTPTransportConfiguration.problem(baseURL: configuration.baseURL, sharedHeaders: configuration.sharedHeaders)
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

    /// Where a call of a domain without a base URL of its own goes: the recorded configuration with the domain's shared
    /// headers added (they win over recorded ones of the same name), or `nil` when nothing was recorded — the
    /// transport keeps its base URL to itself, or has none.
    ///
    /// - Throws: ``RequestError`` of kind ``RequestError/Kind/transportNotConfigured`` when two domains recorded
    ///   different configurations, or an unusable one.
    func configuration(adding sharedHeaders: [String: String], for endpoint: EndpointIdentity) throws -> HTTPTransportConfiguration? {
        switch state.current {
        case .unset: return nil
        case .configured(let configuration): return configuration.adding(sharedHeaders: sharedHeaders)
        case .invalid(let reason): throw RequestError(.transportNotConfigured, endpoint: endpoint, reason: reason)
        }
    }
}

/// A transport object, held weakly so that its target never keeps it alive.
// @unchecked Sendable: the reference is only compared by identity, never used to call the object, and a weak
// reference is read and written atomically by the runtime.
private struct WeakTransport: @unchecked Sendable {
    weak var object: AnyObject?
}
