/// What the request builder reads from each wrapped field of a request.
protocol RequestParameter {
    static var kind: ParameterKind { get }
    var explicitName: String? { get }
    var anyValue: Any { get }
    /// The wire string of a field of this wrapper type stored `offset` bytes into a request value, when its
    /// value type is a common scalar (`.some(nil)` for a `nil` optional); `nil` otherwise.
    static func singleString(in request: UnsafeRawPointer, at offset: Int) -> String??
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

extension RequestParameter {
    static func singleString(in request: UnsafeRawPointer, at offset: Int) -> String?? {
        nil
    }
}
