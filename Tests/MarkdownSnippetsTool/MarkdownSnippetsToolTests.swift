import Foundation
import Testing

/// The snippet tool's parsing, checked on small Markdown documents: the four snippet test targets only show that
/// today's docs compile, not that a marker, a nesting rule or a line number does what CONTRIBUTING.md says.
@Suite struct MarkdownSnippetsToolTests {
    @Test func aBlockWithoutAMarkerIsDeclarationsStartingOnTheLineAfterItsFence() throws {
        // Given
        let markdown = "# Title\n\n```swift\nstruct A {}\n```\n\n```text\nnot swift\n```\n"

        // When
        let found = try blocks(of: markdown, displayPath: "Doc.md")

        // Then
        #expect(found.count == 1)
        #expect(found[0].marker == .declarations)
        #expect(found[0].firstLine == 4)
        #expect(found[0].lines == ["struct A {}"])
    }

    @Test func aMarkerAboveTheFenceAfterBlankLinesNamesTheKindAndTheConfiguration() throws {
        // Given
        let markdown = "<!-- snippet: body, except swift5 -->\n\n```swift\nlet x = 1\n```\n"

        // When
        let found = try blocks(of: markdown, displayPath: "Doc.md")

        // Then
        #expect(found.map(\.marker) == [.body])
        #expect(found[0].condition == "!SNIPPETS_SWIFT5")
    }

    @Test func aBlockInsideAListItemLosesTheItemsIndentation() throws {
        // Given
        let markdown = "- item:\n\n    ```swift\n    struct A {\n        var b = 1\n    }\n    ```\n"

        // When
        let found = try blocks(of: markdown, displayPath: "Doc.md")

        // Then
        #expect(found[0].lines == ["struct A {", "    var b = 1", "}"])
    }

    @Test(arguments: [
        (
            "<!-- snippet: sideways -->",
            "Doc.md:3: error: unknown snippet marker 'sideways'; use main, body, continues, variant, file <Name>, "
                + "declarations, compile-only or skip: <reason>, optionally followed by ', only <configuration>' or "
                + "', except <configuration>' (CONTRIBUTING.md)"
        ),
        ("<!-- snippet: skip: -->", "Doc.md:3: error: a 'skip:' marker needs a reason"),
        (
            "<!-- snippet: body, only swift7 -->",
            "Doc.md:3: error: 'only swift7' names no configuration; use main-actor-default, nonsending, swift5, swift6"
        ),
        (
            "<!-- snippet: compile-only, variant -->",
            "Doc.md:3: error: a snippet marker takes one kind, not 'compile-only, variant'"
        ),
        ("<!-- snippet: file my-file -->", "Doc.md:3: error: a 'file' marker needs a name of letters and digits"),
    ])
    func aMistakenMarkerFailsNamingItsLine(marker: String, message: String) {
        // Given
        let markdown = "Text\n\n\(marker)\n```swift\nlet x = 1\n```\n"

        // When
        let error = #expect(throws: Failure.self) { try blocks(of: markdown, displayPath: "Doc.md") }

        // Then
        #expect(error?.description == message)
    }

    @Test func aBlockThatIsNeverClosedFailsNamingItsFence() {
        let error = #expect(throws: Failure.self) { try blocks(of: "a\n```swift\nlet x = 1\n", displayPath: "Doc.md") }
        #expect(error?.description == "Doc.md:2: error: the Swift code block is never closed")
    }

    @Test(arguments: [
        ("func f() {", 1),
        ("}", -1),
        ("let s = \"{ not a brace (\"", 0),
        ("let s = \"escaped \\\" quote {\"", 0),
        ("call(a, [b]) // a comment {", 0),
        ("let json = \"\"\"", 0),
    ])
    func nestingCountsBracketsOutsideStringsAndComments(line: String, delta: Int) {
        var inMultilineString = false
        #expect(nestingDelta(line, inMultilineString: &inMultilineString) == delta)
    }

    @Test func bracketsInsideAMultilineStringAreNotCounted() {
        // Given
        var inMultilineString = false

        // When
        let deltas = ["let s = \"\"\"", "{ ( [", "\"\"\" + f(", ")"].map {
            nestingDelta($0, inMultilineString: &inMultilineString)
        }

        // Then
        #expect(deltas == [0, 0, 1, -1])
        #expect(!inMultilineString)
    }

    @Test(arguments: [
        ("struct A {}", "fileprivate struct A {}"),
        ("@MainActor final class B {}", "@MainActor fileprivate final class B {}"),
        ("public func f() {}", "fileprivate func f() {}"),
        ("extension A: Equatable {}", "extension A: Equatable {}"),
        ("extension A {}", "fileprivate extension A {}"),
        ("let api = Api()", "fileprivate let api = Api()"),
        ("print(1)", "print(1)"),
    ])
    func topLevelDeclarationsBecomeFilePrivate(line: String, expected: String) {
        #expect(filePrivate(line) == expected)
    }

    @Test(arguments: [
        ("@Test func a() {}", "func a() {}"),
        ("@Test(arguments: [1, (2)])", ""),
        ("@Test(\"name\") func a() {}", "func a() {}"),
        ("@Tested func a() {}", "@Tested func a() {}"),
        ("@MainActor func a() {}", "@MainActor func a() {}"),
    ])
    func compileOnlyLeavesOutTestAttributes(line: String, expected: String) {
        #expect(withoutTestAttribute(line) == expected)
    }

    @Test func aCompileOnlyBlockCompilesItsTestFunctionsAsPlainFunctions() throws {
        // Given
        let markdown = "<!-- snippet: compile-only -->\n```swift\nimport Testing\n\n@Test(arguments: [1])\nfunc a(_ n: Int) {}\n```\n"
        let blocks = try blocks(of: markdown, displayPath: "Doc.md")

        // When
        let source = try generateFile(blocks, displayPath: "Doc.md", Traits())

        // Then
        #expect(!source.contains("@Test"))
        #expect(source.contains("fileprivate func a(_ n: Int) {}"))
        #expect(source.contains("import Testing"))
    }

    @Test func aMainBlockKeepsDeclarationsAtTopLevelAndRunsStatementsInOrderWithTheirLines() throws {
        // Given
        let markdown = """
            <!-- snippet: main -->
            ```swift
            import RetroSwift

            struct User: Decodable {
                let id: Int
            }
            let api = Api()
            let user = try await api
                .fetch()
            print(user)
            ```

            """
        let blocks = try blocks(of: markdown, displayPath: "README.md")

        // When
        let source = try generateFile(blocks, displayPath: "README.md", Traits())

        // Then
        let lines = source.components(separatedBy: "\n")
        let function = try #require(lines.firstIndex(of: "@MainActor fileprivate func snippet1() async throws {"))
        let structLine = try #require(lines.firstIndex(of: "fileprivate struct User: Decodable {"))
        #expect(structLine < function)
        #expect(lines[structLine - 1] == "#sourceLocation(file: \"README.md\", line: 5)")
        #expect(
            Array(lines[(function + 1)...].prefix(6)) == [
                "#sourceLocation(file: \"README.md\", line: 8)", "let api = Api()",
                "#sourceLocation(file: \"README.md\", line: 9)", "let user = try await api", "    .fetch()",
                "#sourceLocation(file: \"README.md\", line: 11)",
            ])
        #expect(lines.contains("import RetroSwift"))
    }

    @Test func anSPIImportMovesToTheTopLikeAnyImportAndNamesItsModule() throws {
        // Given
        let markdown = "```swift\n@_spi(Transport) import RetroSwift\nlet x = 1\n```\n"
        let blocks = try blocks(of: markdown, displayPath: "Doc.md")

        // When
        let source = try generateFile(blocks, displayPath: "Doc.md", Traits())

        // Then
        let lines = source.components(separatedBy: "\n")
        let spiImport = try #require(lines.firstIndex(of: "@_spi(Transport) import RetroSwift"))
        let declaration = try #require(lines.firstIndex(of: "fileprivate let x = 1"))
        #expect(spiImport < declaration)
        #expect(importedModule(of: "@_spi(Transport) import RetroSwift") == "RetroSwift")
        #expect(importedModule(of: "import Foundation") == "Foundation")
        #expect(importedModule(of: "@testable import RetroSwift") == nil)
        #expect(importedModule(of: "let imported = 1") == nil)
    }

    @Test func blocksOfATraitsModuleCompileOnlyWithTheTrait() throws {
        // Given
        let markdown = "```swift\nimport RetroSwiftLogging\nlet x = 1\n```\n\n```swift\nlet y = 2\n```\n"
        let blocks = try blocks(of: markdown, displayPath: "Doc.md")
        var settings = Traits()
        settings.gatedModules = ["RetroSwiftLogging": "SwiftLog"]

        // When
        let source = try generateFile(blocks, displayPath: "Doc.md", settings)

        // Then
        let lines = source.components(separatedBy: "\n")
        let gatedImport = try #require(lines.firstIndex(of: "import RetroSwiftLogging"))
        #expect(lines[gatedImport - 1] == "#if SwiftLog")
        let first = try #require(lines.firstIndex(of: "fileprivate let x = 1"))
        let second = try #require(lines.firstIndex(of: "fileprivate let y = 2"))
        #expect(lines[..<first].last { $0.hasPrefix("#if") || $0 == "#endif" } == "#if SwiftLog")
        #expect(lines[first..<second].contains("#endif"))
        #expect(!lines[first..<second].contains("#if SwiftLog"))
    }

    @Test func aContinuesBlockWithoutABodyBlockBeforeItFails() throws {
        let blocks = try blocks(of: "<!-- snippet: continues -->\n```swift\nx()\n```\n", displayPath: "Doc.md")
        let error = #expect(throws: Failure.self) { try generateFile(blocks, displayPath: "Doc.md", Traits()) }
        #expect(error?.description == "Doc.md:2: error: a 'continues' block must follow a 'body' block")
    }
}
