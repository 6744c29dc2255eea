import Foundation

/// What a transport got back from the server: the status, the header fields and the body, as one value whatever
/// the transport.
public struct HttpOperationResult: Sendable {
    /// Where a response's body is: in memory, in a file, or still arriving.
    public enum Body: Sendable {
        /// The whole body in memory; empty for a response without one.
        case bytes(Data)
        /// A file holding a 2xx body, for a request that asked for ``ResponseDestination/file``: the caller's once
        /// returned.
        case file(URL)
        /// A 2xx body still arriving, for a request that asked for ``ResponseDestination/stream``, to be read while it
        /// does.
        case stream(HTTPBodyStream)
    }

    /// The HTTP status code.
    public var statusCode: Int
    /// The response headers, every field in the order received; look one up with ``header(_:)``.
    public var headers: HTTPHeaderFields
    /// The body.
    public var body: Body
    /// The URL this response came from: the URL requested, unless the transport followed redirects itself (then the
    /// last one). RetroSwift resolves a relative `Location` against it, and after redirects it is the final URL.
    /// `nil` when the transport does not say; RetroSwift then sets it to the URL it requested.
    public var url: URL? {
        get {
            switch reportedURL {
            case .parsed(let url): url
            case .string(let string): URL(string: string)
            case nil: nil
            }
        }
        set { reportedURL = newValue.map(ReportedURL.parsed) }
    }

    /// ``url`` as known: the core fills it with the request's URL as a string, made a `URL` only when read, since most
    /// calls never read it (callgrind: parsing it was 3,300 instructions a call).
    private var reportedURL: ReportedURL?

    private enum ReportedURL: Sendable {
        case parsed(URL)
        case string(String)
    }

    /// Where the response came from: the network, unless the domain's ``HTTPCache`` answered the call.
    public internal(set) var source: ResponseSource = .network

    /// Creates a result whose body is in memory, as a transport of the original README answers:
    /// `HttpOperationResult(statusCode: 200, body: data)`.
    ///
    /// - Parameters:
    ///   - statusCode: The HTTP status code.
    ///   - headers: The response headers.
    ///   - body: The whole body; none by default.
    ///   - url: The URL the response came from, when the transport knows it.
    public init(statusCode: Int, headers: HTTPHeaderFields = [:], body: Data = Data(), url: URL? = nil) {
        self.init(statusCode: statusCode, headers: headers, body: .bytes(body), url: url)
    }

    /// Creates a result with a body in memory, in a file or still arriving.
    ///
    /// - Parameters:
    ///   - statusCode: The HTTP status code.
    ///   - headers: The response headers.
    ///   - body: Where the body is.
    ///   - url: The URL the response came from, when the transport knows it.
    public init(statusCode: Int, headers: HTTPHeaderFields = [:], body: Body, url: URL? = nil) {
        self.statusCode = statusCode
        self.headers = headers
        self.body = body
        self.url = url
    }

    /// Whether the status is in the 2xx range.
    var isSuccess: Bool {
        (200..<300).contains(statusCode)
    }

    /// The value of a header, compared case-insensitively, repeated fields combined with `, ` (the first cookie for
    /// `Set-Cookie`); ``HTTPHeaderFields/values(for:)`` has each field.
    ///
    /// - Parameter name: A field name in any case.
    /// - Returns: The value, or `nil` when the field is absent.
    public func header(_ name: String) -> String? {
        headers[name]
    }

    /// The media type of the body without parameters, lowercased, for example `text/plain`.
    var mediaType: String? {
        header("Content-Type")?
            .split(separator: ";", maxSplits: 1).first
            .map { $0.trimmingCharacters(in: .whitespaces).lowercased() }
    }

    /// The body held in memory; empty when it is in a file or a stream.
    var data: Data {
        get {
            if case .bytes(let data) = body { return data }
            return Data()
        }
        set { body = .bytes(newValue) }
    }

    /// The body still arriving, when it is one.
    var bodyStream: HTTPBodyStream? {
        if case .stream(let stream) = body { return stream }
        return nil
    }

    /// The file holding the body, when it is in one.
    var downloadedFileURL: URL? {
        if case .file(let url) = body { return url }
        return nil
    }

    /// Whether the transport reported a URL, found without parsing it.
    var reportsURL: Bool {
        reportedURL != nil
    }

    /// Sets ``url`` from a string, parsed only if it is read.
    mutating func setURL(string: String) {
        reportedURL = .string(string)
    }
}
