// `_forEachField` is the standard library's reflection over a type's stored properties without an instance;
// it is SPI, but stable since Swift 5.2 and the only way to check declarations before the first call.
@_spi(Reflection) import Swift

/// Describes a request type's stored properties from its metadata alone.
enum TypeFields {
    /// The fields of `type`, or `nil` when the runtime cannot describe it. Wire names are unknown (`nil`):
    /// explicit names such as `@Query("limit")` live in values, not in the type.
    static func describe(_ type: Any.Type) -> [RequestPlanner.FieldDescription]? {
        if type == Void.self { return [] }
        // Class request types are checked on the first call only (their SPI option is not concurrency-safe).
        if type is AnyClass { return nil }
        var fields: [RequestPlanner.FieldDescription] = []
        let described = _forEachField(of: type) { name, _, fieldType, _ in
            let kind = (fieldType as? any RequestParameter.Type)?.kind
            fields.append(.init(label: String(cString: name), kind: kind, name: nil))
            return true
        }
        return described ? fields : nil
    }
}
