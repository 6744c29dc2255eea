// `_forEachField` is the standard library's reflection over a type's stored properties without an instance;
// it is SPI, but stable since Swift 5.2 and the only way to check declarations before the first call.
@_spi(Reflection) import Swift

/// Describes a request type's stored properties from its metadata alone.
enum TypeFields {
    /// A stored property's label, byte offset and type.
    struct Layout {
        let label: String
        let offset: Int
        let type: Any.Type
    }

    /// The stored properties of a struct type, or `nil` for other kinds of types.
    static func layout(of type: Any.Type) -> [Layout]? {
        if type is AnyClass { return nil }
        var fields: [Layout] = []
        let described = _forEachField(of: type) { name, offset, fieldType, _ in
            fields.append(Layout(label: String(cString: name), offset: offset, type: fieldType))
            return true
        }
        return described ? fields : nil
    }

    /// The fields of `type`, or `nil` when the runtime cannot describe it. Wire names are unknown (`nil`):
    /// explicit names such as `@Query("limit")` live in values, not in the type.
    static func describe(_ type: Any.Type) -> [RequestPlanner.FieldDescription]? {
        if type == Void.self { return [] }
        // Class request types are checked on the first call only (their SPI option is not concurrency-safe).
        return layout(of: type)?.map { field in
            .init(label: field.label, kind: (field.type as? any RequestParameter.Type)?.kind, name: nil)
        }
    }
}
