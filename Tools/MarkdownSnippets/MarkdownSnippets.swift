// Turns the Swift code blocks of one Markdown file (README.md or a DocC article) into one Swift file, so that the
// package's documentation-snippet test targets compile exactly what the Markdown shows. Run by the
// `MarkdownSnippets` build-tool plugin; CONTRIBUTING.md documents the markers.
//
//   MarkdownSnippetsTool <markdown file> <display path> <output directory> <base name> [--gated-module Module=Trait ...]
//       [--trait T]
// writes <base name>.swift, and <base name>_<Name>.swift for each `file <Name>` marker.
//
// Each block is placed at the top level of the generated file, where a user would paste it. Its top-level
// declarations are made `fileprivate`, so two documents (or a document and a test) may both declare, say,
// `SchedulesApi`. A `#sourceLocation` directive points every line back at the Markdown, so a block that does not
// compile fails the build naming the Markdown file and line.
//
// A block is a fragment when an HTML comment on the line just above its fence says so:
//   <!-- snippet: main -->       the block is a `main.swift`: its declarations stay at the top level and its
//                                statements run in a main-actor `async throws` function, in order
//   <!-- snippet: body -->       the block's lines are the body of an `async throws` function
//   <!-- snippet: continues -->  the block continues the previous `body` block (same function, same locals)
//   <!-- snippet: variant -->    the block declares again names of an earlier block; it gets its own namespace
//   <!-- snippet: file Name -->  this block and the ones after it, up to the next `file` marker, compile in a file
//                                of their own, so they may declare again what the blocks before them declare
//   <!-- snippet: compile-only --> the block's declarations compile but its `@Test` functions do not run (a test
//                                that would run a whole suite against a server, say): the `@Test` attributes are
//                                left out
//   <!-- snippet: skip: why -->  the block is not compiled (a manifest fragment, say); the reason is required
// Any marker but skip may end with `, only <configuration>` or `, except <configuration>` (swift6,
// main-actor-default, nonsending, swift5) for code that a configuration needs written differently;
// `<!-- snippet: declarations, only ... -->` does that for a plain block.
// `@testable import` lines are left out: the generated file itself plays the app module a test imports.
import Foundation

struct Block {
    var firstLine: Int  // 1-based line of the first code line in the Markdown file
    var lines: [String]
    var marker: Marker
    /// A compilation condition from `only <configuration>` or `except <configuration>`, or nil.
    var condition: String?
}

/// The configurations a marker may name, and the condition each snippet target defines (Package.swift).
let configurations = [
    "swift6": "SNIPPETS_SWIFT6", "main-actor-default": "SNIPPETS_MAIN_ACTOR_DEFAULT", "nonsending": "SNIPPETS_NONSENDING",
    "swift5": "SNIPPETS_SWIFT5",
]

enum Marker: Equatable {
    case declarations
    case main
    case body
    case continues
    case variant
    case compileOnly
    case skip
    case file(String)
}

struct Failure: Error, CustomStringConvertible {
    var description: String
}

/// Reads `<!-- snippet: kind[, only|except configuration] -->`; nil when the line is no marker.
func marker(in line: String, at location: String) throws -> (Marker, String?)? {
    let trimmed = line.trimmingCharacters(in: .whitespaces)
    guard trimmed.hasPrefix("<!--"), trimmed.hasSuffix("-->") else { return nil }
    let inner = trimmed.dropFirst(4).dropLast(3).trimmingCharacters(in: .whitespaces)
    guard inner.hasPrefix("snippet:") else { return nil }
    let value = inner.dropFirst("snippet:".count).trimmingCharacters(in: .whitespaces)
    if value.hasPrefix("skip:") {
        guard !value.dropFirst("skip:".count).trimmingCharacters(in: .whitespaces).isEmpty else {
            throw Failure(description: "\(location): error: a 'skip:' marker needs a reason")
        }
        return (.skip, nil)
    }
    var parts = value.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
    var condition: String?
    if let last = parts.last, last.hasPrefix("only ") || last.hasPrefix("except ") {
        let words = last.split(separator: " ").map(String.init)
        guard words.count == 2, let define = configurations[words[1]] else {
            throw Failure(
                description:
                    "\(location): error: '\(last)' names no configuration; use \(configurations.keys.sorted().joined(separator: ", "))"
            )
        }
        condition = words[0] == "only" ? define : "!" + define
        parts.removeLast()
    }
    guard parts.count <= 1 else {
        throw Failure(description: "\(location): error: a snippet marker takes one kind, not '\(parts.joined(separator: ", "))'")
    }
    let kind = parts.first ?? ""
    switch kind {
    case "", "declarations": return (.declarations, condition)
    case "main": return (.main, condition)
    case "body": return (.body, condition)
    case "continues": return (.continues, condition)
    case "variant": return (.variant, condition)
    case "compile-only": return (.compileOnly, condition)
    case let kind where kind.hasPrefix("file "):
        let name = kind.dropFirst("file ".count).trimmingCharacters(in: .whitespaces)
        guard !name.isEmpty, name.allSatisfy({ $0.isLetter || $0.isNumber }) else {
            throw Failure(description: "\(location): error: a 'file' marker needs a name of letters and digits")
        }
        return (.file(name), condition)
    default:
        throw Failure(
            description:
                "\(location): error: unknown snippet marker '\(value)'; use main, body, continues, variant, file <Name>, declarations, compile-only or skip: <reason>, optionally followed by ', only <configuration>' or ', except <configuration>' (CONTRIBUTING.md)"
        )
    }
}

/// `line` without a leading `@Test` or `@Test(...)` attribute, so the function after it compiles but is not
/// collected as a test; an attribute alone on its line leaves an empty line, which keeps the line numbers right.
func withoutTestAttribute(_ line: String) -> String {
    guard line.hasPrefix("@Test") else { return line }
    var rest = line.dropFirst("@Test".count)
    if let first = rest.first, first.isLetter || first.isNumber || first == "_" { return line }
    if rest.first == "(" {
        var depth = 0
        var end = rest.startIndex
        for index in rest.indices {
            if rest[index] == "(" { depth += 1 }
            if rest[index] == ")" { depth -= 1 }
            if depth == 0 {
                end = rest.index(after: index)
                break
            }
        }
        guard depth == 0 else { return line }
        rest = rest[end...]
    }
    return String(rest.drop { $0 == " " })
}

func blocks(of markdown: String, displayPath: String) throws -> [Block] {
    let lines = markdown.components(separatedBy: "\n")
    var result: [Block] = []
    var index = 0
    while index < lines.count {
        let line = lines[index]
        let trimmed = line.trimmingCharacters(in: .whitespaces)
        guard trimmed == "```swift" else {
            index += 1
            continue
        }
        let indent = line.prefix { $0 == " " }.count
        var previous = index - 1
        while previous >= 0, lines[previous].trimmingCharacters(in: .whitespaces).isEmpty { previous -= 1 }
        let found = previous >= 0 ? try marker(in: lines[previous], at: "\(displayPath):\(previous + 1)") : nil
        var code: [String] = []
        var end = index + 1
        while end < lines.count, lines[end].trimmingCharacters(in: .whitespaces) != "```" {
            // Lines of a block inside a list item carry the item's indentation.
            let codeLine = lines[end]
            let leading = codeLine.prefix { $0 == " " }.count
            code.append(String(codeLine.dropFirst(min(indent, leading))))
            end += 1
        }
        guard end < lines.count else {
            throw Failure(description: "\(displayPath):\(index + 1): error: the Swift code block is never closed")
        }
        result.append(Block(firstLine: index + 2, lines: code, marker: found?.0 ?? .declarations, condition: found?.1))
        index = end + 1
    }
    return result
}

/// The line's nesting depth change — braces, parentheses and brackets — ignoring those in string literals and comments (the docs' code is plain enough
/// for this: no nested interpolations with braces).
func nestingDelta(_ line: String, inMultilineString: inout Bool) -> Int {
    var delta = 0
    var inString = false
    let characters = Array(line)
    var position = 0
    while position < characters.count {
        let character = characters[position]
        if inMultilineString {
            if line[line.index(line.startIndex, offsetBy: position)...].hasPrefix("\"\"\"") {
                inMultilineString = false
                position += 3
                continue
            }
        } else if inString {
            if character == "\\" {
                position += 2
                continue
            }
            if character == "\"" { inString = false }
        } else {
            let rest = line[line.index(line.startIndex, offsetBy: position)...]
            if rest.hasPrefix("//") { break }
            if rest.hasPrefix("\"\"\"") {
                inMultilineString = true
                position += 3
                continue
            }
            switch character {
            case "\"": inString = true
            case "{", "(", "[": delta += 1
            case "}", ")", "]": delta -= 1
            default: break
            }
        }
        position += 1
    }
    return delta
}

let accessModifiers: Set<String> = ["public", "open", "internal", "package", "private", "fileprivate"]
let declarationWords: Set<String> = [
    "struct", "class", "enum", "actor", "protocol", "func", "let", "var", "typealias", "extension", "final",
    "nonisolated", "indirect", "static", "macro",
]

/// Makes a top-level declaration `fileprivate`, after its attributes; an extension that declares conformances
/// cannot carry an access modifier and is left as it is.
func filePrivate(_ line: String) -> String {
    var words = line.split(separator: " ", omittingEmptySubsequences: false).map(String.init)
    var position = 0
    while position < words.count, words[position].hasPrefix("@") { position += 1 }
    guard position < words.count, declarationWords.contains(words[position]) || accessModifiers.contains(words[position])
    else { return line }
    if accessModifiers.contains(words[position]) {
        words[position] = "fileprivate"
        return words.joined(separator: " ")
    }
    if words[position] == "extension", line.contains(":") { return line }
    words.insert("fileprivate", at: position)
    return words.joined(separator: " ")
}

/// Declarations of a `main` block at the top level, its statements in one function, each run of lines pointing
/// back at its Markdown lines.
func mainFile(_ block: Block, function: String, displayPath: String, imports: inout [String]) -> [String] {
    var declarations: [String] = []
    var statements: [String] = []
    var depth = 0
    var inMultilineString = false
    var chunkIsDeclaration = false
    for (offset, text) in block.lines.enumerated() {
        // A line that closes or continues the one before (`)`, `]`, `}`, `.member`) belongs to its chunk.
        let continues =
            text.hasPrefix(" ") || text.hasPrefix(")") || text.hasPrefix("]") || text.hasPrefix("}")
            || text.hasPrefix(".")
        let startsChunk = depth == 0 && !inMultilineString && !continues
        if startsChunk {
            if text.hasPrefix("@testable import ") || text.trimmingCharacters(in: .whitespaces).isEmpty {
                continue
            }
            if importedModule(of: text) != nil {
                if !imports.contains(text) { imports.append(text) }
                continue
            }
            let firstWord = text.split(separator: " ").first { !$0.hasPrefix("@") }.map(String.init) ?? ""
            chunkIsDeclaration = text.hasPrefix("@") || (declarationWords.contains(firstWord) && firstWord != "let" && firstWord != "var")
            let location = "#sourceLocation(file: \"\(displayPath)\", line: \(block.firstLine + offset))"
            if chunkIsDeclaration { declarations.append(location) } else { statements.append(location) }
            if chunkIsDeclaration { declarations.append(filePrivate(text)) } else { statements.append(text) }
        } else if chunkIsDeclaration {
            declarations.append(text)
        } else {
            statements.append(text)
        }
        depth += nestingDelta(text, inMultilineString: &inMultilineString)
    }
    return declarations + ["#sourceLocation()", "@MainActor fileprivate func \(function)() async throws {"] + statements
        + ["#sourceLocation()", "}"]
}

/// The generated files of one Markdown file: the blocks before the first `file` marker, then one file per marker.
func generate(markdownPath: String, displayPath: String, _ settings: Traits) throws -> [(name: String?, source: String)] {
    let markdown = try String(contentsOfFile: markdownPath, encoding: .utf8)
    var groups: [(name: String?, blocks: [Block])] = [(nil, [])]
    for var block in try blocks(of: markdown, displayPath: displayPath) {
        if case .file(let name) = block.marker {
            block.marker = .declarations
            groups.append((name, []))
        }
        groups[groups.count - 1].blocks.append(block)
    }
    return try groups.map { ($0.name, try generateFile($0.blocks, displayPath: displayPath, settings)) }
}

func generateFile(_ all: [Block], displayPath: String, _ settings: Traits) throws -> String {
    var imports: [String] = []
    var body: [String] = []
    var functionOpen = false
    var endifPending = false
    var functionCount = 0

    func closeOpenScope() {
        if functionOpen {
            body.append("}")
            functionOpen = false
        }
        if endifPending {
            body.append("#endif")
            endifPending = false
        }
    }

    for (number, block) in all.enumerated() where block.marker != .skip {
        if block.marker == .continues {
            guard functionOpen else {
                throw Failure(
                    description: "\(displayPath):\(block.firstLine - 1): error: a 'continues' block must follow a 'body' block"
                )
            }
        } else {
            closeOpenScope()
            let conditions = traits(of: block, settings)
            if !conditions.isEmpty {
                body.append("#if " + conditions.joined(separator: " && "))
                endifPending = true
            }
        }
        if block.marker == .main {
            functionCount += 1
            body += mainFile(block, function: "snippet\(functionCount)", displayPath: displayPath, imports: &imports)
            closeOpenScope()
            continue
        }
        switch block.marker {
        case .body:
            functionCount += 1
            body.append("fileprivate func snippet\(functionCount)() async throws {")
            functionOpen = true
        case .variant:
            body.append("fileprivate enum Variant\(number + 1) {")
        default:
            break
        }
        body.append("#sourceLocation(file: \"\(displayPath)\", line: \(block.firstLine))")
        var depth = 0
        var inMultilineString = false
        for text in block.lines {
            if text.hasPrefix("@testable import ") {
                body.append("")
                continue
            }
            if importedModule(of: text) != nil {
                // Imports move to the top of the file; the empty line keeps the line numbers right.
                if !imports.contains(text) { imports.append(text) }
                body.append("")
                continue
            }
            let declaresAtTopLevel = block.marker == .declarations || block.marker == .compileOnly
            let topLevel = depth == 0 && !inMultilineString && declaresAtTopLevel && !text.hasPrefix(" ")
            let compiled = topLevel && block.marker == .compileOnly ? withoutTestAttribute(text) : text
            body.append(topLevel ? filePrivate(compiled) : compiled)
            depth += nestingDelta(text, inMultilineString: &inMultilineString)
        }
        body.append("#sourceLocation()")
        if block.marker == .variant { body.append("}") }
        if block.marker == .declarations || block.marker == .compileOnly || block.marker == .variant { closeOpenScope() }
    }
    closeOpenScope()

    var output = [
        "// Generated by MarkdownSnippetsTool from \(displayPath): edit the Markdown, not this file.",
        "#if canImport(FoundationNetworking)",
        "    import FoundationNetworking",
        "#endif",
    ]
    for line in imports {
        let module = importedModule(of: line) ?? ""
        if let trait = settings.gatedModules[module] ?? settings.documentTrait {
            output += ["#if \(trait)", line, "#endif"]
        } else {
            output.append(line)
        }
    }
    return (output + body).joined(separator: "\n") + "\n"
}

/// The module a line imports — `import M`, or `@_spi(Name) import M` for a module's API kept for some users (the
/// transport authors' of RetroSwift) — or `nil` for any other line. `@testable import` lines are not imports here.
func importedModule(of line: String) -> String? {
    var rest = Substring(line)
    if rest.hasPrefix("@_spi(") {
        guard let close = rest.firstIndex(of: ")") else { return nil }
        rest = rest[rest.index(after: close)...].drop { $0 == " " }
    }
    guard rest.hasPrefix("import ") else { return nil }
    return String(rest.dropFirst("import ".count)).trimmingCharacters(in: .whitespaces)
}

/// What the command line says about package traits.
struct Traits {
    /// Modules built only with a package trait, and the trait that builds them.
    var gatedModules: [String: String] = [:]
    /// The trait every block of this document needs: the document belongs to a trait's module.
    var documentTrait: String?
}

/// The traits a block needs: those of the modules it imports, and the document's own.
func traits(of block: Block, _ settings: Traits) -> [String] {
    let gatedModules = settings.gatedModules
    let documentTrait = settings.documentTrait
    var traits = Set<String>()
    for text in block.lines {
        if let module = importedModule(of: text), let trait = gatedModules[module] { traits.insert(trait) }
    }
    if let documentTrait { traits.insert(documentTrait) }
    return traits.sorted() + (block.condition.map { [$0] } ?? [])
}
