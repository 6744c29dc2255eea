/// A response with no content worth reading: any 2xx status passes, including 204 and `HEAD` responses.
public struct Empty: Sendable, Hashable, Codable, HTTPResponseDecodable {
    /// Creates an empty response, for mocks.
    public init() {}

    /// Accepts any JSON, so `Empty` also works inside `Either`.
    public init(from decoder: any Decoder) throws {}

    /// Encodes nothing.
    public func encode(to encoder: any Encoder) throws {}

    /// Ignores the body.
    public static func decode(from response: HttpOperationResult, context: ResponseDecodingContext) throws -> Empty {
        Empty()
    }
}
