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

    /// Why a value cannot be used, worded to follow "the URL ...".
    struct Problem: Error, Equatable {
        let reason: String
    }

    /// Checks and encodes `value`.
    ///
    /// - A fragment (`#...`) is dropped, as it is never sent.
    /// - Bytes that RFC 3986 allows nowhere in that part of a URL (spaces, non-ASCII) are percent-encoded; a
    ///   well-formed `%XX` is kept, so an encoded value is sent as it is.
    /// - Refused: an empty value, control characters, `//host` without a scheme, schemes other than `http` and
    ///   `https`, user information (`user:password@`), and `.` or `..` segments, which would climb out of the base
    ///   path (or, in a full URL, be resolved differently by each transport).
    static func parse(_ value: String) -> Result<DynamicURL, Problem> {
        func refuse(_ reason: String) -> Result<DynamicURL, Problem> { .failure(Problem(reason: reason)) }
        if value.isEmpty { return refuse("the URL is empty; give a path such as '/items' or a full URL") }
        if let byte = value.utf8.first(where: { $0 < 0x20 || $0 == 0x7F }) {
            return refuse("the URL '\(printable(value))' contains \(HeaderRules.describe(byte)); nothing was sent")
        }
        let withoutFragment = value.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false)[0]
        if withoutFragment.hasPrefix("//") {
            return refuse("the URL '\(value)' names a host without a scheme; write it in full with http:// or https://")
        }
        var schemeAndAuthority: String?
        var rest = withoutFragment
        if let scheme = scheme(of: withoutFragment) {
            let lowered = scheme.lowercased()
            guard lowered == "http" || lowered == "https" else {
                return refuse(
                    "the URL '\(value)' has the scheme '\(scheme)'; only http and https are sent (a path whose first "
                        + "segment holds ':' must start with '/')")
            }
            let afterScheme = withoutFragment.dropFirst(scheme.count + 1)
            guard afterScheme.hasPrefix("//") else { return refuse("the URL '\(value)' has no host; write scheme://host/path") }
            let authorityStart = afterScheme.dropFirst(2)
            let authorityEnd = authorityStart.firstIndex { $0 == "/" || $0 == "?" } ?? authorityStart.endIndex
            let authority = authorityStart[..<authorityEnd]
            if authority.contains("@") {
                return refuse(
                    "the URL '\(value)' carries user information (user:password@), which would be sent as credentials; "
                        + "remove it and send credentials in a header")
            }
            guard isAuthority(authority) else { return refuse("the URL '\(value)' has no valid host and port") }
            schemeAndAuthority = lowered + "://" + authority
            rest = authorityStart[authorityEnd...]
        }
        let parts = rest.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false)
        var path = PercentEncoding.encodeKeepingEscapes(String(parts[0]), allowing: PercentEncoding.path)
        if !path.hasPrefix("/") { path = "/" + path }
        let dotSegment = path.split(separator: "/", omittingEmptySubsequences: false).contains { segment in
            let decoded = segment.removingPercentEncoding ?? String(segment)
            return decoded == "." || decoded == ".."
        }
        if dotSegment {
            return refuse(
                "the URL '\(value)' has a '.' or '..' segment, which would lead out of the base path; give the path "
                    + "without them")
        }
        let query = parts.count > 1 && !parts[1].isEmpty ? String(parts[1]) : nil
        return .success(
            DynamicURL(
                schemeAndAuthority: schemeAndAuthority, encodedPath: path,
                encodedQuery: query.map { PercentEncoding.encodeKeepingEscapes($0, allowing: PercentEncoding.query) }
            ))
    }

    /// The scheme of `value` (RFC 3986 §3.1: a letter, then letters, digits, `+`, `-`, `.`, then `:`) when it has
    /// one before any `/` or `?`.
    private static func scheme(of value: Substring) -> Substring? {
        guard let colon = value.firstIndex(of: ":") else { return nil }
        let candidate = value[..<colon]
        guard let first = candidate.utf8.first, first < 0x80, Character(Unicode.Scalar(first)).isLetter,
            candidate.utf8.allSatisfy(schemeCharacters.contains)
        else { return nil }
        return candidate
    }

    private static let schemeCharacters = PercentEncoding.AllowedSet("+-.")

    /// `host`, `host:port` or `[IPv6]:port`, with a port of at most five digits.
    private static func isAuthority(_ authority: Substring) -> Bool {
        var host = authority
        var port: Substring = ""
        if authority.hasPrefix("[") {
            guard let close = authority.firstIndex(of: "]") else { return false }
            host = authority[...close]
            let after = authority[authority.index(after: close)...]
            if !after.isEmpty {
                guard after.hasPrefix(":") else { return false }
                port = after.dropFirst()
            }
            guard host.count > 2, host.dropFirst().dropLast().allSatisfy({ $0.isHexDigit || $0 == ":" || $0 == "." })
            else { return false }
        } else {
            if let colon = authority.lastIndex(of: ":") {
                host = authority[..<colon]
                port = authority[authority.index(after: colon)...]
            }
            guard !host.isEmpty, host.utf8.allSatisfy(hostCharacters.contains) else { return false }
        }
        return port.count <= 5 && port.utf8.allSatisfy { $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }
            && (port.isEmpty || (Int(port) ?? .max) <= 65_535)
    }

    /// Registered names as URLs carry them, percent-encoded or not; non-ASCII names must be given in punycode.
    private static let hostCharacters = PercentEncoding.AllowedSet("-._~!$&'()*+,;=%")

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
