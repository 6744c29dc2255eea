// Target for the path-template parser (`PathTemplate.parse`, Sources/RetroSwift/Building/PathTemplate.swift).
//
// Invariants, for any template:
// - the parse ends and either succeeds or names at least one problem;
// - on success: the template starts with '/' and has no '#'; its pieces, written back (`{name}` for placeholders),
//   are exactly its path; the placeholders are the distinct placeholder pieces in order, each a non-empty name of
//   letters, digits, '_', '-', '.', and each `{name}` occurs in the template; literals hold no brace and only
//   characters a path may hold (or %XX); the static query is the part after the first '?', without braces, and
//   valid as a query; its items decode without loss of count.

import Foundation

enum FuzzPathTemplate {
    static func run(_ bytes: [UInt8]) {
        let template = String(decoding: bytes, as: UTF8.self)
        let parsed: PathTemplate
        switch PathTemplate.parse(template) {
        case .failure(let problems):
            fuzzCheck(!problems.items.isEmpty, "path-template: \(template.debugDescription) failed with no problem named")
            return
        case .success(let success):
            parsed = success
        }
        let shown = template.debugDescription
        let utf8 = Array(template.utf8)
        fuzzCheck(utf8.first == UInt8(ascii: "/"), "path-template: \(shown) accepted without a leading '/'")
        fuzzCheck(!utf8.contains(UInt8(ascii: "#")), "path-template: \(shown) accepted with a fragment")

        let questionMark = utf8.firstIndex(of: UInt8(ascii: "?"))
        let path = Array(utf8[..<(questionMark ?? utf8.endIndex)])
        let query = questionMark.map { Array(utf8[($0 + 1)...]) }

        var written: [UInt8] = []
        var placeholders: [String] = []
        for piece in parsed.pieces {
            switch piece {
            case .literal(let text):
                let literal = Array(text.utf8)
                fuzzCheck(!literal.isEmpty, "path-template: \(shown) has an empty literal piece")
                fuzzCheck(
                    !literal.contains(UInt8(ascii: "{")) && !literal.contains(UInt8(ascii: "}")),
                    "path-template: \(shown) has a brace in literal \(text.debugDescription)")
                fuzzCheck(
                    isEncoded(literal, allowing: "-._~:@!$'()*,;=&+/"),
                    "path-template: \(shown) literal \(text.debugDescription) needs encoding")
                written += literal
            case .placeholder(let name):
                fuzzCheck(
                    !name.isEmpty && name.utf8.allSatisfy { isAlphanumeric($0) || "_-.".utf8.contains($0) },
                    "path-template: \(shown) accepted placeholder \(name.debugDescription)")
                written += Array("{\(name)}".utf8)
                if !placeholders.contains(name) { placeholders.append(name) }
            }
        }
        fuzzCheck(written == path, "path-template: \(shown) pieces write back as \(fuzzShow(written)), not its path \(fuzzShow(path))")
        fuzzCheck(
            parsed.placeholders == placeholders, "path-template: \(shown) placeholders \(parsed.placeholders), pieces say \(placeholders)")
        for name in parsed.placeholders {
            fuzzCheck(template.contains("{\(name)}"), "path-template: placeholder \(name) not in \(shown)")
        }

        let expectedQuery = query.flatMap { $0.isEmpty ? nil : String(decoding: $0, as: UTF8.self) }
        fuzzCheck(parsed.staticQuery == expectedQuery, "path-template: \(shown) static query \(parsed.staticQuery.debugDescription)")
        if let query, !query.isEmpty {
            fuzzCheck(!query.contains(UInt8(ascii: "{")) && !query.contains(UInt8(ascii: "}")), "path-template: \(shown) brace in query")
            fuzzCheck(isEncoded(query, allowing: "-._~/?:@!$'()*,;=&+"), "path-template: \(shown) query needs encoding")
            let pairs = query.split(separator: UInt8(ascii: "&")).count
            fuzzCheck(
                parsed.staticQueryItems.count == pairs,
                "path-template: \(shown) has \(pairs) query pairs, \(parsed.staticQueryItems.count) items")
        } else {
            fuzzCheck(parsed.staticQueryItems.isEmpty, "path-template: \(shown) has query items without a query")
        }
    }

    static func isAlphanumeric(_ byte: UInt8) -> Bool {
        (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte) || (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte)
            || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte)
    }

    /// Whether `bytes` holds only letters, digits, `allowed` and well-formed `%XX`.
    static func isEncoded(_ bytes: [UInt8], allowing allowed: String) -> Bool {
        var index = 0
        while index < bytes.count {
            let byte = bytes[index]
            if byte == UInt8(ascii: "%") {
                guard index + 2 < bytes.count, isHex(bytes[index + 1]), isHex(bytes[index + 2]) else { return false }
                index += 3
            } else {
                guard isAlphanumeric(byte) || allowed.utf8.contains(byte) else { return false }
                index += 1
            }
        }
        return true
    }

    static func isHex(_ byte: UInt8) -> Bool {
        (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) || (UInt8(ascii: "a")...UInt8(ascii: "f")).contains(byte)
            || (UInt8(ascii: "A")...UInt8(ascii: "F")).contains(byte)
    }
}
