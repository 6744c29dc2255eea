/// Every `{placeholder}` of the path has its `@Path` field and every `@Path` field its placeholder. When only the type
/// is known, a path field's name may be unknown; then only the mistakes that do not depend on it are reported.
struct PlaceholdersRule: DeclarationRule {
    func check(_ draft: inout DeclarationDraft) {
        guard draft.descriptions != nil, let template = draft.template, !draft.hasURL else { return }
        let pathFields = draft.fields.filter { $0.kind == .path }
        let namesKnown = pathFields.allSatisfy { $0.name != nil }
        for name in template.placeholders where !pathFields.contains(where: { $0.name == name }) && (namesKnown || pathFields.isEmpty) {
            draft.report(
                "placeholder {\(name)} has no @Path field",
                fix:
                    "add `@Path(\"\(name)\") var \(Self.camelCase(name)): String = \"\"` to \(draft.requestTypeName), or remove {\(name)} from the path"
            )
        }
        for field in pathFields where field.name.map({ !template.placeholders.contains($0) }) ?? template.placeholders.isEmpty {
            let name = field.name ?? field.property
            draft.report(
                "@Path name '\(name)' matches no placeholder in '\(draft.declaration.template)'",
                fix: "add {\(name)} to the path, or rename the field to one of its placeholders", field: field.property
            )
        }
    }

    private static func camelCase(_ name: String) -> String {
        let words = name.split(whereSeparator: { $0 == "_" || $0 == "-" || $0 == "." })
        guard let first = words.first else { return "value" }
        return first.lowercased() + words.dropFirst().map { $0.prefix(1).uppercased() + $0.dropFirst() }.joined()
    }
}
