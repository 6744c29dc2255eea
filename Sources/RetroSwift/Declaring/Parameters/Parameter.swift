/// The one property wrapper behind `@Query`, `@Header`, `@Path`, `@JsonBody`, `@FormParam`, `@QueryMap`,
/// `@HeaderMap`, `@FormMap` and `@Url`.
///
/// The wire name is the property name without the leading `_`, or the name you pass: `@Query("limit")`.
///
/// Swift's memberwise initializer takes a plain value (`schedulesPerPage: 30`) when the field has an initial
/// value or the wrapper has no arguments. A field with a name argument and no initial value (`@Query("limit")
/// var schedulesPerPage: Int`) would make the initializer take the wrapper itself, so give such fields a
/// default: `@Query("limit") var schedulesPerPage: Int = 0`.
@propertyWrapper
public struct Parameter<Location: ParameterLocation, Value> {
    /// The field's value.
    public var wrappedValue: Value
    /// The explicit wire name, or `nil` to use the property name.
    let name: String?

    /// A parameter named after its property.
    public init(wrappedValue: Value) {
        self.wrappedValue = wrappedValue
        self.name = nil
    }

    /// A parameter with an explicit wire name, such as `@Header("X-Account-Id")`.
    public init(wrappedValue: Value, _ name: String) {
        self.wrappedValue = wrappedValue
        self.name = name
    }
}

extension Parameter: Sendable where Value: Sendable {}

extension Parameter: RequestParameter {
    static var kind: ParameterKind? { LocationMarkers.kind(of: Location.self) }
    static var valueType: Any.Type { Value.self }
    var explicitName: String? { name }

    func write(to sink: inout some ParameterSink, as field: RequestPlan.Field) throws {
        switch field.kind {
        case .jsonBody, .body: try sink.setJSONBody(wrappedValue, for: field)
        case .queryMap, .headerMap, .formMap: try sink.addMap(wrappedValue, for: field)
        default: try sink.add(sink.wireStrings(of: wrappedValue, for: field), for: field)
        }
    }
}

/// A query parameter. `nil` is omitted, arrays repeat the key, `Date` is epoch milliseconds, `Bool` is
/// `true`/`false`, enums send their raw value.
public typealias Query<Value> = Parameter<LocationMarkers.Query, Value>

/// A header field. `nil` is omitted; CR, LF and other control characters are rejected.
public typealias Header<Value> = Parameter<LocationMarkers.Header, Value>

/// Fills the `{name}` placeholder of the path template, percent-encoded as one path segment.
public typealias Path<Value> = Parameter<LocationMarkers.Path, Value>

/// The request body, encoded with the domain's `JSONEncoder`; `nil` sends no body.
public typealias JsonBody<Value: Encodable> = Parameter<LocationMarkers.JsonBody, Value>

/// The request body in the format of the endpoint's converter (its `converter:`, else the domain's
/// ``Domain/converter``, else JSON through the domain's `jsonEncoder`), sent with the converter's media type as
/// `Content-Type` unless the declaration's `headers:` set one; `nil` sends no body (Retrofit's `@Body`).
public typealias Body<Value: Encodable> = Parameter<LocationMarkers.Body, Value>

/// A form field: `application/x-www-form-urlencoded`, or a multipart part when the request has a `@FormFile`.
public typealias FormParam<Value> = Parameter<LocationMarkers.FormParam, Value>

/// Query parameters from a `[String: Value]` dictionary (Retrofit's `@QueryMap`): one per key, in key order, each
/// value by the rules of `@Query` (`nil` omitted, arrays repeat the key). A key that a `@Query` field also names is
/// refused, as is an empty key.
public typealias QueryMap<Value> = Parameter<LocationMarkers.QueryMap, Value>

/// Header fields from a `[String: Value]` dictionary (Retrofit's `@HeaderMap`): one per key, in key order in
/// ``HttpRequestParams/headerFields``, each value by the rules of `@Header`. Keys must be header names; a CR, LF or
/// other control character in a value is refused, and so is a key that a `@Header` field also names. Entries
/// override the endpoint's static headers. (`URLSessionTransport` sends header fields in URLRequest's own order,
/// which keeps none; no server may depend on the order of fields with different names, RFC 9110 §5.3.)
public typealias HeaderMap<Value> = Parameter<LocationMarkers.HeaderMap, Value>

/// Form fields from a `[String: Value]` dictionary (Retrofit's `@FieldMap`): one per key, in key order, each value
/// by the rules of `@FormParam`. A key that a `@FormParam` or `@FormFile` field also names is refused.
public typealias FormMap<Value> = Parameter<LocationMarkers.FormMap, Value>

/// The URL of one call in place of the endpoint's path (Retrofit's `@Url`), as a `String` or `URL`; the endpoint is
/// declared without a path: `@Get() var download: (DownloadRequest) async throws -> Data`.
///
/// - A path such as `/files/42` or `files/42?rev=3` goes after the base URL exactly as a declared path does, the
///   base path kept (unlike Retrofit, where a leading `/` replaces it).
/// - A full URL on the base URL's origin is requested as it is; one on another origin is refused unless the endpoint
///   allows its host with `otherHosts:` (see ``OtherHostPolicy``), and then goes without shared headers and added
///   credentials.
/// - `@Query` fields are added after the URL's own query; `@Header` and body fields work as usual.
/// - The value is sent percent-encoded (a well-formed `%XX` is kept); a fragment is dropped. A `nil`, empty or
///   malformed value, a `.` or `..` segment, user information, or a scheme other than `http` and `https` is a
///   ``RequestError`` naming the field, and nothing is sent.
public typealias Url<Value> = Parameter<LocationMarkers.Url, Value>
