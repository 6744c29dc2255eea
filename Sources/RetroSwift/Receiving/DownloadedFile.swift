import Foundation

/// A response body written to a temporary file instead of memory, for large downloads.
///
/// The file belongs to you: move it somewhere permanent or delete it.
public struct DownloadedFile: Sendable, Hashable, HTTPResponseDecodable, UnbufferedResponse {
    static var bodyDestination: ResponseDestination { .file }

    /// Where the body was written.
    public let url: URL
    /// The response's media type, if the server sent one.
    public let mimeType: String?

    /// Creates a value, for mocks.
    public init(url: URL, mimeType: String? = nil) {
        self.url = url
        self.mimeType = mimeType
    }

    /// Reads ``HttpOperationResult/Body/file(_:)``; a transport that kept the body in memory gets it written out.
    public static func decode(from response: HttpOperationResult, context: ResponseDecodingContext) throws -> DownloadedFile {
        if let url = response.downloadedFileURL {
            return DownloadedFile(url: url, mimeType: response.mediaType)
        }
        let url = TemporaryFile.url(for: .download)
        try response.data.write(to: url)
        return DownloadedFile(url: url, mimeType: response.mediaType)
    }
}
