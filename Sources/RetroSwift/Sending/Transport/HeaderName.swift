/// The one rule for header field names: they compare case-insensitively (RFC 9110 §5.1). Names are ASCII tokens,
/// so comparing needs no `lowercased()` copies; ``key(_:)`` is the form sets and dictionaries of names hold.
package enum HeaderName {
    /// Whether two field names are the same name.
    package static func matches(_ lhs: String, _ rhs: String) -> Bool {
        guard lhs.utf8.count == rhs.utf8.count else { return false }
        // Names are compared on every call, against every field of a response: on the strings' bytes where they lie,
        // since walking two `UTF8View`s in step cost about 40 instructions a byte (callgrind).
        if let equal = UTF8Bytes.equalIgnoringASCIICase(lhs, rhs) { return equal }
        return zip(lhs.utf8, rhs.utf8).allSatisfy { asciiLower($0) == asciiLower($1) }
    }

    /// The name in lowercase, for sets and dictionary keys of names.
    package static func key(_ name: String) -> String {
        name.lowercased()
    }

    private static func asciiLower(_ byte: UInt8) -> UInt8 {
        byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z") ? byte + 32 : byte
    }
}
