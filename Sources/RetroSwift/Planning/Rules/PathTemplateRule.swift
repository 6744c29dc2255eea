/// The path template parses: balanced, well-named placeholders and a query that is valid as written. An endpoint
/// without a path gets an empty template (a `@Url` field gives the path on each call, which ``URLFieldRule`` makes
/// sure of).
struct PathTemplateRule: DeclarationRule {
    func check(_ draft: inout DeclarationDraft) {
        if draft.declaration.template.isEmpty {
            draft.template = PathTemplate(pieces: [], placeholders: [], staticQuery: nil, staticQueryItems: [])
            return
        }
        switch PathTemplate.parse(draft.declaration.template) {
        case .success(let template):
            draft.template = template
        case .failure(let list):
            for item in list.items { draft.report(item.problem, fix: item.fix) }
        }
    }
}
