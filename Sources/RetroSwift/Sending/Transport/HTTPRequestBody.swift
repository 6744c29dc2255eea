import Foundation

/// A request body as a transport sends it, resolved by RetroSwift: bytes in memory, a file, or a stream of chunks.
///
/// Its media type is in ``HttpRequestParams/headerFields`` with the other fields. A transport sends it with
/// `Content-Length` whenever its length is known (always, but for a stream of unknown length, which goes chunked).
public enum HTTPRequestBody: Sendable {
    /// Bytes in memory: JSON, form-urlencoded and `@RawBody` data or text.
    case bytes(Data)
    /// A file sent as the whole body (`@RawBody` with a file URL): send its size as `Content-Length` and stream it
    /// from disk rather than load it. The file is the caller's: never delete it.
    case file(URL)
    /// A body read chunk by chunk as it is sent: a multipart form, serialized by RetroSwift with its file parts read
    /// from disk as it goes, or a stream a request declared (`@RawBody` of an ``HTTPRequestBodyStream``).
    case stream(HTTPRequestBodyStream)

    /// The body's size in bytes, for `Content-Length`, without reading any file; `nil` for a stream of unknown length.
    ///
    /// - Returns: The number of bytes the body sends, or `nil` when only sending it tells.
    /// - Throws: The error reading a file's size.
    public func length() throws -> Int64? {
        switch self {
        case .bytes(let data): Int64(data.count)
        case .file(let url): try MultipartFormBody.size(of: url)
        case .stream(let stream): stream.length
        }
    }

    /// The whole body in memory: a file or a stream read whole. For a transport whose client takes bytes only, and for
    /// tests; stream large bodies instead.
    ///
    /// - Returns: The body's bytes.
    /// - Throws: The error reading the file or the stream.
    public func data() async throws -> Data {
        switch self {
        case .bytes(let data): return data
        case .file(let url): return try await BlockingIO.run { try TemporaryFile.contents(of: url) }
        case .stream(let stream):
            var data = Data()
            if let length = stream.length { data.reserveCapacity(Int(clamping: length)) }
            for try await chunk in stream { data.append(chunk) }
            return data
        }
    }
}
