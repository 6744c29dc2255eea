import Foundation

/// A request body and its media type.
public struct HttpRequestBody: Sendable {
    /// How the body's bytes are held.
    public enum Content: Sendable {
        /// Bytes in memory (JSON and form-urlencoded bodies).
        case data(Data)
        /// A multipart form whose file parts may live on disk; stream it with ``MultipartFormBody/write(to:)``.
        case multipart(MultipartFormBody)
    }

    /// The value of the `Content-Type` header, for example `application/json`.
    public let contentType: String
    /// The body itself.
    public let content: Content

    init(contentType: String, content: Content) {
        self.contentType = contentType
        self.content = content
    }

    /// The whole body in memory. Multipart file parts are read from disk; prefer streaming them for large files.
    public func data() throws -> Data {
        switch content {
        case .data(let data): return data
        case .multipart(let form): return try form.data()
        }
    }
}
