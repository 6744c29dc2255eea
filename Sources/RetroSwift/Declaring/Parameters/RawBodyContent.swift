import Foundation

/// A request body's bytes (in memory, a file streamed from disk, or a stream of your own) and, optionally, its media
/// type.
public struct RawBodyContent: Sendable, Hashable {
    /// The bytes, in memory or on disk.
    let source: Source
    /// The media type the value sets, which wins over the declared one.
    let contentType: String?
    /// The media type used when neither the value nor the declaration sets one.
    let defaultContentType: String

    enum Source: Sendable, Hashable {
        case data(Data)
        case file(URL)
        case stream(HTTPRequestBodyStream)

        static func == (lhs: Source, rhs: Source) -> Bool {
            switch (lhs, rhs) {
            case (.data(let left), .data(let right)): left == right
            case (.file(let left), .file(let right)): left == right
            // A stream is made anew for each send; two are never the same body.
            default: false
            }
        }

        func hash(into hasher: inout Hasher) {
            switch self {
            case .data(let data): hasher.combine(data)
            case .file(let url): hasher.combine(url)
            case .stream: hasher.combine(2)
            }
        }
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

    /// Chunks read while the request is sent, with `Content-Length` when the stream's length is known and chunked
    /// otherwise; `application/octet-stream` unless a type is given here or declared.
    ///
    /// - Parameters:
    ///   - stream: The body.
    ///   - contentType: The body's media type, winning over the declared one.
    public init(stream: HTTPRequestBodyStream, contentType: String? = nil) {
        source = .stream(stream)
        self.contentType = contentType
        defaultContentType = "application/octet-stream"
    }
}
