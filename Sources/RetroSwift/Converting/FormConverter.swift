import Foundation

/// HTML forms: `application/x-www-form-urlencoded` (Retrofit's `@FormUrlEncoded` as a whole body). Writes and reads
/// that type.
///
/// A value encodes as its keyed container's fields, in key order: strings as they are, numbers as JSON writes them,
/// `Bool` as `true`/`false`, an array by repeating the key, `nil` left out; a nested object cannot be encoded. A body
/// decodes into a type whose fields are all `String` (or `[String]` for a repeated key).
public struct FormConverter: BodyConverter, @unchecked Sendable {
    // @unchecked: the encoder is a class, never changed by RetroSwift after it is handed over.
    /// Encodes values to the JSON objects whose fields the form sends; its date and key strategies apply.
    public let encoder: JSONEncoder

    /// A form converter.
    ///
    /// - Parameter encoder: Turns values into the fields sent; a `JSONEncoder` with sorted keys unless given.
    public init(encoder: JSONEncoder? = nil) {
        self.encoder =
            encoder
            ?? {
                let sorted = JSONEncoder()
                sorted.outputFormatting = .sortedKeys
                return sorted
            }()
    }

    /// `application/x-www-form-urlencoded`.
    public var contentType: String { "application/x-www-form-urlencoded" }
    /// `application/x-www-form-urlencoded`.
    public var readableMediaTypes: [String] { ["application/x-www-form-urlencoded"] }
    /// Any `Encodable`; a nested object fails when encoded.
    public func canEncode(_ type: Any.Type) -> Bool { type is any Encodable.Type }
    /// Any `Decodable`; a field that is not `String` or `[String]` fails when decoded.
    public func canDecode(_ type: Any.Type) -> Bool { type is any Decodable.Type }

    /// The value's fields as `name=value` pairs joined by `&`, percent-encoded with spaces as `+`.
    public func encode<Value: Encodable>(_ value: Value) throws -> Data {
        let json = try encoder.encode(value)
        guard let fields = try? JSONDecoder().decode([String: FormValue].self, from: json) else {
            throw EncodingError.invalidValue(
                value, .init(codingPath: [], debugDescription: "a form body is a set of named fields; \(Value.self) has none"))
        }
        var pairs: [String] = []
        for name in fields.keys.sorted() {
            let field = fields[name]!
            let values: [FormValue]
            if case .list(let items) = field { values = items } else { values = [field] }
            for item in values {
                let text: String
                switch item {
                case .absent: continue
                case .text(let value): text = value
                case .list, .object:
                    throw EncodingError.invalidValue(
                        value, .init(codingPath: [], debugDescription: "form field '\(name)' is nested, which a form cannot carry"))
                }
                pairs.append(
                    PercentEncoding.encode(name, allowing: PercentEncoding.formComponent, spaceAsPlus: true) + "="
                        + PercentEncoding.encode(text, allowing: PercentEncoding.formComponent, spaceAsPlus: true))
            }
        }
        return Data(pairs.joined(separator: "&").utf8)
    }

    /// One JSON value as a form sees it: JSON read back through `Decodable`, so booleans stay `true`/`false` and
    /// integers print without a fraction on every platform (`JSONSerialization` gives `NSNumber` for both).
    private enum FormValue: Decodable {
        case absent, text(String), list([FormValue]), object

        init(from decoder: any Decoder) throws {
            let container = try decoder.singleValueContainer()
            if container.decodeNil() {
                self = .absent
            } else if let flag = try? container.decode(Bool.self) {
                self = .text(flag ? "true" : "false")
            } else if let integer = try? container.decode(Int64.self) {
                self = .text(String(integer))
            } else if let number = try? container.decode(Double.self) {
                self = .text("\(number)")
            } else if let text = try? container.decode(String.self) {
                self = .text(text)
            } else if let items = try? container.decode([FormValue].self) {
                self = .list(items)
            } else {
                self = .object
            }
        }
    }

    /// The pairs of the body, a repeated name as an array, decoded through `JSONDecoder`.
    public func decode<Value: Decodable>(_ type: Value.Type, from body: Data) throws -> Value {
        var fields: [String: [String]] = [:]
        for pair in String(decoding: body, as: UTF8.self).split(separator: "&") where !pair.isEmpty {
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            let decode = { (part: Substring) in PercentEncoding.decodedText(part.replacingOccurrences(of: "+", with: " ")) }
            fields[decode(parts[0]), default: []].append(parts.count > 1 ? decode(parts[1]) : "")
        }
        let object = fields.mapValues { $0.count == 1 ? $0[0] as Any : $0 as Any }
        return try JSONDecoder().decode(type, from: JSONSerialization.data(withJSONObject: object))
    }
}
