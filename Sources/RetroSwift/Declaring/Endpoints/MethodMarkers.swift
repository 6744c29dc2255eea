/// The marker types behind `@Get`, `@Post`, `@Put`, `@Patch`, `@Delete`, `@Head` and `@Options`.
///
/// A method of your own takes a marker and a type alias:
///
/// ```swift
/// enum PropfindMethod: EndpointMethod {
///     static var method: HTTPMethod { HTTPMethod("PROPFIND", allowsBody: true, isIdempotent: true) }
/// }
/// typealias Propfind<Signature> = Endpoint<PropfindMethod, Signature>
/// ```
public enum MethodMarkers {
    /// `GET`.
    public enum Get: EndpointMethod {
        /// ``HTTPMethod/get``.
        public static var method: HTTPMethod { .get }
    }

    /// `POST`.
    public enum Post: EndpointMethod {
        /// ``HTTPMethod/post``.
        public static var method: HTTPMethod { .post }
    }

    /// `PUT`.
    public enum Put: EndpointMethod {
        /// ``HTTPMethod/put``.
        public static var method: HTTPMethod { .put }
    }

    /// `PATCH`.
    public enum Patch: EndpointMethod {
        /// ``HTTPMethod/patch``.
        public static var method: HTTPMethod { .patch }
    }

    /// `DELETE`.
    public enum Delete: EndpointMethod {
        /// ``HTTPMethod/delete``.
        public static var method: HTTPMethod { .delete }
    }

    /// `HEAD`.
    public enum Head: EndpointMethod {
        /// ``HTTPMethod/head``.
        public static var method: HTTPMethod { .head }
    }

    /// `OPTIONS`.
    public enum Options: EndpointMethod {
        /// ``HTTPMethod/options``.
        public static var method: HTTPMethod { .options }
    }
}

/// A `GET` endpoint: `@Get("/api/v1/schedule") var getSchedules: (GetSchedulesRequest) async throws -> Response`.
public typealias Get<Signature> = Endpoint<MethodMarkers.Get, Signature>
/// A `POST` endpoint.
public typealias Post<Signature> = Endpoint<MethodMarkers.Post, Signature>
/// A `PUT` endpoint.
public typealias Put<Signature> = Endpoint<MethodMarkers.Put, Signature>
/// A `PATCH` endpoint.
public typealias Patch<Signature> = Endpoint<MethodMarkers.Patch, Signature>
/// A `DELETE` endpoint.
public typealias Delete<Signature> = Endpoint<MethodMarkers.Delete, Signature>
/// A `HEAD` endpoint.
public typealias Head<Signature> = Endpoint<MethodMarkers.Head, Signature>
/// An `OPTIONS` endpoint: `@Options("/files") var allowed: () async throws -> HTTPResponse<Empty>`.
public typealias Options<Signature> = Endpoint<MethodMarkers.Options, Signature>
