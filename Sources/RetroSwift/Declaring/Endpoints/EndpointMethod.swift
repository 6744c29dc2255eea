/// A marker type naming an endpoint's HTTP method; see ``MethodMarkers``.
public protocol EndpointMethod: Sendable {
    /// The HTTP method.
    static var method: HTTPMethod { get }
}
