import Foundation

/// A request body's bytes (in memory, or a file streamed from disk) and, optionally, its media type.
public struct RawBodyContent: Sendable, Hashable {
    /// The bytes, in memory or on disk.
    let source: Source
    /// The media type the value sets, which wins over the declared one.
    public let contentType: String?
    /// The media type used when neither the value nor the declaration sets one.
    let defaultContentType: String

    enum Source: Sendable, Hashable {
        case data(Data)
        case file(URL)
    }

    /// Bytes in memory; `application/octet-stream` unless a type is given here or declared.
    ///
    /// - Parameters:
    ///   - data: The body.
    ///   - contentType: The body's media type, winning over the declared one.
    public init(data: Data, contentType: String? = nil) {
        source = .data(data)
        self.contentType = contentType
        defaultContentType = "application/octet-stream"
    }

    /// Text sent as UTF-8; `text/plain; charset=utf-8` unless a type is given here or declared.
    ///
    /// - Parameters:
    ///   - text: The body.
    ///   - contentType: The body's media type, winning over the declared one.
    public init(text: String, contentType: String? = nil) {
        source = .data(Data(text.utf8))
        self.contentType = contentType
        defaultContentType = "text/plain; charset=utf-8"
    }

    /// A file streamed from disk when the request is sent, never loaded whole; typed by its extension unless a type
    /// is given here or declared. A missing or unreadable file is a `RequestError` before anything is sent.
    ///
    /// - Parameters:
    ///   - fileURL: The file.
    ///   - contentType: The body's media type, winning over the declared one.
    public init(fileURL: URL, contentType: String? = nil) {
        source = .file(fileURL)
        self.contentType = contentType
        defaultContentType = MediaTypes.forPathExtension(fileURL.pathExtension)
    }
}
