import Foundation

/// What a transport got back from the server.
public struct HttpOperationResult: Sendable {
    /// The HTTP status code.
    public var statusCode: Int
    /// The response headers, every field in the order received; look one up with ``header(_:)``.
    public var headers: HTTPHeaderFields
    /// The response body in memory; empty when it went to ``downloadedFileURL`` or comes in ``bodyStream``.
    public var body: Data
    /// The file holding a 2xx body when the request asked for ``ResponseDestination/file``.
    public var downloadedFileURL: URL?
    /// The body of a 2xx response to a request that asked for ``ResponseDestination/stream``, to be read while it
    /// arrives; `nil` when the body is in ``body``.
    public var bodyStream: HTTPBodyStream?
    /// The URL this response came from. Transports set it to the URL they requested; RetroSwift resolves a
    /// relative `Location` against it, and after redirects it is the final URL. `nil` when unknown.
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

    /// ``url`` as the transport reported it: async-http-client reports a string, made a `URL` only when read, since
    /// most calls never read it (callgrind: parsing it was 3,300 instructions a call).
    private var reportedURL: ReportedURL?

    private enum ReportedURL: Sendable {
        case parsed(URL)
        case string(String)
    }

    /// Sets ``url`` from a string, parsed only if it is read.
    package mutating func setURL(string: String) {
        reportedURL = .string(string)
    }

    /// Whether the transport reported a URL, found without parsing it.
    package var reportsURL: Bool {
        reportedURL != nil
    }

    /// Where the response came from: the network, unless the domain's ``HTTPCache`` answered the call.
    public internal(set) var source: ResponseSource = .network

    /// Creates a result; transports and test fakes call this.
    ///
    /// - Parameters:
    ///   - statusCode: The HTTP status code.
    ///   - headers: The response headers.
    ///   - body: The body in memory.
    ///   - downloadedFileURL: The file holding a 2xx body, for ``ResponseDestination/file``.
    ///   - bodyStream: The 2xx body still arriving, for ``ResponseDestination/stream``.
    ///   - url: The URL the response came from.
    public init(
        statusCode: Int, headers: HTTPHeaderFields = [:], body: Data = Data(), downloadedFileURL: URL? = nil,
        bodyStream: HTTPBodyStream? = nil, url: URL? = nil
    ) {
        self.bodyStream = bodyStream
        self.statusCode = statusCode
        self.headers = headers
        self.body = body
        self.downloadedFileURL = downloadedFileURL
        self.url = url
    }

    /// Whether the status is in the 2xx range.
    public var isSuccess: Bool {
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
}
