/// Either the success response (2xx) or the error response the API documents (non-2xx).
///
/// A non-2xx body that does not decode as `ErrorResponse` throws ``HTTPError`` with the raw body.
public enum Either<Response, ErrorResponse> {
    /// The server answered 2xx.
    case response(Response)
    /// The server answered with another status and a body of the declared error type.
    case errorResponse(ErrorResponse)

    /// The success value, or `nil`.
    public var response: Response? {
        if case .response(let value) = self { return value }
        return nil
    }

    /// The error value, or `nil`.
    public var errorResponse: ErrorResponse? {
        if case .errorResponse(let value) = self { return value }
        return nil
    }
}

extension Either: Sendable where Response: Sendable, ErrorResponse: Sendable {}
extension Either: Equatable where Response: Equatable, ErrorResponse: Equatable {}
extension Either: Hashable where Response: Hashable, ErrorResponse: Hashable {}

extension Either: HTTPResponseDecodable {
    /// `Either` handles error statuses itself.
    public static var decodesErrorStatuses: Bool { true }

    /// Decodes `.response` from a 2xx response and `.errorResponse` from any other.
    public static func decode(from response: HttpOperationResult, context: ResponseDecodingContext) throws -> Either {
        if response.isSuccess {
            return .response(try context.decode(Response.self, from: response))
        }
        do {
            return .errorResponse(try context.decode(ErrorResponse.self, from: response, acceptingAnyStatus: true))
        } catch {
            throw HTTPError(response: response, endpoint: context.endpoint)
        }
    }
}

extension Either: UnbufferedResponse where Response: UnbufferedResponse {
    static var bodyDestination: ResponseDestination { Response.bodyDestination }
}
