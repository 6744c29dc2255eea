/// How an endpoint sends its `@FormParam` and `@FormFile` fields.
public enum FormEncoding: Sendable, Hashable {
    /// `application/x-www-form-urlencoded`, or `multipart/form-data` when the request has a `@FormFile`.
    case automatic
    /// Always `multipart/form-data`, even without files (some upload APIs require it).
    case multipart
}
