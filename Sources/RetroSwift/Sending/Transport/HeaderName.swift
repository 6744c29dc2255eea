/// The one rule for header field names: they compare case-insensitively (RFC 9110 §5.1). Names are ASCII tokens,
/// so comparing needs no `lowercased()` copies; ``key(_:)`` is the form sets and dictionaries of names hold.
package enum HeaderName {
    /// Whether two field names are the same name.
    package static func matches(_ lhs: String, _ rhs: String) -> Bool {
        let lhs = lhs.utf8
        let rhs = rhs.utf8
        guard lhs.count == rhs.count else { return false }
        return zip(lhs, rhs).allSatisfy { asciiLower($0) == asciiLower($1) }
    }

    /// The name in lowercase, for sets and dictionary keys of names.
    package static func key(_ name: String) -> String {
        name.lowercased()
    }

    private static func asciiLower(_ byte: UInt8) -> UInt8 {
        byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z") ? byte + 32 : byte
    }
}
