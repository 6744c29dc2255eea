import Testing

@testable import RetroSwift

/// The path template parser on its own: the pieces a good template gives, and the one message each kind of mistake
/// gives (`DeclarationErrorTests` shows them through declared endpoints).
@Suite("Building: path templates")
struct PathTemplateTests {
    /// The pieces as text: literals as they are, placeholders in braces.
    private static func pieces(of template: PathTemplate) -> [String] {
        template.pieces.map {
            switch $0 {
            case .literal(let text): text
            case .placeholder(let name): "{\(name)}"
            }
        }
    }

    @Test(
        "a template splits into literals and placeholders, each placeholder named once, the query kept as written",
        arguments: [
            ("/items/{id}", ["/items/", "{id}"], ["id"], nil),
            ("/{team}/entries/{entry_id}.json", ["/", "{team}", "/entries/", "{entry_id}", ".json"], ["team", "entry_id"], nil),
            ("/a/{id}/b/{id}", ["/a/", "{id}", "/b/", "{id}"], ["id"], nil),
            ("/caf%C3%A9/{v.2-x}?limit=10&sort=a", ["/caf%C3%A9/", "{v.2-x}"], ["v.2-x"], "limit=10&sort=a"),
            ("/", ["/"], [], nil),
        ] as [(String, [String], [String], String?)])
    func parses(template: String, pieces: [String], placeholders: [String], query: String?) throws {
        // When
        let parsed = try PathTemplate.parse(template).get()

        // Then
        #expect(Self.pieces(of: parsed) == pieces)
        #expect(parsed.placeholders == placeholders)
        #expect(parsed.staticQuery == query)
    }

    @Test(
        "each mistake in a template gives its own message (a fragment two: it is also a character to encode)",
        arguments: [
            ("/items/{id", "path template '/items/{id' has unbalanced braces"),
            ("/items/id}", "path template '/items/id}' has unbalanced braces"),
            ("/items/{{id}}", "path template '/items/{{id}}' has unbalanced braces"),
            ("/items/{}", "path template '/items/{}' has an invalid placeholder '{}'"),
            ("/items/{an id}", "path template '/items/{an id}' has an invalid placeholder '{an id}'"),
            (
                "/items/{id}#top",
                "path template '/items/{id}#top' contains a fragment ('#')\n"
                    + "path template '/items/{id}#top' has characters that must be percent-encoded in '#top'"
            ),
            ("/items?id={id}", "path template '/items?id={id}' has a placeholder in its query"),
            ("/café/{id}", "path template '/café/{id}' has characters that must be percent-encoded in '/café/'"),
            ("items/{id}", "path template 'items/{id}' does not start with '/'"),
        ])
    func refuses(template: String, problem: String) {
        // When
        let result = PathTemplate.parse(template)

        // Then
        guard case .failure(let list) = result else {
            Issue.record("'\(template)' parsed")
            return
        }
        #expect(list.items.map(\.problem).joined(separator: "\n") == problem)
    }
}
