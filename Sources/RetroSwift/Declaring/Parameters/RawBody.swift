import Foundation

/// The request body, sent as it is rather than encoded: `Data`, a `String`, a file URL streamed from disk, or a
/// ``RawBodyContent`` that carries its own media type (Echo's `content:contentType:`, Kilo's image and text bodies).
///
/// ```swift
/// struct AvatarRequest {
///     @Path var userId: String = ""
///     @RawBody(contentType: "image/png") var image = Data()
/// }
/// ```
///
/// The `Content-Type` is the value's own (``RawBodyContent``), else the one declared here, else the value's default:
/// `application/octet-stream` for `Data`, `text/plain; charset=utf-8` for a `String`, and for a file URL the type
/// its extension stands for. A `@Header("Content-Type")` field wins over all three. A `nil` optional sends no body.
/// A request has one body: a `@RawBody` beside a `@JsonBody` or form fields is a declaration mistake.
@propertyWrapper
public struct RawBody<Value: RawBodyConvertible>: Sendable {
    /// The body.
    public var wrappedValue: Value
    /// The declared media type, or `nil` to use the value's.
    let contentType: String?

    /// A body whose media type comes from its value.
    ///
    /// - Parameter wrappedValue: The body.
    public init(wrappedValue: Value) {
        self.wrappedValue = wrappedValue
        self.contentType = nil
    }

    /// A body with a declared media type, such as `@RawBody(contentType: "image/png")`.
    ///
    /// - Parameters:
    ///   - wrappedValue: The body.
    ///   - contentType: Its media type, unless the value sets its own (a ``RawBodyContent`` made with a `contentType:`).
    public init(wrappedValue: Value, contentType: String) {
        self.wrappedValue = wrappedValue
        self.contentType = contentType
    }
}

extension RawBody: RequestParameter {
    static var kind: ParameterKind? { .rawBody }
    static var valueType: Any.Type { Value.self }
    var explicitName: String? { nil }

    func write(to sink: inout some ParameterSink, as field: RequestPlan.Field) throws {
        try sink.setRawBody(wrappedValue.rawBodyContent, declaredContentType: contentType, for: field)
    }
}
