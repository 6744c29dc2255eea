/// What the request planner and builder read from each wrapped field of a request.
protocol RequestParameter {
    static var kind: ParameterKind { get }
    var explicitName: String? { get }
    /// Adds this field's value to the request being built, as `field` of the plan says.
    func write(to builder: inout RequestBuilder, as field: RequestPlan.Field) throws
}
