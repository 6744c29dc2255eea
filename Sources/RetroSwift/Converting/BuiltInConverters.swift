import Foundation

/// Text: a `String` body as UTF-8 (Retrofit's scalars converter). Writes `text/plain; charset=utf-8`; reads any
/// `text/*` type (as UTF-8, invalid bytes replaced).
public struct TextConverter: BodyConverter {
    /// A text converter.
    public init() {}

    /// `text/plain; charset=utf-8`.
    public var contentType: String { "text/plain; charset=utf-8" }
    /// `text/*`.
    public var readableMediaTypes: [String] { ["text/*"] }
    /// `String` only.
    public func canEncode(_ type: Any.Type) -> Bool { type == String.self }
    /// `String` only.
    public func canDecode(_ type: Any.Type) -> Bool { type == String.self }
    /// The string's UTF-8 bytes.
    public func encode<Value: Encodable>(_ value: Value) throws -> Data {
        guard let text = value as? String else { throw ConverterMismatch(converter: "TextConverter", type: Value.self) }
        return Data(text.utf8)
    }
    /// The body read as UTF-8.
    public func decode<Value: Decodable>(_ type: Value.Type, from body: Data) throws -> Value {
        guard let text = String(decoding: body, as: UTF8.self) as? Value else {
            throw ConverterMismatch(converter: "TextConverter", type: Value.self)
        }
        return text
    }
}

/// Raw bytes: a `Data` body as it is. Writes `application/octet-stream`; reads any media type.
public struct BytesConverter: BodyConverter {
    /// A bytes converter.
    public init() {}

    /// `application/octet-stream`.
    public var contentType: String { "application/octet-stream" }
    /// `*/*`: bytes are bytes, whatever their type.
    public var readableMediaTypes: [String] { ["*/*"] }
    /// `Data` only.
    public func canEncode(_ type: Any.Type) -> Bool { type == Data.self }
    /// `Data` only.
    public func canDecode(_ type: Any.Type) -> Bool { type == Data.self }
    /// The bytes as they are.
    public func encode<Value: Encodable>(_ value: Value) throws -> Data {
        guard let data = value as? Data else { throw ConverterMismatch(converter: "BytesConverter", type: Value.self) }
        return data
    }
    /// The body as it is.
    public func decode<Value: Decodable>(_ type: Value.Type, from body: Data) throws -> Value {
        guard let data = body as? Value else { throw ConverterMismatch(converter: "BytesConverter", type: Value.self) }
        return data
    }
}

/// Property lists, through a `PropertyListEncoder` and a `PropertyListDecoder`. Writes `application/x-plist`;
/// reads `application/x-plist` and `application/plist`, XML or binary.
public struct PropertyListConverter: BodyConverter, @unchecked Sendable {
    // @unchecked: the coders are classes, never changed by RetroSwift after they are handed over.
    /// Encodes request bodies (binary unless its `outputFormat` says XML).
    public let encoder: PropertyListEncoder
    /// Decodes response bodies.
    public let decoder: PropertyListDecoder

    /// A property list converter.
    ///
    /// - Parameters:
    ///   - encoder: Encodes request bodies; a `PropertyListEncoder` writing binary unless given.
    ///   - decoder: Decodes response bodies; a plain `PropertyListDecoder` unless given.
    public init(encoder: PropertyListEncoder? = nil, decoder: PropertyListDecoder = PropertyListDecoder()) {
        self.encoder =
            encoder
            ?? {
                let binary = PropertyListEncoder()
                binary.outputFormat = .binary
                return binary
            }()
        self.decoder = decoder
    }

    /// `application/x-plist`.
    public var contentType: String { "application/x-plist" }
    /// `application/x-plist`, `application/plist`.
    public var readableMediaTypes: [String] { ["application/x-plist", "application/plist"] }
    /// `true`: a property list's parse refuses other formats, and servers often label them
    /// `application/octet-stream` or `text/xml`.
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

/// A converter asked for a type it does not handle (a declaration check catches this before any call).
struct ConverterMismatch: Error, CustomStringConvertible {
    let converter: String
    let type: Any.Type

    var description: String { "\(converter) does not handle \(type)" }
}
