/// Where a request field goes on the wire.
public enum ParameterKind: String, Sendable, Hashable {
    /// The URL query, `@Query`.
    case query = "@Query"
    /// A header field, `@Header`.
    case header = "@Header"
    /// A `{placeholder}` of the path template, `@Path`.
    case path = "@Path"
    /// The JSON request body, `@JsonBody`.
    case jsonBody = "@JsonBody"
    /// A form field, `@FormParam`.
    case formParam = "@FormParam"
    /// A file in a multipart form, `@FormFile`.
    case formFile = "@FormFile"
}
