/// Percent-encoding per RFC 3986 §2.1, with one allowed set per URL component.
enum PercentEncoding {
    /// Characters left as they are; everything else becomes `%XX` of its UTF-8 bytes.
    struct AllowedSet: Sendable {
        private let table: [Bool]

        init(_ characters: String) {
            var table = [Bool](repeating: false, count: 128)
            for byte in "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789".utf8 { table[Int(byte)] = true }
            for byte in characters.utf8 { table[Int(byte)] = true }
            self.table = table
        }

        func contains(_ byte: UInt8) -> Bool {
            byte < 128 && table[Int(byte)]
        }
    }

    /// One path segment: unreserved plus `:@!$'()*,`. `/`, `?`, `#`, `%` and space are encoded. `;`, `=`, `&`
    /// and `+` are legal in a segment but encoded too, because servers read them as matrix or form syntax.
    static let pathSegment = AllowedSet("-._~:@!$'()*,")

    /// One query name or value: unreserved plus `/?:@!$'()*,`. `&`, `=`, `+`, `;`, `#` and space are encoded so
    /// the value cannot split or end the query.
    static let queryComponent = AllowedSet("-._~/?:@!$'()*,")

    /// `application/x-www-form-urlencoded` (WHATWG URL §5.2): only `*-._` stay, space becomes `+`.
    static let formComponent = AllowedSet("*-._")

    private static let hex = Array("0123456789ABCDEF".utf8)

    static func encode(_ string: String, allowing allowed: AllowedSet, spaceAsPlus: Bool = false) -> String {
        let utf8 = string.utf8
        if utf8.allSatisfy(allowed.contains) { return string }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(utf8.count * 3)
        for byte in utf8 {
            if allowed.contains(byte) {
                bytes.append(byte)
            } else if spaceAsPlus && byte == UInt8(ascii: " ") {
                bytes.append(UInt8(ascii: "+"))
            } else {
                bytes.append(UInt8(ascii: "%"))
                bytes.append(hex[Int(byte >> 4)])
                bytes.append(hex[Int(byte & 0x0F)])
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// A path of segments joined by `/` (RFC 3986 `path-abempty`), for `@Url` values: `pchar` and `/`.
    static let path = AllowedSet("-._~:@!$&'()*+,;=/")

    /// A whole query as written in a URL (RFC 3986 `query`), for `@Url` values: `pchar`, `/` and `?`.
    static let query = AllowedSet("-._~:@!$&'()*+,;=/?")

    /// `string` with every byte outside `allowed` percent-encoded, except a `%` that starts a well-formed `%XX`,
    /// which is kept: for values that are already URLs, partly encoded or not (a lone `%` becomes `%25`).
    static func encodeKeepingEscapes(_ string: String, allowing allowed: AllowedSet) -> String {
        if isValidEncoded(string, allowing: allowed) { return string }
        let utf8 = Array(string.utf8)
        var bytes: [UInt8] = []
        bytes.reserveCapacity(utf8.count * 3)
        for (index, byte) in utf8.enumerated() {
            let escape =
                byte == UInt8(ascii: "%") && index + 2 < utf8.count && isHex(utf8[index + 1]) && isHex(utf8[index + 2])
            if allowed.contains(byte) || escape {
                bytes.append(byte)
            } else {
                bytes.append(UInt8(ascii: "%"))
                bytes.append(hex[Int(byte >> 4)])
                bytes.append(hex[Int(byte & 0x0F)])
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// The bytes `string` stands for, each well-formed `%XX` decoded and everything else kept as it is; unlike
    /// `removingPercentEncoding`, escapes that are not UTF-8 decode too, so nothing stays hidden behind them.
    static func decodedBytes(_ string: String) -> [UInt8] {
        let utf8 = Array(string.utf8)
        var bytes: [UInt8] = []
        bytes.reserveCapacity(utf8.count)
        var index = 0
        while index < utf8.count {
            if utf8[index] == UInt8(ascii: "%"), index + 2 < utf8.count, let high = hexValue(utf8[index + 1]),
                let low = hexValue(utf8[index + 2])
            {
                bytes.append(high << 4 | low)
                index += 3
            } else {
                bytes.append(utf8[index])
                index += 1
            }
        }
        return bytes
    }

    /// `string` percent-decoded when the bytes it stands for are UTF-8, else `string` as it is: the rule for decoded
    /// query names and values. Unlike `removingPercentEncoding`, it keeps a leading U+FEFF, which is content here.
    static func decodedText(_ string: String) -> String {
        let bytes = decodedBytes(string)
        let text = String(decoding: bytes, as: UTF8.self)
        return text.utf8.elementsEqual(bytes) ? text : string
    }

    private static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
        default: nil
        }
    }

    /// Whether `string` is already valid for a component: only `allowed` characters and well-formed `%XX`.
    static func isValidEncoded(_ string: String, allowing allowed: AllowedSet) -> Bool {
        var bytes = string.utf8.makeIterator()
        while let byte = bytes.next() {
            if byte == UInt8(ascii: "%") {
                guard let first = bytes.next(), let second = bytes.next(), isHex(first), isHex(second) else { return false }
            } else if !allowed.contains(byte) {
                return false
            }
        }
        return true
    }

    private static func isHex(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "a")...UInt8(ascii: "f"), UInt8(ascii: "A")...UInt8(ascii: "F"):
            return true
        default:
            return false
        }
    }
}
