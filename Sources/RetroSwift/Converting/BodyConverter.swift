import Foundation

/// Turns values into request bodies and response bodies into values, in one format (Retrofit's converter): JSON,
/// text, bytes, forms, property lists, or your own.
///
/// A domain's ``Domain/converter`` decides the format of its endpoints' `@Body` fields and decoded responses; an
/// endpoint may choose another with `converter:` in its declaration. `@JsonBody` always sends JSON with the domain's
/// ``Domain/jsonEncoder``.
///
/// A response without a `Content-Type`, or with one of the ``readableMediaTypes``, is decoded. One of another media
/// type fails with a ``RequestError`` of kind ``RequestError/Kind/unreadableMediaType`` naming what came back — before
/// any decoding, or, for a converter that ``decodesUnlistedMediaTypes`` (JSON and property lists, whose parse is
/// strict), only when the body does not decode: JSON labelled `text/plain`, `text/html` or
/// `application/octet-stream`, as many servers send it, still decodes, and an HTML page is called an HTML page.
///
/// `Either`'s error body and `HTTPResponse`'s body are decoded by the endpoint's converter, and so is every page of
/// a paginated endpoint (each page is a call of it). `Data`, `String`, ``Empty`` and ``DownloadedFile`` read the
/// body themselves. The streams of encoded items (``JSONLines``, ``JSONTextSequence`` and the `data` of
/// ``ServerSentEvents``) stay JSON through the domain's ``Domain/jsonDecoder``: their framing is JSON's.
public protocol BodyConverter: Sendable {
    /// The media type of the bodies it writes, sent as `Content-Type` unless the declaration sets one.
    var contentType: String { get }
    /// The media types it reads, sent as `Accept` unless the declaration sets one: `type/subtype`, `type/*`,
    /// `*/*`, or `*/*+suffix` for any type with a structured syntax suffix (`*/*+json`).
    var readableMediaTypes: [String] { get }
    /// Whether a response whose media type is not one of ``readableMediaTypes`` is decoded anyway, and reported as
    /// ``RequestError/Kind/unreadableMediaType`` only when that fails (`false` unless the converter says so: it
    /// refuses such a response before decoding). Say `true` only for a format whose parse rejects other formats, so
    /// that a body which decodes is really in it.
    var decodesUnlistedMediaTypes: Bool { get }
    /// Whether it can encode values of `type` (asked once per endpoint, when its declaration is checked).
    ///
    /// - Parameter type: The type of a `@Body` field's value, `Optional` unwrapped.
    /// - Returns: `false` makes the declaration a mistake that ``Domain/validateEndpoints()`` reports.
    func canEncode(_ type: Any.Type) -> Bool
    /// Whether it can decode values of `type` (asked once per endpoint, when its declaration is checked).
    ///
    /// - Parameter type: The endpoint's declared response type.
    /// - Returns: `false` makes the declaration a mistake that ``Domain/validateEndpoints()`` reports.
    func canDecode(_ type: Any.Type) -> Bool
    /// Encodes a request body.
    ///
    /// - Parameter value: The `@Body` field's value.
    /// - Returns: The body's bytes.
    /// - Throws: Any error; RetroSwift wraps it in a ``RequestError`` of kind ``RequestError/Kind/unencodableBody``.
    func encode<Value: Encodable>(_ value: Value) throws -> Data
    /// Decodes a response body.
    ///
    /// - Parameters:
    ///   - type: The type to decode.
    ///   - body: The response body.
    /// - Returns: The decoded value.
    /// - Throws: Any error; RetroSwift wraps it in a ``RequestError`` of kind ``RequestError/Kind/undecodableResponse``.
    func decode<Value: Decodable>(_ type: Value.Type, from body: Data) throws -> Value
}

extension BodyConverter {
    /// `false`: a response of a media type the converter does not list is refused before decoding.
    public var decodesUnlistedMediaTypes: Bool { false }

    /// Whether `mediaType` (lowercased, without parameters) is one of ``readableMediaTypes``.
    func reads(mediaType: String) -> Bool {
        MediaRanges.matches(mediaType, anyOf: readableMediaTypes)
    }
}

/// Matching media types against ranges such as `text/*` and `*/*+json`.
enum MediaRanges {
    static func matches(_ mediaType: String, anyOf ranges: [String]) -> Bool {
        ranges.contains { range in
            // Ranges are compared as written when already lowercase, as the built-in ones are.
            let range = range.utf8.contains { $0 >= 0x41 && $0 <= 0x5A } ? range.lowercased() : range
            if range == "*/*" || range == mediaType { return true }
            if range.hasPrefix("*/*+") { return mediaType.hasSuffix(range.dropFirst(3)) }
            if range.hasSuffix("/*") { return mediaType.hasPrefix(range.dropLast()) }
            return false
        }
    }

    /// An `Accept` value for `ranges`: `*/*+suffix` is RetroSwift's own spelling, not a range `Accept` may carry
    /// (RFC 9110 §12.5.1), so it is left out; `*/*` when nothing is left.
    static func acceptValue(for ranges: [String]) -> String {
        let sendable = ranges.filter { !$0.hasPrefix("*/*+") }
        return sendable.isEmpty ? "*/*" : sendable.joined(separator: ", ")
    }

    /// Whether the `Content-Type` value `contentType` names exactly `mediaType` (written in lower case), in any case,
    /// before any parameter: read byte by byte, without making a string, so that the common answer costs no more
    /// than a comparison. A range (`text/*`) never matches here; ``essence(of:)`` and ``matches(_:anyOf:)`` decide it.
    static func names(_ contentType: String, _ mediaType: String) -> Bool {
        var bytes = contentType.utf8.makeIterator()
        for expected in mediaType.utf8 {
            // Only A-Z are folded: `| 0x20` on any byte would also take a control byte 0x0F for the `/`.
            guard let byte = bytes.next(), (byte >= 0x41 && byte <= 0x5A ? byte | 0x20 : byte) == expected else { return false }
        }
        // Whitespace may follow the type, then only the end or `;` ("application/json x" is another media type).
        while let next = bytes.next() {
            if next == UInt8(ascii: ";") { return true }
            guard next == UInt8(ascii: " ") || next == UInt8(ascii: "\t") else { return false }
        }
        return true
    }

    /// The media type of a `Content-Type` value: lowercased, parameters and surrounding whitespace dropped.
    static func essence(of contentType: String) -> String {
        (contentType.split(separator: ";", maxSplits: 1, omittingEmptySubsequences: false).first ?? "")
            .trimmingCharacters(in: .whitespaces).lowercased()
    }
}

/// JSON, through a `JSONEncoder` and a `JSONDecoder`: the format of a domain that sets no other. Writes
/// `application/json`; reads `application/json`, any `+json` type and `text/json`.
public struct JSONConverter: BodyConverter, @unchecked Sendable {
    // @unchecked: the coders are classes; RetroSwift never changes them after they are handed over, as with the
    // domain's jsonEncoder and jsonDecoder.
    /// Encodes request bodies.
    public let encoder: JSONEncoder
    /// Decodes response bodies.
    public let decoder: JSONDecoder

    /// A JSON converter.
    ///
    /// - Parameters:
    ///   - encoder: Encodes request bodies; a plain `JSONEncoder` unless given.
    ///   - decoder: Decodes response bodies; a plain `JSONDecoder` unless given.
    public init(encoder: JSONEncoder = JSONEncoder(), decoder: JSONDecoder = JSONDecoder()) {
        self.encoder = encoder
        self.decoder = decoder
    }

    /// `application/json`.
    public var contentType: String { "application/json" }
    /// `application/json`, `*/*+json`, `text/json`.
    public var readableMediaTypes: [String] { Self.readable }
    static let readable = ["application/json", "*/*+json", "text/json"]
    /// `true`: JSON's parse refuses other formats, and many servers label JSON `text/plain`, `text/html` or
    /// `application/octet-stream`, or send it with no `Content-Type`.
    public var decodesUnlistedMediaTypes: Bool { true }
    /// Any `Encodable`.
    public func canEncode(_ type: Any.Type) -> Bool { type is any Encodable.Type }
    /// Any `Decodable`.
    public func canDecode(_ type: Any.Type) -> Bool { type is any Decodable.Type }
    /// Encodes with ``encoder``.
    public func encode<Value: Encodable>(_ value: Value) throws -> Data { try encoder.encode(value) }
    /// Decodes with ``decoder``.
    public func decode<Value: Decodable>(_ type: Value.Type, from body: Data) throws -> Value {
        try decoder.decode(type, from: body)
    }
}
