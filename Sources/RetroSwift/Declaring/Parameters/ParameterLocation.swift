/// A marker type naming where a ``Parameter`` goes; see ``LocationMarkers``.
public protocol ParameterLocation: Sendable {
    /// The wire location.
    static var kind: ParameterKind { get }
}
