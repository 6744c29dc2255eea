/// Names one endpoint of one API type, for error messages and logs.
public struct EndpointIdentity: Sendable, Hashable, CustomStringConvertible {
    /// The API type, for example `SchedulesApi`.
    public let domain: String
    /// The endpoint property, for example `getSchedules`.
    public let name: String
    /// The HTTP method.
    public let method: HttpMethod
    /// The path template as declared, for example `/api/v1/schedule/{schedule_id}`.
    public let template: String

    /// Creates an identity; the library makes these for you, tests and custom transports may need their own.
    public init(domain: String, name: String, method: HttpMethod, template: String) {
        self.domain = domain
        self.name = name
        self.method = method
        self.template = template
    }

    /// `SchedulesApi.getSchedules (GET /api/v1/schedule)`.
    public var description: String {
        "\(domain).\(name) (\(method.rawValue) \(template))"
    }
}
