/// A marker type naming where a ``Parameter`` goes; see ``ParameterLocations``.
public protocol ParameterLocation: Sendable {
    /// The wire location.
    static var kind: ParameterKind { get }
}
