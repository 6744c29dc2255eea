/// Where a parameter wrapper hands its value: the few things a wrapper asks of the request being built, so that the
/// wrappers depend on this small protocol rather than on the builder's internals. `RequestBuilder` is the one sink.
///
/// Each method names the endpoint and the field in the ``RequestError`` it throws for a value that cannot be sent.
protocol ParameterSink {
    /// The wire strings of a `@Path`, `@Query`, `@Header` or `@FormParam` field's value.
    func wireStrings<Value>(of value: Value, for field: RequestPlan.Field) throws -> ParameterValues.WireStrings
    /// Adds the wire strings of a `@Path`, `@Query`, `@Header` or `@FormParam` field.
    mutating func add(_ strings: ParameterValues.WireStrings, for field: RequestPlan.Field) throws
    /// Adds the entries of a `@QueryMap`, `@HeaderMap` or `@FormMap`.
    mutating func addMap<Value>(_ value: Value, for field: RequestPlan.Field) throws
    /// Encodes a `@JsonBody` field as the body.
    mutating func setJSONBody<Value>(_ value: Value, for field: RequestPlan.Field) throws
    /// Makes a `@RawBody` field's content the body.
    mutating func setRawBody(_ content: RawBodyContent?, declaredContentType: String?, for field: RequestPlan.Field) throws
    /// Adds a `@FormFile` field's file as a part of the multipart body.
    mutating func addFile(_ file: FormFile.File, for field: RequestPlan.Field) throws
    /// Adds each file of a `@FormFileList` field as a part of the multipart body.
    mutating func addFiles(_ files: [FormFile.File], for field: RequestPlan.Field) throws
}
