/// What may appear in a header field (RFC 9110 §5.1, §5.5).
enum HeaderRules {
    /// Why `name` is not a valid field name (a `token`), or `nil` when it is.
    static func problem(inName name: String) -> String? {
        if name.isEmpty { return "header name is empty" }
        if let byte = UTF8Bytes.first(in: name, where: { !isTokenCharacter($0) }) {
            return "header name contains \(describe(byte)), which is not allowed in a field name"
        }
        if let role = connectionFields[HeaderName.key(name)] {
            return "'\(name)' \(role); it cannot be set by a request, a shared header or an interceptor"
        }
        return nil
    }

    /// Fields that frame the message or manage the connection (RFC 9110 §7.6.1, RFC 9112 §6 and §9), by lowercased
    /// name, with what decides them. Set by hand they would contradict the body actually sent (a `Content-Length` on
    /// a GET leaves the server waiting for bytes that never come) or the connection the transport manages, and each
    /// transport would resolve the conflict its own way; so they are refused wherever a header can be set.
    private static let connectionFields: [String: String] = [
        "content-length": "frames the body and is set from the body actually sent",
        "transfer-encoding": "frames the body and is set by the transport",
        "te": "negotiates transfer codings, which the transport manages",
        "trailer": "announces trailer fields, which RetroSwift does not send",
        "host": "is set from the URL",
        "connection": "manages the connection, which the transport owns",
        "keep-alive": "manages the connection, which the transport owns",
        "proxy-connection": "manages the connection, which the transport owns",
        "upgrade": "switches protocols, which RetroSwift does not support",
    ]

    /// Why `value` cannot be sent safely, or `nil` when it can. CR and LF would split the header
    /// (header injection); NUL and other controls are rejected by servers or truncate the value.
    static func problem(inValue value: String) -> String? {
        if let byte = UTF8Bytes.first(in: value, where: { ($0 < 0x20 && $0 != 0x09) || $0 == 0x7F }) {
            return "header value contains \(describe(byte)); CR, LF and other control characters are not allowed "
                + "(they would allow header injection)"
        }
        // RFC 9110 §5.5: whitespace around a value is not part of it, so servers strip it and would read another value.
        if let edge = [value.utf8.first, value.utf8.last].compactMap({ $0 }).first(where: { $0 == 0x20 || $0 == 0x09 }) {
            return "header value \(value.utf8.first == edge ? "starts" : "ends") with \(edge == 0x20 ? "a space" : "a tab"), which "
                + "servers strip (RFC 9110 §5.5), so they would read another value; trim it"
        }
        return nil
    }

    /// Whether `byte` may appear in an RFC 9110 token (field names, method names).
    static func isTokenCharacter(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
            UInt8(ascii: "0")...UInt8(ascii: "9"):
            return true
        // RFC 9110 §5.6.2's other token characters, spelled out rather than searched for in a string of them.
        case UInt8(ascii: "!"), UInt8(ascii: "#"), UInt8(ascii: "$"), UInt8(ascii: "%"), UInt8(ascii: "&"), UInt8(ascii: "'"),
            UInt8(ascii: "*"), UInt8(ascii: "+"), UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "^"), UInt8(ascii: "_"),
            UInt8(ascii: "`"), UInt8(ascii: "|"), UInt8(ascii: "~"):
            return true
        default:
            return false
        }
    }

    /// `byte` as a message names it.
    static func describe(_ byte: UInt8) -> String {
        switch byte {
        case 0x0D: return "a carriage return (CR)"
        case 0x0A: return "a line feed (LF)"
        case 0x00: return "a NUL byte"
        case 0x20...0x7E: return "'\(Character(Unicode.Scalar(byte)))'"
        default: return "byte 0x" + String(byte, radix: 16, uppercase: true)
        }
    }
}
