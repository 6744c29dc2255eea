// Target for `@Url` values (`DynamicURL.parse`, Sources/RetroSwift/Building/DynamicURL.swift): a path or a full
// http(s) URL, checked and percent-encoded.
//
// Invariants, for any value that parses:
// - the path starts with '/', and with '//' only after a scheme and authority; path and query hold only the
//   characters RFC 3986 allows there and well-formed %XX;
// - no segment of the path is '.' or '..' once percent-decoded byte by byte, also when a decoded '/' or '\' splits
//   it further or a ';' starts parameters (what a server that decodes before routing would see);
// - a full URL has scheme http or https, no user information, and, when Foundation's URL reads the URL RetroSwift
//   sends, Foundation sees the same scheme, host and port; a path joined to a base URL keeps the base URL's host;
// - what follows '#' is dropped.

import Foundation

enum FuzzDynamicURL {
    static let base = "https://api.example.com/v1"

    static func run(_ bytes: [UInt8]) {
        let value = String(decoding: bytes, as: UTF8.self)
        guard case .success(let url) = DynamicURL.parse(value) else { return }
        let shown = value.debugDescription
        let path = Array(url.encodedPath.utf8)
        fuzzCheck(path.first == UInt8(ascii: "/"), "dynamic-url: \(shown) gives path \(url.encodedPath.debugDescription)")
        fuzzCheck(
            url.schemeAndAuthority != nil || !path.starts(with: [UInt8(ascii: "/"), UInt8(ascii: "/")]),
            "dynamic-url: \(shown) gives a path starting with '//' and no host")
        fuzzCheck(
            FuzzPathTemplate.isEncoded(path, allowing: "-._~:@!$&'()*+,;=/"), "dynamic-url: \(shown) path \(url.encodedPath) not encoded")
        if let query = url.encodedQuery {
            fuzzCheck(!query.isEmpty, "dynamic-url: \(shown) gives an empty query instead of none")
            fuzzCheck(
                FuzzPathTemplate.isEncoded(Array(query.utf8), allowing: "-._~:@!$&'()*+,;=/?"),
                "dynamic-url: \(shown) query \(query) not encoded")
        }
        if let segment = dotSegment(path) {
            fuzzFail(
                "dynamic-url: \(shown) accepted with path \(url.encodedPath.debugDescription), whose segment \(fuzzShow(segment)) "
                    + "decodes to a dot segment")
        }
        let tail = url.encodedQuery.map { "?" + $0 } ?? ""
        guard let schemeAndAuthority = url.schemeAndAuthority else {
            if let joined = URL(string: base + url.encodedPath + tail) {
                fuzzCheck(
                    joined.host == "api.example.com", "dynamic-url: path \(shown) joined to \(base) goes to host \(joined.host ?? "nil")")
            }
            return
        }
        let parts = schemeAndAuthority.components(separatedBy: "://")
        fuzzCheck(
            parts.count == 2 && (parts[0] == "http" || parts[0] == "https"),
            "dynamic-url: \(shown) scheme and authority \(schemeAndAuthority)")
        let authority = parts.count == 2 ? parts[1] : ""
        fuzzCheck(
            !authority.isEmpty && !authority.utf8.contains { "@/?#\\ %".utf8.contains($0) || $0 < 0x21 || $0 >= 0x7F },
            "dynamic-url: \(shown) authority \(authority.debugDescription)")
        // RequestBuilder refuses a value Foundation cannot read; one it reads must name the host RetroSwift checked.
        guard let sent = URL(string: schemeAndAuthority + url.encodedPath + tail) else { return }
        let (host, port) = split(authority)
        fuzzCheck(sent.scheme?.lowercased() == parts[0], "dynamic-url: \(shown) Foundation reads scheme \(sent.scheme ?? "nil")")
        fuzzCheck(
            unbracketed(sent.host ?? "").lowercased() == unbracketed(host).lowercased(),
            "dynamic-url: \(shown) checked host \(host.debugDescription), Foundation reads \(sent.host.debugDescription)")
        fuzzCheck(
            sent.port == port, "dynamic-url: \(shown) checked port \(port.debugDescription), Foundation reads \(sent.port.debugDescription)"
        )
    }

    /// The first segment that is `.` or `..` once decoded, or nil.
    static func dotSegment(_ path: [UInt8]) -> ArraySlice<UInt8>? {
        for segment in path.split(separator: UInt8(ascii: "/"), omittingEmptySubsequences: false) {
            let decoded = percentDecoded(segment)
            for piece in decoded.split(
                omittingEmptySubsequences: false, whereSeparator: { $0 == UInt8(ascii: "/") || $0 == UInt8(ascii: "\\") })
            {
                let name = piece.prefix { $0 != UInt8(ascii: ";") }
                if name.elementsEqual([UInt8(ascii: ".")]) || name.elementsEqual([UInt8(ascii: "."), UInt8(ascii: ".")]) { return segment }
            }
        }
        return nil
    }

    static func percentDecoded(_ bytes: ArraySlice<UInt8>) -> [UInt8] {
        var result: [UInt8] = []
        var index = bytes.startIndex
        while index < bytes.endIndex {
            if bytes[index] == UInt8(ascii: "%"), index + 2 < bytes.endIndex, FuzzPathTemplate.isHex(bytes[index + 1]),
                FuzzPathTemplate.isHex(bytes[index + 2])
            {
                result.append(hexValue(bytes[index + 1]) << 4 | hexValue(bytes[index + 2]))
                index += 3
            } else {
                result.append(bytes[index])
                index += 1
            }
        }
        return result
    }

    private static func hexValue(_ byte: UInt8) -> UInt8 {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        default: byte - UInt8(ascii: "A") + 10
        }
    }

    /// `host[:port]` or `[v6]:port`; the port nil when absent.
    private static func split(_ authority: String) -> (host: String, port: Int?) {
        let utf8 = Array(authority.utf8)
        let hostEnd = utf8.first == UInt8(ascii: "[") ? (utf8.firstIndex(of: UInt8(ascii: "]")).map { $0 + 1 } ?? utf8.count) : 0
        guard let colon = utf8[hostEnd...].lastIndex(of: UInt8(ascii: ":")) else { return (authority, nil) }
        let port = String(decoding: utf8[(colon + 1)...], as: UTF8.self)
        return (String(decoding: utf8[..<colon], as: UTF8.self), port.isEmpty ? nil : Int(port))
    }

    private static func unbracketed(_ host: String) -> String {
        host.hasPrefix("[") && host.hasSuffix("]") ? String(host.dropFirst().dropLast()) : host
    }
}
