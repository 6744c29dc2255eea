import Foundation

/// Several files under one name in a `multipart/form-data` body, in order, as an `<input type="file" multiple>`
/// sends them: `@FormFileList("attachments") var attachments: [URL] = []`.
///
/// Elements are ``FormFile/File`` values or file URLs (see ``FormFileConvertible``). An empty list sends no part;
/// ``FormFile/File/empty`` elements are left out. A missing or unreadable file is a `RequestError` naming the field
/// before anything is sent. Like `@FormFile`, the field makes the body multipart.
@propertyWrapper
public struct FormFileList<Element: FormFileConvertible>: Sendable {
    /// The files, in the order they are sent.
    public var wrappedValue: [Element]
    /// The explicit field name, or `nil` to use the property name.
    let name: String?

    /// A file list named after its property.
    ///
    /// - Parameter wrappedValue: The files, in the order they are sent.
    public init(wrappedValue: [Element]) {
        self.wrappedValue = wrappedValue
        self.name = nil
    }

    /// A file list with an explicit name, such as `@FormFileList("attachments")`.
    ///
    /// - Parameters:
    ///   - wrappedValue: The files, in the order they are sent.
    ///   - name: The form field name every file part carries.
    public init(wrappedValue: [Element], _ name: String) {
        self.wrappedValue = wrappedValue
        self.name = name
    }
}

extension FormFileList: RequestParameter {
    static var kind: ParameterKind? { .formFileList }
    static var valueType: Any.Type { [Element].self }
    var explicitName: String? { name }

    func write(to sink: inout some ParameterSink, as field: RequestPlan.Field) throws {
        try sink.addFiles(wrappedValue.map(\.formFile), for: field)
    }
}
