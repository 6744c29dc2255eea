/// The marker types behind `@Get`, `@Post`, `@Put`, `@Patch`, `@Delete`, `@Head` and `@Options`.
///
/// A method of your own takes a marker and a type alias:
///
/// ```swift
/// enum PropfindMethod: EndpointMethod {
///     static var method: HttpMethod { HttpMethod("PROPFIND", allowsBody: true, isIdempotent: true) }
/// }
/// typealias Propfind<Signature> = Endpoint<PropfindMethod, Signature>
/// ```
public enum MethodMarkers {
    /// `GET`.
    public enum Get: EndpointMethod {
        /// ``HttpMethod/get``.
        public static var method: HttpMethod { .get }
    }

    /// `POST`.
    public enum Post: EndpointMethod {
        /// ``HttpMethod/post``.
        public static var method: HttpMethod { .post }
    }

    /// `PUT`.
    public enum Put: EndpointMethod {
        /// ``HttpMethod/put``.
        public static var method: HttpMethod { .put }
    }

    /// `PATCH`.
    public enum Patch: EndpointMethod {
        /// ``HttpMethod/patch``.
        public static var method: HttpMethod { .patch }
    }

    /// `DELETE`.
    public enum Delete: EndpointMethod {
        /// ``HttpMethod/delete``.
        public static var method: HttpMethod { .delete }
    }

    /// `HEAD`.
    public enum Head: EndpointMethod {
        /// ``HttpMethod/head``.
        public static var method: HttpMethod { .head }
    }

    /// `OPTIONS`.
    public enum Options: EndpointMethod {
        /// ``HttpMethod/options``.
        public static var method: HttpMethod { .options }
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
/// An `OPTIONS` endpoint: `@Options("/files") var allowed: () async throws -> HttpResponse<Empty>`.
public typealias Options<Signature> = Endpoint<MethodMarkers.Options, Signature>
