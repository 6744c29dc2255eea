/// The marker types behind `@Query`, `@Header`, `@Path`, `@JsonBody`, `@FormParam`, `@QueryMap`, `@HeaderMap`,
/// `@FormMap` and `@Url`.
public enum LocationMarkers {
    /// Marks a query parameter.
    public enum Query: ParameterLocation {
        /// ``ParameterKind/query``.
        public static var kind: ParameterKind { .query }
    }

    /// Marks a header field.
    public enum Header: ParameterLocation {
        /// ``ParameterKind/header``.
        public static var kind: ParameterKind { .header }
    }

    /// Marks a path placeholder.
    public enum Path: ParameterLocation {
        /// ``ParameterKind/path``.
        public static var kind: ParameterKind { .path }
    }

    /// Marks the JSON body.
    public enum JsonBody: ParameterLocation {
        /// ``ParameterKind/jsonBody``.
        public static var kind: ParameterKind { .jsonBody }
    }

    /// Marks a form field.
    public enum FormParam: ParameterLocation {
        /// ``ParameterKind/formParam``.
        public static var kind: ParameterKind { .formParam }
    }

    /// Marks a dictionary of query parameters.
    public enum QueryMap: ParameterLocation {
        /// ``ParameterKind/queryMap``.
        public static var kind: ParameterKind { .queryMap }
    }

    /// Marks a dictionary of header fields.
    public enum HeaderMap: ParameterLocation {
        /// ``ParameterKind/headerMap``.
        public static var kind: ParameterKind { .headerMap }
    }

    /// Marks a dictionary of form fields.
    public enum FormMap: ParameterLocation {
        /// ``ParameterKind/formMap``.
        public static var kind: ParameterKind { .formMap }
    }

    /// Marks the URL of one call.
    public enum Url: ParameterLocation {
        /// ``ParameterKind/url``.
        public static var kind: ParameterKind { .url }
    }
}
