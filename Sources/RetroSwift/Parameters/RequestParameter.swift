/// What the request builder reads from each wrapped field of a request.
protocol RequestParameter {
    static var kind: ParameterKind { get }
    var explicitName: String? { get }
    var anyValue: Any { get }
}

extension RequestParameter {
    /// The value of a field of this wrapper type stored `offset` bytes into a request value.
    ///
    /// Lets the builder skip `Mirror` on every call: `Mirror` demangles each field's type name each time it is
    /// asked, which was the largest single cost of building a request.
    static func value(in request: UnsafeRawPointer, at offset: Int) -> Any {
        request.load(fromByteOffset: offset, as: Self.self).anyValue
    }
}
