/// The marker types behind `@Query`, `@Header`, `@Path`, `@JsonBody`, `@FormParam`, `@QueryMap`, `@HeaderMap`,
/// `@FormMap` and `@Url`.
public enum LocationMarkers {
    /// Marks a query parameter.
    public enum Query: ParameterLocation {}

    /// Marks a header field.
    public enum Header: ParameterLocation {}

    /// Marks a path placeholder.
    public enum Path: ParameterLocation {}

    /// Marks the JSON body.
    public enum JsonBody: ParameterLocation {}

    /// Marks the body the endpoint's converter encodes.
    public enum Body: ParameterLocation {}

    /// Marks a form field.
    public enum FormParam: ParameterLocation {}

    /// Marks a dictionary of query parameters.
    public enum QueryMap: ParameterLocation {}

    /// Marks a dictionary of header fields.
    public enum HeaderMap: ParameterLocation {}

    /// Marks a dictionary of form fields.
    public enum FormMap: ParameterLocation {}

    /// Marks the URL of one call.
    public enum Url: ParameterLocation {}

    /// The wire location a marker stands for; `nil` for a type that is none of these markers, which RetroSwift
    /// reports as a declaration mistake.
    static func kind(of marker: any ParameterLocation.Type) -> ParameterKind? {
        // Made when an endpoint is planned, not per call: a call reads the kind from its plan.
        if marker == Query.self { return .query }
        if marker == Header.self { return .header }
        if marker == Path.self { return .path }
        if marker == JsonBody.self { return .jsonBody }
        if marker == Body.self { return .body }
        if marker == FormParam.self { return .formParam }
        if marker == QueryMap.self { return .queryMap }
        if marker == HeaderMap.self { return .headerMap }
        if marker == FormMap.self { return .formMap }
        if marker == Url.self { return .url }
        return nil
    }
}
