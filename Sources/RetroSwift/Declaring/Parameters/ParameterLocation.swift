/// A marker type naming where a ``Parameter`` goes: one of ``LocationMarkers``.
public protocol ParameterLocation: Sendable {}
