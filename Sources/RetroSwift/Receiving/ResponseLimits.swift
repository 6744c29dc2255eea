/// How much a response may bring before RetroSwift stops reading it: the bounds that keep a broken or hostile server
/// from exhausting memory, whatever the transport.
///
/// Every call of a domain runs under its ``Domain/responseLimits``; transports stop reading as soon as a limit is
/// passed, and RetroSwift checks every response again before anyone sees it. Passing a limit throws
/// ``RequestError`` of kind ``RequestError/Kind/responseTooLarge`` naming the endpoint and the limit.
///
/// ```swift
/// api.responseLimits.maxBodyBytes = 256 << 20  // one endpoint returns large exports
/// ```
///
/// The defaults suit JSON APIs: a response head of at most 256 fields and 64 KiB, a body held in memory of at most
/// 64 MiB after decompression, a compressed body that expands at most 100-fold, and stream elements of at most 16 MiB. Bodies streamed
/// (`ServerSentEvents`, `HTTPBodyStream`, …) or downloaded to a file (`DownloadedFile`) are not held in memory, so
/// ``maxBodyBytes`` does not apply to them; the decompression ratio does.
public struct ResponseLimits: Sendable, Hashable {
    /// The most header fields a response head may have; 256 by default.
    public var maxHeaderFields: Int
    /// The most bytes the header fields of a response head may have, counted as sent (`Name: value` and a line end,
    /// per field); 64 KiB by default.
    public var maxHeaderBytes: Int
    /// The largest body held in memory, in bytes after any decompression; 64 MiB by default. A `Content-Length`
    /// above it fails the call before the body is read.
    public var maxBodyBytes: Int
    /// How many times larger than its compressed size (its `Content-Length`) a body with a `Content-Encoding` may
    /// become when the transport decompresses it; 100 by default. A body of 64 KiB or less after decompression is
    /// never refused for its ratio, since small, repetitive bodies compress very well.
    public var maxDecompressionRatio: Int
    /// The largest line, event or record a streamed response (``ServerSentEvents``, ``JSONLines``,
    /// ``JSONTextSequence``, ``TextLines``) accepts, in bytes; 16 MiB by default. A longer one throws
    /// ``RequestError`` of kind ``RequestError/Kind/undecodableResponse`` naming its position.
    public var maxStreamElementBytes: Int

    /// The defaults (see the type's documentation).
    public static let `default` = ResponseLimits()

    /// Creates limits.
    ///
    /// - Parameters:
    ///   - maxHeaderFields: The most header fields in a response head.
    ///   - maxHeaderBytes: The most bytes in a response head's fields.
    ///   - maxBodyBytes: The largest body held in memory, after decompression.
    ///   - maxDecompressionRatio: How many times its compressed size a body may become.
    ///   - maxStreamElementBytes: The largest line, event or record of a streamed response.
    public init(
        maxHeaderFields: Int = 256, maxHeaderBytes: Int = 64 << 10, maxBodyBytes: Int = 64 << 20, maxDecompressionRatio: Int = 100,
        maxStreamElementBytes: Int = 16 << 20
    ) {
        self.maxStreamElementBytes = maxStreamElementBytes
        self.maxHeaderFields = maxHeaderFields
        self.maxHeaderBytes = maxHeaderBytes
        self.maxBodyBytes = maxBodyBytes
        self.maxDecompressionRatio = maxDecompressionRatio
    }

    /// A body of this many bytes or fewer is never refused for its decompression ratio.
    static let ratioFloorBytes = 64 << 10
}
