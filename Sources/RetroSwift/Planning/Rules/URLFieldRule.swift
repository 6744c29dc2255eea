import Foundation

/// An endpoint has a path or one `@Url` field of a URL type, never both; `otherHosts:` needs a `@Url` field, and a
/// `@Url` field leaves `@Path` fields nothing to fill.
struct URLFieldRule: DeclarationRule {
    private static let urlValueTypes: [Any.Type] = [String.self, String?.self, URL.self, URL?.self, Substring.self]

    func check(_ draft: inout DeclarationDraft) {
        guard let descriptions = draft.descriptions else { return }
        let declaration = draft.declaration
        let urlFields = draft.fields.filter { $0.kind == .url }
        guard let url = urlFields.first else {
            let example = "@\(draft.methodMarkerName)(\"/items\")"
            if declaration.template.isEmpty && draft.requestType == Void.self {
                draft.report(
                    "the endpoint has no path, and no request whose @Url field could give one", fix: "give it a path, such as \(example)")
            } else if declaration.template.isEmpty {
                draft.report(
                    "the endpoint has no path and \(draft.requestTypeName) has no @Url field",
                    fix: "give the endpoint a path, such as \(example), or add `@Url var url: String = \"\"` to the request"
                )
            }
            if declaration.otherHosts != .refused {
                draft.report(
                    "otherHosts: is set, but \(draft.requestTypeName) has no @Url field, so every call goes to the base URL",
                    fix: "drop otherHosts:, or add a @Url field to the request"
                )
            }
            return
        }
        draft.hasURL = true
        if urlFields.count > 1 {
            draft.report(
                "\(urlFields.count) @Url fields (\(urlFields.map { "'\($0.property)'" }.joined(separator: ", "))); a call has one URL",
                fix: "keep one of them"
            )
        }
        if !declaration.template.isEmpty {
            draft.report(
                "@Url '\(url.property)' on an endpoint declared with the path '\(declaration.template)'; the @Url field gives "
                    + "the whole path",
                fix: "declare the endpoint without a path, as @\(draft.methodMarkerName)(), or drop the @Url field",
                field: url.property
            )
        }
        for field in draft.fields where field.kind == .path {
            draft.report(
                "@Path '\(field.property)' has no placeholder to fill: the path comes from @Url '\(url.property)'",
                fix: "put the value into the URL, or declare a path template instead of the @Url field", field: field.property
            )
        }
        for description in descriptions where description.kind == .url {
            let property = RequestPlanner.propertyName(description.label)
            if let valueType = description.valueType, !Self.urlValueTypes.contains(where: { $0 == valueType }) {
                draft.report(
                    "@Url '\(property)' has type \(valueType), which is not a URL",
                    fix: "declare it as String or URL", field: property
                )
            }
            if description.isNamedExplicitly {
                draft.report(
                    "@Url '\(property)' is given the name '\(description.name ?? "")', but a URL is not sent under a name",
                    fix: "drop the name argument", field: property
                )
            }
        }
    }
}
