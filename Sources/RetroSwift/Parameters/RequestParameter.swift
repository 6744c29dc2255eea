/// What the request builder reads from each wrapped field it finds through `Mirror`.
protocol RequestParameter {
    static var kind: ParameterKind { get }
    var explicitName: String? { get }
    var anyValue: Any { get }
}
