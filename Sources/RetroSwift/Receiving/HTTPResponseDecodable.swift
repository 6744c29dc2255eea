/// A response type that reads the raw response itself instead of being JSON-decoded.
///
/// `Empty`, `Either`, `Data`, `String`, `Optional` and `DownloadedFile` conform; conform your own type to handle
/// custom content (Echo's response handlers).
public protocol HTTPResponseDecodable {
    /// Whether ``decode(from:context:)`` also receives non-2xx responses; when `false` they throw ``HTTPError``.
    static var decodesErrorStatuses: Bool { get }

    /// Builds the value from a response.
    static func decode(from response: HttpOperationResult, context: ResponseDecodingContext) throws -> Self
}

extension HTTPResponseDecodable {
    /// Non-2xx responses throw ``HTTPError`` unless a type says otherwise.
    public static var decodesErrorStatuses: Bool { false }
}
