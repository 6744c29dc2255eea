import Foundation

/// A request body and its media type.
public struct HTTPRequestBody: Sendable {
    /// How the body's bytes are held.
    public enum Content: Sendable {
        /// Bytes in memory (JSON, form-urlencoded and `@RawBody` bodies).
        case data(Data)
        /// A multipart form whose file parts may live on disk; stream it with ``MultipartFormBody/write(to:)``.
        case multipart(MultipartFormBody)
        /// A file on disk sent as the whole body (`@RawBody` with a file URL); stream it with ``makeReader(chunkSize:)``
        /// rather than load it. The file is the caller's: a transport must not delete it.
        case file(URL)
    }

    /// The value of the `Content-Type` header, for example `application/json`.
    public let contentType: String
    /// The body itself.
    public let content: Content

    init(contentType: String, content: Content) {
        self.contentType = contentType
        self.content = content
    }

    /// The whole body in memory. Files are read from disk; prefer streaming them for large files.
    ///
    /// - Returns: The body's bytes.
    /// - Throws: The error reading a file part or file body.
    public func data() throws -> Data {
        switch content {
        case .data(let data): return data
        case .multipart(let form): return try form.data()
        case .file(let url): return try TemporaryFile.contents(of: url)
        }
    }

    /// The body's size in bytes, for `Content-Length`, without reading any file.
    ///
    /// - Returns: The number of bytes the body sends.
    /// - Throws: The error reading a file's size.
    public func contentLength() throws -> Int64 {
        switch content {
        case .data(let data): return Int64(data.count)
        case .multipart(let form): return try form.contentLength()
        case .file(let url): return try MultipartFormBody.size(of: url)
        }
    }

    /// A reader handing out the body in chunks, reading files from disk as it goes, so memory stays flat.
    ///
    /// - Parameter chunkSize: The most bytes one chunk read from a file holds; bytes in memory come as one chunk.
    /// - Returns: A new reader, positioned at the start of the body.
    public func makeReader(chunkSize: Int = 256 * 1024) -> MultipartFormBody.Reader {
        switch content {
        case .data(let data): MultipartFormBody.Reader(segments: [.bytes(data)], chunkSize: chunkSize)
        case .multipart(let form): form.makeReader(chunkSize: chunkSize)
        case .file(let url): MultipartFormBody.Reader(segments: [.file(url)], chunkSize: chunkSize)
        }
    }
}
