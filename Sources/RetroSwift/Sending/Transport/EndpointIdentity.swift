import Foundation

/// Names one endpoint of one API type, for error messages and logs.
public struct EndpointIdentity: Sendable, Hashable, CustomStringConvertible {
    /// The API type, for example `SchedulesApi`.
    public var domain: String {
        labels.value.domain
    }

    /// The endpoint property, for example `getSchedules`.
    public var name: String {
        labels.value.name
    }

    /// The HTTP method.
    public let method: HTTPMethod
    /// The path template as declared, for example `/api/v1/schedule/{schedule_id}`; empty when a `@Url` field gives
    /// the path.
    public let template: String
    private let labels: EndpointLabels

    /// Creates an identity; the library makes these for you, tests and custom transports may need their own.
    public init(domain: String, name: String, method: HTTPMethod, template: String) {
        self.method = method
        self.template = template
        self.labels = EndpointLabels(resolved: (domain, name))
    }

    /// An identity whose domain and property names are worked out the first time someone reads them: printing
    /// type names and key paths costs about 0.2 ms each, which an endpoint's first call should not pay when no
    /// error or log line ever shows them.
    init(method: HTTPMethod, template: String, labels resolve: @escaping @Sendable () -> (domain: String, name: String)) {
        self.method = method
        self.template = template
        self.labels = EndpointLabels(resolve: resolve)
    }

    /// `SchedulesApi.getSchedules (GET /api/v1/schedule)`; `FilesApi.download (GET @Url)` for an endpoint whose
    /// `@Url` field gives the path.
    public var description: String {
        "\(domain).\(name) (\(method.rawValue) \(template.isEmpty ? "@Url" : template))"
    }

    /// Whether both name the same endpoint: the same domain, name, method and template.
    public static func == (lhs: EndpointIdentity, rhs: EndpointIdentity) -> Bool {
        lhs.method == rhs.method && lhs.template == rhs.template && lhs.domain == rhs.domain && lhs.name == rhs.name
    }

    /// Hashes the domain, name, method and template.
    ///
    /// - Parameter hasher: The hasher to feed.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(method)
        hasher.combine(template)
        hasher.combine(domain)
        hasher.combine(name)
    }
}

/// An endpoint's domain and property names, resolved at most once.
final class EndpointLabels: Sendable {
    private let resolve: (@Sendable () -> (domain: String, name: String))?
    private let resolved: Locked<(domain: String, name: String)?>

    init(resolved: (domain: String, name: String)) {
        self.resolve = nil
        self.resolved = Locked(resolved)
    }

    init(resolve: @escaping @Sendable () -> (domain: String, name: String)) {
        self.resolve = resolve
        self.resolved = Locked(nil)
    }

    var value: (domain: String, name: String) {
        if let value = resolved.current { return value }
        let value = resolve?() ?? ("?", "?")
        resolved.withLock { $0 = value }
        return value
    }
}
