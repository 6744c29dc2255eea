/// A decoded body together with the response's status code and headers: declare
/// `HttpResponse<User>` wherever `User` would go.
public struct HttpResponse<Body> {
    /// The decoded body.
    public let body: Body
    /// The HTTP status code.
    public let statusCode: Int
    /// The response headers; use ``header(_:)`` for case-insensitive lookup.
    public let headers: [String: String]

    /// Creates a value, for mocks.
    public init(body: Body, statusCode: Int = 200, headers: [String: String] = [:]) {
        self.body = body
        self.statusCode = statusCode
        self.headers = headers
    }

    /// A header's value, compared case-insensitively.
    public func header(_ name: String) -> String? {
        HttpOperationResult(statusCode: statusCode, headers: headers).header(name)
    }
}

extension HttpResponse: Sendable where Body: Sendable {}
extension HttpResponse: Equatable where Body: Equatable {}

extension HttpResponse: HttpResponseDecodable {
    /// As the body's type decides: `HttpResponse<Either<A, B>>` also receives error statuses.
    public static var decodesErrorStatuses: Bool {
        (Body.self as? any HttpResponseDecodable.Type)?.decodesErrorStatuses ?? false
    }

    /// Decodes the body by the usual rules and keeps the status and headers.
    public static func decode(from response: HttpOperationResult, context: ResponseDecodingContext) throws -> HttpResponse {
        HttpResponse(body: try context.decode(Body.self, from: response), statusCode: response.statusCode, headers: response.headers)
    }
}

extension HttpResponse: FileResponse where Body: FileResponse {}
