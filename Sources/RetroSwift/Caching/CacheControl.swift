import Foundation

/// The directives of a `Cache-Control` field (RFC 9111 §5.2), read from a request or a response.
///
/// Names compare case-insensitively; a value may be a token or a quoted string (which may hold commas). A
/// delta-seconds value that is not a number, or that repeats with another value, counts as `0` — the response is
/// stale — rather than as the larger one, as §1.2.2 and §4.2.1 ask of a cache that cannot tell which was meant.
struct CacheControl: Sendable, Equatable {
    var noStore = false
    var noCache = false
    var isPrivate = false
    var isPublic = false
    var mustRevalidate = false
    var onlyIfCached = false
    var maxAge: Int?
    var minFresh: Int?
    /// `max-stale` without a value accepts any staleness: `Int.max`.
    var maxStale: Int?
    var staleWhileRevalidate: Int?

    /// The largest delta-seconds value a cache must represent (RFC 9111 §1.2.2); larger ones are read as this.
    static let deltaSecondsCap = 2_147_483_648

    /// Parses every `Cache-Control` field of a message, already combined with `, `.
    init(_ value: String?) {
        guard let value, !value.isEmpty else { return }
        var seen: [String: Int] = [:]
        for (name, argument) in Self.directives(in: value) {
            switch name {
            case "no-store": noStore = true
            case "no-cache": noCache = true
            case "private": isPrivate = true
            case "public": isPublic = true
            case "must-revalidate", "proxy-revalidate": mustRevalidate = true
            case "only-if-cached": onlyIfCached = true
            case "max-age", "min-fresh", "max-stale", "stale-while-revalidate":
                let seconds: Int
                if name == "max-stale", argument == nil {
                    seconds = Int.max
                } else {
                    seconds = argument.flatMap(Self.deltaSeconds) ?? 0
                }
                // The same directive twice with different values: which one the sender meant is unknowable.
                let settled = seen[name].map { $0 == seconds ? seconds : 0 } ?? seconds
                seen[name] = settled
                switch name {
                case "max-age": maxAge = settled
                case "min-fresh": minFresh = settled
                case "max-stale": maxStale = settled
                default: staleWhileRevalidate = settled
                }
            default: continue
            }
        }
    }

    /// A directive's `delta-seconds`: digits only, capped at ``deltaSecondsCap``.
    private static func deltaSeconds(_ text: Substring) -> Int? {
        guard !text.isEmpty, text.utf8.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }) else { return nil }
        // Digits past the tenth can only make it larger than the cap.
        return text.utf8.count > 10 ? deltaSecondsCap : min(Int(text) ?? deltaSecondsCap, deltaSecondsCap)
    }

    /// Each `name[=value]` of a list, names lowercased, quoted values without their quotes and escapes; linear in the
    /// length of the field, however hostile.
    static func directives(in value: String) -> [(name: String, argument: Substring?)] {
        var result: [(String, Substring?)] = []
        var rest = Substring(value)
        while !rest.isEmpty {
            rest = rest.drop { $0 == " " || $0 == "\t" || $0 == "," }
            guard !rest.isEmpty else { break }
            let nameEnd = rest.firstIndex { $0 == "=" || $0 == "," } ?? rest.endIndex
            let name = rest[..<nameEnd].trimmingCharacters(in: .whitespaces).lowercased()
            rest = rest[nameEnd...]
            var argument: Substring?
            if rest.first == "=" {
                rest = rest.dropFirst().drop { $0 == " " || $0 == "\t" }
                if rest.first == "\"" {
                    var unquoted = ""
                    var index = rest.index(after: rest.startIndex)
                    while index < rest.endIndex, rest[index] != "\"" {
                        if rest[index] == "\\" { index = rest.index(after: index) }
                        if index < rest.endIndex { unquoted.append(rest[index]) }
                        if index < rest.endIndex { index = rest.index(after: index) }
                    }
                    argument = Substring(unquoted)
                    rest = index < rest.endIndex ? rest[rest.index(after: index)...] : rest[rest.endIndex...]
                    // Anything between the closing quote and the next comma is not part of the directive.
                    rest = rest[(rest.firstIndex(of: ",") ?? rest.endIndex)...]
                } else {
                    let end = rest.firstIndex(of: ",") ?? rest.endIndex
                    argument = Substring(rest[..<end].trimmingCharacters(in: .whitespaces))
                    rest = rest[end...]
                }
            }
            if !name.isEmpty { result.append((name, argument)) }
        }
        return result
    }
}
