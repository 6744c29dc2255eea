/// The marker types behind `@Get`, `@Post`, `@Put`, `@Patch`, `@Delete` and `@Head`.
public enum EndpointMethods {
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
}

/// A `GET` endpoint: `@Get("/api/v1/schedule") var getSchedules: (GetSchedulesRequest) async throws -> Response`.
public typealias Get<Signature> = Endpoint<EndpointMethods.Get, Signature>
/// A `POST` endpoint.
public typealias Post<Signature> = Endpoint<EndpointMethods.Post, Signature>
/// A `PUT` endpoint.
public typealias Put<Signature> = Endpoint<EndpointMethods.Put, Signature>
/// A `PATCH` endpoint.
public typealias Patch<Signature> = Endpoint<EndpointMethods.Patch, Signature>
/// A `DELETE` endpoint.
public typealias Delete<Signature> = Endpoint<EndpointMethods.Delete, Signature>
/// A `HEAD` endpoint.
public typealias Head<Signature> = Endpoint<EndpointMethods.Head, Signature>
