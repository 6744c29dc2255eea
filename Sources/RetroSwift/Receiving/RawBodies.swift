import Foundation

extension Data: HTTPResponseDecodable {
    /// The raw body.
    public static func decode(from response: HttpOperationResult, context: ResponseDecodingContext) throws -> Data {
        response.data
    }
}

extension String: HTTPResponseDecodable {
    /// The raw body as UTF-8 text (the charset must be UTF-8 or ASCII).
    public static func decode(from response: HttpOperationResult, context: ResponseDecodingContext) throws -> String {
        guard let text = String(data: response.data, encoding: .utf8) else {
            throw RequestError(.undecodableResponse, endpoint: context.endpoint, reason: "the body is not UTF-8 text", response: response)
        }
        return text
    }
}

extension Optional: HTTPResponseDecodable {
    /// `nil` for an empty 2xx body (204, `HEAD`), else the wrapped type decoded from it.
    public static func decode(from response: HttpOperationResult, context: ResponseDecodingContext) throws -> Optional {
        if response.data.isEmpty && response.downloadedFileURL == nil { return nil }
        return .some(try context.decode(Wrapped.self, from: response))
    }
}
