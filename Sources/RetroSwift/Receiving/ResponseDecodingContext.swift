import Foundation

/// What a response type needs to decode a response: the domain's decoder and the endpoint, for errors.
public struct ResponseDecodingContext: Sendable {
    /// The domain's JSON decoder.
    public let decoder: JSONDecoder
    /// The endpoint being called.
    public let endpoint: EndpointIdentity
    /// The domain's limits; streamed responses read ``ResponseLimits/maxStreamElementBytes`` from them.
    let responseLimits: ResponseLimits
    /// The endpoint's converter, else the domain's; `nil` is JSON through ``decoder``.
    let converter: (any BodyConverter)?

    /// Creates a context; tests of custom response types use this.
    ///
    /// - Parameters:
    ///   - decoder: The JSON decoder.
    ///   - endpoint: The endpoint being called, for errors.
    ///   - responseLimits: The limits the response is held to; ``ResponseLimits/default`` unless given.
    ///   - converter: Decodes bodies in place of `decoder`, as an endpoint's or domain's converter does; `nil` unless given.
    public init(
        decoder: JSONDecoder, endpoint: EndpointIdentity, responseLimits: ResponseLimits = .default,
        converter: (any BodyConverter)? = nil
    ) {
        self.decoder = decoder
        self.converter = converter
        self.endpoint = endpoint
        self.responseLimits = responseLimits
    }

    /// Decodes `type` from `response` by RetroSwift's rules: an ``HTTPResponseDecodable`` type reads the response
    /// itself; any other `Decodable` is JSON-decoded from a 2xx body; a non-2xx status throws ``HTTPError``.
    func decode<T>(_ type: T.Type, from response: HttpOperationResult) throws -> T {
        try decode(type, from: response, acceptingAnyStatus: false)
    }

    /// The same, but decoding the body whatever the status: how `Either` reads an error body.
    func decode<T>(_ type: T.Type, from response: HttpOperationResult, acceptingAnyStatus: Bool) throws -> T {
        let statusAccepted = acceptingAnyStatus || response.isSuccess
        if let custom = T.self as? any HTTPResponseDecodable.Type {
            guard statusAccepted || custom.decodesErrorStatuses else {
                throw HTTPError(response: response, endpoint: endpoint)
            }
            return try decodeCustom(custom, as: T.self, from: response)
        }
        guard statusAccepted else { throw HTTPError(response: response, endpoint: endpoint) }
        guard let decodable = T.self as? any Decodable.Type else {
            throw RequestError(.undecodableResponse, endpoint: endpoint, reason: "\(T.self) is not Decodable", response: response)
        }
        // A format whose parse is strict (JSON, property lists) decodes whatever the label, since many servers label
        // JSON `text/plain`, `text/html` or `application/octet-stream`; only a body that does not decode is then
        // called another format, if its label says so. The media type is read only then: a call that decodes pays
        // nothing for it. The other converters refuse an unlisted media type before decoding.
        guard converter?.decodesUnlistedMediaTypes ?? true else {
            if let unlisted = unlistedMediaType(of: response) { throw unreadableMediaType(response, unlisted) }
            return try decodeJSON(decodable, as: T.self, from: response)
        }
        do {
            return try decodeJSON(decodable, as: T.self, from: response)
        } catch let error as RequestError where error.kind == .undecodableResponse {
            guard let unlisted = unlistedMediaType(of: response) else { throw error }
            throw unreadableMediaType(response, unlisted, decodingFailure: (T.self, error.underlyingError ?? error))
        }
    }

    // The two below take the response type opened from its existential metatype, so the decoded value reaches the
    // caller's `T` by a cast between two generic values: returned as `any Decodable`, a value larger than three
    // words was boxed on the heap and copied out of the box (callgrind: 560 instructions a call).

    private func decodeCustom<Custom: HTTPResponseDecodable, T>(_: Custom.Type, as _: T.Type, from response: HttpOperationResult)
        throws -> T
    {
        try cast(Custom.decode(from: response, context: self))
    }

    private func decodeJSON<Value: Decodable, T>(_: Value.Type, as _: T.Type, from response: HttpOperationResult) throws -> T {
        guard let converter else { return try cast(decodeJSON(Value.self, from: response)) }
        do {
            return try cast(converter.decode(Value.self, from: response.data))
        } catch let error as RequestError {
            throw error
        } catch {
            throw RequestError(
                .undecodableResponse, endpoint: endpoint,
                reason: "the HTTP \(response.statusCode) body does not decode as \(Value.self) with \(type(of: converter)): "
                    + Self.describe(error),
                response: response, underlyingError: error
            )
        }
    }

    /// The media type of `response` when it names one the converter does not list in
    /// ``BodyConverter/readableMediaTypes``; `nil` when it names a listed one or none (a body without a
    /// `Content-Type` is decoded).
    func unlistedMediaType(of response: HttpOperationResult) -> String? {
        guard let contentType = response.header("Content-Type") else { return nil }
        // The common answer, checked without making strings: the default JSON path stays as cheap as before.
        if converter == nil, Self.isApplicationJSON(contentType) { return nil }
        let readable = converter?.readableMediaTypes ?? JSONConverter.readable
        // A converter's own exact types the same way: a format checked before decoding (protobuf) pays no string work.
        if readable.contains(where: { MediaRanges.names(contentType, $0) }) { return nil }
        let mediaType = MediaRanges.essence(of: contentType)
        return MediaRanges.matches(mediaType, anyOf: readable) ? nil : mediaType
    }

    /// The ``RequestError/Kind/unreadableMediaType`` error for a response of `mediaType`, naming the status, the media
    /// type, what the converter reads and the body's first characters, so an HTML page answering a JSON endpoint says
    /// what came back; `decodingFailure` is the failed attempt of a converter that tries such bodies, kept as the
    /// underlying error.
    func unreadableMediaType(
        _ response: HttpOperationResult, _ mediaType: String, decodingFailure: (type: Any.Type, error: any Error)? = nil
    ) -> RequestError {
        let readable = converter?.readableMediaTypes ?? JSONConverter.readable
        let format = converter.map { "\(type(of: $0))" } ?? "the JSON decoder"
        let attempt = decodingFailure.map { " and it does not decode as \($0.type) either (\(Self.describe($0.error)))" } ?? ""
        return RequestError(
            .unreadableMediaType, endpoint: endpoint,
            reason: "the HTTP \(response.statusCode) response is \(mediaType.isEmpty ? "of no media type" : mediaType), which "
                + "\(format) does not read (it reads \(readable.joined(separator: ", ")))\(attempt); "
                + Self.preview(of: response, mediaType),
            response: response, underlyingError: decodingFailure?.error)
    }

    /// Whether `contentType` is `application/json`, in any case, with or without parameters: the answer
    /// ``MediaRanges/essence(of:)`` gives, for the values that start with it.
    static func isApplicationJSON(_ contentType: String) -> Bool {
        MediaRanges.names(contentType, "application/json")
    }

    /// The characters a message quotes from a body: a text, JSON or XML body's first 200, whitespace collapsed,
    /// since those are what explain a wrong answer (a login page, a proxy's error); only the size of any other.
    static func preview(of response: HttpOperationResult, _ mediaType: String) -> String {
        let body = response.data
        if body.isEmpty { return "the body is empty" }
        let isText =
            mediaType.hasPrefix("text/") || mediaType.hasSuffix("+json") || mediaType.hasSuffix("+xml")
            || mediaType == "application/json" || mediaType == "application/xml"
        guard isText else { return "the body is \(body.count) bytes" }
        let limit = 200
        let text = String(decoding: body.prefix(limit * 4), as: UTF8.self)
            .split(whereSeparator: { $0.isWhitespace }).joined(separator: " ")
        let quoted = text.prefix(limit)
        return "the body begins: " + quoted + (quoted.endIndex < text.endIndex || body.count > limit * 4 ? "…" : "")
    }

    /// JSON-decodes `type` from the body, wrapping failures in a ``RequestError`` that names the endpoint.
    public func decodeJSON<T: Decodable>(_ type: T.Type, from response: HttpOperationResult) throws -> T {
        do {
            return try decoder.decode(T.self, from: response.data)
        } catch {
            throw RequestError(
                .undecodableResponse, endpoint: endpoint,
                reason: "the HTTP \(response.statusCode) body does not decode as \(T.self): \(Self.describe(error))",
                response: response, underlyingError: error
            )
        }
    }

    private func cast<Value, T>(_ value: Value) throws -> T {
        // `is`, then `as!`: in this unspecialized code `as? T` made the runtime look up the metadata of `T?` on every
        // call (callgrind: 1,200 instructions); neither of these needs it.
        guard value is T else {
            throw RequestError(.undecodableResponse, endpoint: endpoint, reason: "decoded \(type(of: value)), expected \(T.self)")
        }
        return value as! T
    }

    static func describe(_ error: any Error) -> String {
        guard let decodingError = error as? DecodingError else { return "\(error)" }
        switch decodingError {
        case .dataCorrupted(let context), .keyNotFound(_, let context), .typeMismatch(_, let context), .valueNotFound(_, let context):
            let path = context.codingPath.map(\.stringValue).joined(separator: ".")
            return path.isEmpty ? context.debugDescription : "\(path): \(context.debugDescription)"
        @unknown default:
            return "\(error)"
        }
    }
}
