import Foundation

/// The value of a `@Url` field, checked and percent-encoded: a path (with an optional query) that goes after the
/// base URL the way a declared path does, or a full `http`/`https` URL.
struct DynamicURL: Equatable {
    /// `scheme://authority` of a full URL, the scheme lowercased; `nil` for a path.
    let schemeAndAuthority: String?
    /// The percent-encoded path, starting with `/`.
    let encodedPath: String
    /// The percent-encoded query without `?`, or `nil` when the value has none (or an empty one).
    let encodedQuery: String?

    /// Checks and encodes `value`.
    ///
    /// - A fragment (`#...`) is dropped, as it is never sent.
    /// - Bytes that RFC 3986 allows nowhere in that part of a URL (spaces, non-ASCII) are percent-encoded; a
    ///   well-formed `%XX` is kept, so an encoded value is sent as it is.
    /// - Refused: an empty value, white space at either end, control characters, `//host` without a scheme, schemes
    ///   other than `http` and `https`, user information (`user:password@`), a host or port that is not valid, and
    ///   `.` or `..` segments (encoded, or hidden behind an encoded `/` or `\`), which would climb out of the base
    ///   path (or, in a full URL, be resolved differently by each transport).
    ///
    /// Delimiters are found in the UTF-8 bytes, never in `Character`s: a `/` or `#` followed by a combining mark is
    /// one `Character` that compares unequal to `/`, and must still count as the delimiter it is on the wire.
    static func parse(_ value: String) -> Result<DynamicURL, InvalidValue> {
        func refuse(_ reason: String) -> Result<DynamicURL, InvalidValue> { .failure(InvalidValue(reason: reason)) }
        let bytes = Array(value.utf8)
        if bytes.isEmpty { return refuse("the URL is empty; give a path such as '/items' or a full URL") }
        if let byte = bytes.first(where: { $0 < 0x20 || $0 == 0x7F }) {
            return refuse("the URL '\(printable(value))' contains \(HeaderRules.describe(byte)); nothing was sent")
        }
        if bytes.first == UInt8(ascii: " ") || bytes.last == UInt8(ascii: " ") {
            return refuse("the URL '\(value)' starts or ends with a space; trim it")
        }
        var rest = bytes[..<(bytes.firstIndex(of: UInt8(ascii: "#")) ?? bytes.endIndex)]
        if rest.starts(with: [UInt8(ascii: "/"), UInt8(ascii: "/")]) {
            return refuse("the URL '\(value)' names a host without a scheme; write it in full with http:// or https://")
        }
        var schemeAndAuthority: String?
        if let scheme = scheme(of: rest) {
            let lowered = scheme.lowercased()
            guard lowered == "http" || lowered == "https" else {
                return refuse(
                    "the URL '\(value)' has the scheme '\(scheme)'; only http and https are sent (a path whose first "
                        + "segment holds ':' must start with '/')")
            }
            let afterScheme = rest.dropFirst(scheme.utf8.count + 1)
            guard afterScheme.starts(with: [UInt8(ascii: "/"), UInt8(ascii: "/")]) else {
                return refuse("the URL '\(value)' has no host; write scheme://host/path")
            }
            let authorityStart = afterScheme.dropFirst(2)
            let authorityEnd = authorityStart.firstIndex { $0 == UInt8(ascii: "/") || $0 == UInt8(ascii: "?") } ?? authorityStart.endIndex
            let authority = authorityStart[..<authorityEnd]
            if authority.contains(UInt8(ascii: "@")) {
                return refuse(
                    "the URL '\(value)' carries user information (user:password@), which would be sent as credentials; "
                        + "remove it and send credentials in a header")
            }
            guard isAuthority(authority) else { return refuse("the URL '\(value)' has no valid host and port") }
            schemeAndAuthority = lowered + "://" + String(decoding: authority, as: UTF8.self)
            rest = authorityStart[authorityEnd...]
        }
        let questionMark = rest.firstIndex(of: UInt8(ascii: "?"))
        let rawPath = String(decoding: rest[..<(questionMark ?? rest.endIndex)], as: UTF8.self)
        var path = PercentEncoding.encodeKeepingEscapes(rawPath, allowing: PercentEncoding.path)
        if !path.hasPrefix("/") { path = "/" + path }
        if path.hasPrefix("//") && schemeAndAuthority == nil {
            return refuse("the URL '\(value)' starts with '//', which names a host; give a path or a full URL")
        }
        if hasDotSegment(path) {
            return refuse(
                "the URL '\(value)' has a '.' or '..' segment, which would lead out of the "
                    + (schemeAndAuthority == nil ? "base path" : "path it names") + "; give the path without them")
        }
        var query: String?
        if let questionMark, questionMark + 1 < rest.endIndex {
            query = PercentEncoding.encodeKeepingEscapes(
                String(decoding: rest[(questionMark + 1)...], as: UTF8.self), allowing: PercentEncoding.query)
        }
        return .success(DynamicURL(schemeAndAuthority: schemeAndAuthority, encodedPath: path, encodedQuery: query))
    }

    /// Whether a segment of `path` is `.` or `..` once decoded, also when a decoded `/` or `\` splits it further
    /// (`..%2F..`, which servers that decode before routing read as two segments) or a `;` starts parameters
    /// (`..;`, which some servers strip).
    ///
    /// Decoded byte by byte: an escape that is not UTF-8 (`..%2F%FF`) must not hide the `..` before it, as it would if
    /// the segment were decoded as a string, which fails as a whole.
    private static func hasDotSegment(_ path: String) -> Bool {
        let dot = UInt8(ascii: ".")
        return PercentEncoding.decodedBytes(path).split(omittingEmptySubsequences: false) {
            $0 == UInt8(ascii: "/") || $0 == UInt8(ascii: "\\")
        }.contains { piece in
            let name = piece.split(separator: UInt8(ascii: ";"), maxSplits: 1, omittingEmptySubsequences: false).first ?? []
            return name.elementsEqual([dot]) || name.elementsEqual([dot, dot])
        }
    }

    /// The scheme of `value` (RFC 3986 §3.1: a letter, then letters, digits, `+`, `-`, `.`, then `:`) when it has
    /// one before any `/` or `?`.
    private static func scheme(of value: ArraySlice<UInt8>) -> String? {
        guard let colon = value.firstIndex(of: UInt8(ascii: ":")) else { return nil }
        let candidate = value[..<colon]
        guard let first = candidate.first, (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(first | 0x20),
            candidate.allSatisfy(schemeCharacters.contains)
        else { return nil }
        return String(decoding: candidate, as: UTF8.self)
    }

    private static let schemeCharacters = PercentEncoding.AllowedSet("+-.")

    /// `host`, `host:port` or `[IPv6]:port`, with a port of at most five digits.
    private static func isAuthority(_ authority: ArraySlice<UInt8>) -> Bool {
        var host = authority
        var port: ArraySlice<UInt8> = []
        // The port follows the last ':' after the host; an IPv6 address's own colons sit inside its brackets.
        let hostEnd =
            authority.first == UInt8(ascii: "[")
            ? authority.firstIndex(of: UInt8(ascii: "]")).map { $0 + 1 } : authority.startIndex
        if let hostEnd, let colon = authority[hostEnd...].lastIndex(of: UInt8(ascii: ":")) {
            host = authority[..<colon]
            port = authority[(colon + 1)...]
        }
        guard isHost(host), port.count <= 5, port.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }) else {
            return false
        }
        return port.isEmpty || (Int(String(decoding: port, as: UTF8.self)) ?? .max) <= 65_535
    }

    /// A host as RetroSwift accepts one, in a `@Url` value and in ``OtherHostPolicy``: ASCII letters, digits, `-`,
    /// `.` and `_` (internationalized names in punycode), or an IPv6 address in brackets. No percent-encoding, which
    /// transports decode differently.
    static func isHost(_ host: some BidirectionalCollection<UInt8>) -> Bool {
        guard host.first == UInt8(ascii: "[") else { return !host.isEmpty && host.allSatisfy(hostCharacters.contains) }
        let inside = host.dropFirst().dropLast()
        return host.count > 2 && host.last == UInt8(ascii: "]") && inside.contains(UInt8(ascii: ":"))
            && inside.allSatisfy { Character(Unicode.Scalar($0)).isHexDigit || $0 == UInt8(ascii: ":") || $0 == UInt8(ascii: ".") }
    }

    private static let hostCharacters = PercentEncoding.AllowedSet("-._")

    /// `value` with control characters shown as escapes, for an error message that stays on one line.
    private static func printable(_ value: String) -> String {
        value.unicodeScalars.map { $0.value < 0x20 || $0.value == 0x7F ? $0.escaped(asASCII: true) : String($0) }.joined()
    }
}

/// A `@Url` field's value with its field, as the request builder holds it.
final class DynamicURLField {
    let url: DynamicURL
    let field: RequestPlan.Field

    init(url: DynamicURL, field: RequestPlan.Field) {
        self.url = url
        self.field = field
    }
}
