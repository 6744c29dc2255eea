import Foundation

/// A parsed path template such as `/api/v1/schedule/{schedule_id}?sort=desc`.
struct PathTemplate: Sendable {
    enum Piece: Sendable {
        case literal(String)
        case placeholder(String)
    }

    struct Problem {
        let problem: String
        let fix: String
    }

    let pieces: [Piece]
    /// Placeholder names in order of first appearance.
    let placeholders: [String]
    /// The template's own query, already encoded, without `?`.
    let staticQuery: String?
    let staticQueryItems: [HTTPQueryItem]

    private static let literalPath = PercentEncoding.AllowedSet("-._~:@!$'()*,;=&+/")
    private static let literalQuery = PercentEncoding.AllowedSet("-._~/?:@!$'()*,;=&+")
    private static let placeholderName = PercentEncoding.AllowedSet("_-.")

    /// Parses `template`, or explains every way it is malformed.
    static func parse(_ template: String) -> Result<PathTemplate, ProblemList> {
        var problems: [Problem] = []
        guard template.hasPrefix("/") else {
            return .failure(
                ProblemList(items: [
                    Problem(
                        problem: "path template '\(template)' does not start with '/'",
                        fix: "write the path relative to the base URL, starting with '/', for example '/\(template)'"
                    )
                ]))
        }
        // Bytes, not Foundation's substring search, which a string literal here would pick: this runs once per endpoint,
        // on its first call.
        if template.utf8.contains(UInt8(ascii: "#")) {
            problems.append(
                Problem(
                    problem: "path template '\(template)' contains a fragment ('#')",
                    fix: "remove it; fragments are never sent to the server"
                ))
        }
        let parts = template.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false)
        let path = String(parts[0])
        let query = parts.count > 1 ? String(parts[1]) : nil
        let (pieces, pathProblems) = parsePath(path, template: template)
        problems += pathProblems
        if let query {
            if query.utf8.contains(where: { $0 == UInt8(ascii: "{") || $0 == UInt8(ascii: "}") }) {
                problems.append(
                    Problem(
                        problem: "path template '\(template)' has a placeholder in its query",
                        fix: "remove it from the template and declare a @Query field instead"
                    ))
            } else if !PercentEncoding.isValidEncoded(query.replacingOccurrences(of: "#", with: ""), allowing: literalQuery) {
                problems.append(
                    Problem(
                        problem: "the query '\(query)' of path template '\(template)' has characters that must be percent-encoded",
                        fix: "percent-encode them in the template, or declare @Query fields instead"
                    ))
            }
        }
        guard problems.isEmpty else { return .failure(ProblemList(items: problems)) }
        var names: [String] = []
        for case .placeholder(let name) in pieces where !names.contains(name) { names.append(name) }
        let staticQuery = query.flatMap { $0.isEmpty ? nil : $0 }
        return .success(
            PathTemplate(
                pieces: pieces, placeholders: names, staticQuery: staticQuery,
                staticQueryItems: staticQuery.map(decodedItems) ?? []
            ))
    }

    struct ProblemList: Error {
        let items: [Problem]
    }

    private static func parsePath(_ path: String, template: String) -> ([Piece], [Problem]) {
        var pieces: [Piece] = []
        var problems: [Problem] = []
        // Scanned as UTF-8 bytes: the braces are ASCII, so the text between them slices at valid boundaries, and no
        // Character is built (an endpoint's first call parses its template).
        let utf8 = path.utf8
        var start = utf8.startIndex
        var inPlaceholder = false
        var index = utf8.startIndex
        while index != utf8.endIndex {
            switch (utf8[index], inPlaceholder) {
            case (UInt8(ascii: "{"), false):
                if start != index { pieces.append(.literal(String(path[start..<index]))) }
                inPlaceholder = true
                start = utf8.index(after: index)
            case (UInt8(ascii: "}"), true):
                let name = String(path[start..<index])
                if let problem = nameProblem(name, template: template) { problems.append(problem) }
                pieces.append(.placeholder(name))
                inPlaceholder = false
                start = utf8.index(after: index)
            case (UInt8(ascii: "{"), true), (UInt8(ascii: "}"), false):
                return (pieces, [unbalanced(template)])
            default:
                break
            }
            index = utf8.index(after: index)
        }
        if inPlaceholder { return (pieces, [unbalanced(template)]) }
        if start != utf8.endIndex { pieces.append(.literal(String(path[start...]))) }
        for case .literal(let text) in pieces where !PercentEncoding.isValidEncoded(text, allowing: literalPath) {
            problems.append(
                Problem(
                    problem: "path template '\(template)' has characters that must be percent-encoded in '\(text)'",
                    fix: "percent-encode them in the template, or pass the value through a @Path field"
                ))
        }
        return (pieces, problems)
    }

    private static func nameProblem(_ name: String, template: String) -> Problem? {
        guard name.isEmpty || !name.utf8.allSatisfy(placeholderName.contains) else { return nil }
        return Problem(
            problem: "path template '\(template)' has an invalid placeholder '{\(name)}'",
            fix: "name placeholders with letters, digits, '_', '-' or '.', for example '{schedule_id}'"
        )
    }

    private static func unbalanced(_ template: String) -> Problem {
        Problem(
            problem: "path template '\(template)' has unbalanced braces",
            fix: "write each placeholder as '{name}', with no braces inside it"
        )
    }

    /// The items of an encoded query, decoded.
    static func decodedItems(_ query: String) -> [HTTPQueryItem] {
        query.split(separator: "&").map { pair in
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            let decode = { (text: Substring) in PercentEncoding.decodedText(String(text)) }
            return HTTPQueryItem(name: decode(parts[0]), value: parts.count > 1 ? decode(parts[1]) : "")
        }
    }
}
