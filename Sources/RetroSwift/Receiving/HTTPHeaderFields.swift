/// The header fields of a response, every one kept, in the order received (in name order through
/// `URLSessionTransport`, whose `HTTPURLResponse` keeps none), values without the spaces and tabs around them.
///
/// Names compare case-insensitively (RFC 9110 §5.1), so `X-Foo: a` and `x-foo: b` are one field with two values:
/// `headers["x-foo"]` combines them in order as RFC 9110 §5.3 does, `"a, b"`, the same on every transport;
/// `headers.values(for: "X-FOO")` is `["a", "b"]` (`["a, b"]` through `URLSessionTransport`, which receives them
/// joined). `Set-Cookie` is the one field never combined: `headers["Set-Cookie"]`
/// is the first cookie, and `values(for: "Set-Cookie")` has one value per cookie.
///
/// ```swift
/// let cookies = response.headers.values(for: "Set-Cookie")
/// ```
public struct HTTPHeaderFields: Sendable, Hashable, RandomAccessCollection, ExpressibleByDictionaryLiteral, CustomStringConvertible {
    /// The fields in the order received.
    private(set) var fields: [HTTPHeader]

    /// Creates header fields from `fields`, kept in that order.
    ///
    /// - Parameter fields: The fields.
    public init(_ fields: [HTTPHeader] = []) {
        self.fields = fields
    }

    /// Creates header fields from a dictionary, ordered by name so the result does not depend on hashing.
    ///
    /// - Parameter dictionary: One value per name.
    public init(_ dictionary: [String: String]) {
        self.fields = dictionary.sorted { $0.key < $1.key }.map { HTTPHeader(name: $0.key, value: $0.value) }
    }

    /// Creates header fields from a literal such as `["Content-Type": "application/json"]`, in the order written.
    ///
    /// - Parameter elements: The names and values.
    public init(dictionaryLiteral elements: (String, String)...) {
        self.fields = elements.map { HTTPHeader(name: $0.0, value: $0.1) }
    }

    /// The value of the field `name`, compared case-insensitively: every value it has, in order, combined with `, `
    /// (RFC 9110 §5.3); for `Set-Cookie`, which must never be combined (RFC 6265 §3), the first cookie.
    ///
    /// - Parameter name: A field name in any case.
    /// - Returns: The value, or `nil` when the field is absent.
    public subscript(name: String) -> String? {
        let isSetCookie = HeaderName.matches(name, "Set-Cookie")
        var combined: String?
        for field in fields where HeaderName.matches(field.name, name) {
            guard let earlier = combined else {
                if isSetCookie { return field.value }
                combined = field.value
                continue
            }
            combined = earlier + ", " + field.value
        }
        return combined
    }

    /// Every value of the field `name`, compared case-insensitively, in the order received.
    ///
    /// - Parameter name: A field name in any case.
    /// - Returns: The values; empty when the field is absent.
    public func values(for name: String) -> [String] {
        fields.filter { HeaderName.matches($0.name, name) }.map(\.value)
    }

    /// Adds a field after the others.
    ///
    /// - Parameters:
    ///   - name: The field name.
    ///   - value: The field value.
    public mutating func append(name: String, value: String) {
        fields.append(HTTPHeader(name: name, value: value))
    }

    /// The position of the first field.
    public var startIndex: Int { fields.startIndex }
    /// The position after the last field.
    public var endIndex: Int { fields.endIndex }

    /// The field at `position`.
    ///
    /// - Parameter position: A valid index.
    /// - Returns: The field.
    public subscript(position: Int) -> HTTPHeader {
        fields[position]
    }

    /// `Name: value` lines, one per field.
    public var description: String {
        fields.map { "\($0.name): \($0.value)" }.joined(separator: "\n")
    }
}
