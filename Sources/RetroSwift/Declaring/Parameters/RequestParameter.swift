/// What the request planner and builder read from each wrapped field of a request.
protocol RequestParameter {
    /// Where the field goes; `nil` for a ``Parameter`` whose location is not one of ``LocationMarkers``.
    static var kind: ParameterKind? { get }
    /// The type of the wrapped value, which the planner checks for maps.
    static var valueType: Any.Type { get }
    var explicitName: String? { get }
    /// Hands this field's value to the request being built, as `field` of the plan says.
    func write(to sink: inout some ParameterSink, as field: RequestPlan.Field) throws
}
