/// Reads an RFC 8288 `Link` header: `<https://api.example/items?page=2>; rel="next", </items?page=9>; rel=last`.
///
/// The header comes from the server, so the parser takes any bytes: it never traps, commas and semicolons inside
/// quoted strings do not split, and a malformed link-value ends the parse with the links read so far.
enum LinkHeader {
    struct Link: Equatable {
        let target: String
        /// Parameter names lowercased, values unquoted.
        let parameters: [(name: String, value: String)]

        static func == (lhs: Link, rhs: Link) -> Bool {
            lhs.target == rhs.target && lhs.parameters.elementsEqual(rhs.parameters) { $0 == $1 }
        }

        /// The relation types, `rel="next last"` holding two (compared case-insensitively, RFC 8288 §2.1.1).
        var relations: [String] {
            parameters.first { $0.name == "rel" }?.value.lowercased().split(separator: " ").map(String.init) ?? []
        }
    }

    /// The target of the first link whose relation types include `relation`.
    static func target(of header: String, relation: String) -> String? {
        links(in: header).first { $0.relations.contains(relation.lowercased()) }?.target
    }

    static func links(in header: String) -> [Link] {
        var reader = Reader(bytes: Array(header.utf8))
        var links: [Link] = []
        while true {
            reader.skip { $0 == UInt8(ascii: " ") || $0 == UInt8(ascii: "\t") || $0 == UInt8(ascii: ",") }
            guard reader.consume(UInt8(ascii: "<")), let target = reader.take(until: UInt8(ascii: ">")) else { return links }
            var parameters: [(name: String, value: String)] = []
            while true {
                reader.skipWhitespace()
                guard reader.consume(UInt8(ascii: ";")) else { break }
                reader.skipWhitespace()
                let name = reader.token().lowercased()
                reader.skipWhitespace()
                var value = ""
                if reader.consume(UInt8(ascii: "=")) {
                    reader.skipWhitespace()
                    value = reader.quotedString() ?? reader.token()
                }
                // RFC 8288 §3: only the first occurrence of a parameter counts.
                if !name.isEmpty, !parameters.contains(where: { $0.name == name }) { parameters.append((name, value)) }
            }
            links.append(Link(target: target, parameters: parameters))
            reader.skipWhitespace()
            // Anything but a comma or the end here is malformed: stop with what was read.
            guard reader.isAtEnd || reader.consume(UInt8(ascii: ",")) else { return links }
        }
    }

    private struct Reader {
        let bytes: [UInt8]
        var index = 0

        var isAtEnd: Bool { index >= bytes.count }

        mutating func skip(while predicate: (UInt8) -> Bool) {
            while index < bytes.count, predicate(bytes[index]) { index += 1 }
        }

        mutating func skipWhitespace() {
            skip { $0 == UInt8(ascii: " ") || $0 == UInt8(ascii: "\t") }
        }

        mutating func consume(_ byte: UInt8) -> Bool {
            guard index < bytes.count, bytes[index] == byte else { return false }
            index += 1
            return true
        }

        /// The bytes up to `terminator`, which is consumed; `nil` when it never comes.
        mutating func take(until terminator: UInt8) -> String? {
            guard let end = bytes[index...].firstIndex(of: terminator) else { return nil }
            defer { index = end + 1 }
            return String(decoding: bytes[index..<end], as: UTF8.self)
        }

        /// An RFC 9110 token (possibly empty).
        mutating func token() -> String {
            let start = index
            skip { HeaderRules.isTokenCharacter($0) }
            return String(decoding: bytes[start..<index], as: UTF8.self)
        }

        /// A quoted string with its backslash escapes resolved, or `nil` when there is none here (or it never ends).
        mutating func quotedString() -> String? {
            guard index < bytes.count, bytes[index] == UInt8(ascii: "\"") else { return nil }
            var value: [UInt8] = []
            var position = index + 1
            while position < bytes.count {
                switch bytes[position] {
                case UInt8(ascii: "\""):
                    index = position + 1
                    return String(decoding: value, as: UTF8.self)
                case UInt8(ascii: "\\") where position + 1 < bytes.count:
                    value.append(bytes[position + 1])
                    position += 2
                default:
                    value.append(bytes[position])
                    position += 1
                }
            }
            return nil
        }
    }
}
