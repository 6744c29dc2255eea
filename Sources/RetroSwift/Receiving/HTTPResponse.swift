import Foundation

/// A decoded body together with the response's status code and headers: declare
/// `HTTPResponse<User>` wherever `User` would go.
public struct HTTPResponse<Body> {
    /// The decoded body.
    public let body: Body
    /// The HTTP status code.
    public let statusCode: Int
    /// The response headers; use ``header(_:)`` for case-insensitive lookup.
    public let headers: HTTPHeaderFields
    /// The URL the response came from: after redirects, the last one. `nil` when the transport did not say.
    public let url: URL?
    /// Where the response came from: ``ResponseSource/network`` unless the domain's ``HTTPCache`` answered the call.
    public let source: ResponseSource

    /// Creates a value, for mocks.
    ///
    /// - Parameters:
    ///   - body: The decoded body.
    ///   - statusCode: The HTTP status code.
    ///   - headers: The response headers.
    ///   - url: The URL the response came from.
    ///   - source: Where the response came from.
    public init(
        body: Body, statusCode: Int = 200, headers: HTTPHeaderFields = [:], url: URL? = nil, source: ResponseSource = .network
    ) {
        self.source = source
        self.body = body
        self.statusCode = statusCode
        self.headers = headers
        self.url = url
    }

    /// The value of a header, compared case-insensitively, repeated fields combined with `, ` (the first cookie for
    /// `Set-Cookie`); ``HTTPHeaderFields/values(for:)`` has each field.
    ///
    /// - Parameter name: A field name in any case.
    /// - Returns: The value, or `nil` when the field is absent.
    public func header(_ name: String) -> String? {
        headers[name]
    }
}

extension HTTPResponse: Sendable where Body: Sendable {}
extension HTTPResponse: Equatable where Body: Equatable {}

extension HTTPResponse: HTTPResponseDecodable {
    /// `true`: it decides itself which statuses it takes (see ``decode(from:context:)``).
    public static var decodesErrorStatuses: Bool {
        true
    }

    /// Decodes the body by the usual rules and keeps the status, headers and URL.
    ///
    /// Takes 2xx responses, and also a `3xx` that was not followed (``RedirectPolicy/never``, a `304`) when `Body`
    /// reads raw responses (`Empty`, `Data`, `String`, an optional), so its `Location` can be read. Other statuses
    /// throw ``HTTPError``, unless `Body` takes them itself (`HTTPResponse<Either<A, B>>`).
    ///
    /// - Parameters:
    ///   - response: The response.
    ///   - context: The decoder and endpoint.
    /// - Returns: The decoded body with the response's metadata.
    /// - Throws: ``HTTPError`` for a status it does not take, ``RequestError`` when the body does not decode.
    public static func decode(from response: HttpOperationResult, context: ResponseDecodingContext) throws -> HTTPResponse {
        let readsRaw = Body.self is any HTTPResponseDecodable.Type && !(Body.self is any UnbufferedResponse.Type)
        let isRedirect = (300..<400).contains(response.statusCode) && readsRaw
        let bodyTakesErrors = (Body.self as? any HTTPResponseDecodable.Type)?.decodesErrorStatuses ?? false
        guard response.isSuccess || isRedirect || bodyTakesErrors else {
            throw HTTPError(response: response, endpoint: context.endpoint)
        }
        return HTTPResponse(
            body: try context.decode(Body.self, from: response, acceptingAnyStatus: isRedirect && !bodyTakesErrors),
            statusCode: response.statusCode, headers: response.headers, url: response.url,
            source: response.source
        )
    }
}

extension HTTPResponse: UnbufferedResponse where Body: UnbufferedResponse {
    static var bodyDestination: ResponseDestination { Body.bodyDestination }
}
