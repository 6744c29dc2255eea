/// Where a request field goes on the wire.
enum ParameterKind: String, Sendable, Hashable {
    /// The URL query, `@Query`.
    case query = "@Query"
    /// A header field, `@Header`.
    case header = "@Header"
    /// A `{placeholder}` of the path template, `@Path`.
    case path = "@Path"
    /// The JSON request body, `@JsonBody`.
    case jsonBody = "@JsonBody"
    /// A request body sent as it is, `@RawBody`.
    case rawBody = "@RawBody"
    /// A request body in the endpoint's converter's format, `@Body`.
    case body = "@Body"
    /// A form field, `@FormParam`.
    case formParam = "@FormParam"
    /// A file in a multipart form, `@FormFile`.
    case formFile = "@FormFile"
    /// Several files under one name in a multipart form, `@FormFileList`.
    case formFileList = "@FormFileList"
    /// Query parameters named by a dictionary's keys, `@QueryMap`.
    case queryMap = "@QueryMap"
    /// Header fields named by a dictionary's keys, `@HeaderMap`.
    case headerMap = "@HeaderMap"
    /// Form fields named by a dictionary's keys, `@FormMap`.
    case formMap = "@FormMap"
    /// The URL of one call, a path or a full URL, in place of the declared path: `@Url`.
    case url = "@Url"

    /// Whether the field sends files, which make the body multipart.
    var sendsFiles: Bool {
        self == .formFile || self == .formFileList
    }

    /// Where the entries of a map go, or `nil` for the other kinds.
    var mapEntryKind: ParameterKind? {
        switch self {
        case .queryMap: .query
        case .headerMap: .header
        case .formMap: .formParam
        default: nil
        }
    }
}
