/// Each parameter has a name, header names are valid, and no two fields send under one name where they would
/// collide: form params and files share one form, and header names are case-insensitive.
struct ParameterNamesRule: DeclarationRule {
    func check(_ draft: inout DeclarationDraft) {
        guard draft.descriptions != nil else { return }
        var seen: [String: DeclarationDraft.CheckedField] = [:]
        // A map's entries are named by its keys, checked when they are sent.
        for field in draft.fields where field.kind.mapEntryKind == nil && field.kind != .url {
            guard let name = field.name else { continue }
            if name.isEmpty {
                draft.report(
                    "\(field.kind.rawValue) name is empty", fix: "give the field a name, or drop the empty argument", field: field.property)
                continue
            }
            if field.kind == .header, let problem = HeaderRules.problem(inName: name) {
                draft.report("\(problem)", fix: "use a valid header name such as 'X-Account-Id'", field: field.property)
            }
            let key = Self.namespace(field.kind, name, field.property)
            if let first = seen[key] {
                draft.report(
                    "\(field.kind.rawValue) name '\(name)' is already used by '\(first.property)'",
                    fix: "give each field its own name; for repeated values use one array field", field: field.property
                )
            } else {
                seen[key] = field
            }
        }
    }

    private static func namespace(_ kind: ParameterKind, _ name: String, _ property: String) -> String {
        switch kind {
        case .header: return "header:" + HeaderName.key(name)
        case .formParam, .formFile, .formFileList: return "form:" + name
        case .jsonBody, .body: return "body:" + property
        default: return "\(kind.rawValue):" + name
        }
    }
}
