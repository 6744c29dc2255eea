/// The one rule for header field names: they compare case-insensitively (RFC 9110 §5.1). Names are ASCII tokens,
/// so comparing needs no `lowercased()` copies; ``key(_:)`` is the form sets and dictionaries of names hold.
package enum HeaderName {
    /// Whether two field names are the same name.
    package static func matches(_ lhs: String, _ rhs: String) -> Bool {
        guard lhs.utf8.count == rhs.utf8.count else { return false }
        // Names are compared on every call, against every field of a response: on the strings' bytes where they lie,
        // since walking two `UTF8View`s in step cost about 40 instructions a byte (callgrind).
        return UTF8Bytes.equalIgnoringASCIICase(lhs, rhs)
    }

    /// The name in lowercase, for sets and dictionary keys of names.
    package static func key(_ name: String) -> String {
        name.lowercased()
    }
}
