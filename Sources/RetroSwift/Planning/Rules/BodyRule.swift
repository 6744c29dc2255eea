/// A request has at most one body — one `@JsonBody` or `@RawBody`, or form fields — that its method allows, and a
/// multipart form has parts; decides how the body is encoded.
struct BodyRule: DeclarationRule {
    func check(_ draft: inout DeclarationDraft) {
        guard draft.descriptions != nil else { return }
        let declaration = draft.declaration
        let bodies = draft.fields.filter { $0.kind == .jsonBody || $0.kind == .rawBody || $0.kind == .body }
        let form = draft.fields.filter { $0.kind == .formParam || $0.kind.sendsFiles || $0.kind == .formMap }
        if bodies.count > 1 {
            let allJSON = bodies.allSatisfy { $0.kind == .jsonBody }
            draft.report(
                allJSON
                    ? "\(bodies.count) @JsonBody fields (\(bodies.map { "'\($0.property)'" }.joined(separator: ", "))); a request has one body"
                    : "\(bodies.count) body fields (\(bodies.map { "\($0.kind.rawValue) '\($0.property)'" }.joined(separator: ", "))); "
                        + "a request has one body",
                fix: allJSON
                    ? "keep one @JsonBody and put the other values inside its Encodable type"
                    : "keep one of them"
            )
        }
        if let body = bodies.first, !form.isEmpty {
            draft.report(
                "\(body.kind.rawValue) '\(body.property)' together with form field '\(form[0].property)'; a request has one body",
                fix: body.kind != .rawBody
                    ? "send the values either as JSON or as form fields, not both" : "send either the raw body or form fields, not both"
            )
        }
        if let body = bodies.first, declaration.formEncoding == .multipart {
            draft.report(
                "\(body.kind.rawValue) on an endpoint declared with formEncoding: .multipart",
                fix: "use @FormParam fields, or drop formEncoding")
        }
        if bodies.isEmpty && form.isEmpty && declaration.formEncoding == .multipart {
            draft.report(
                "formEncoding: .multipart but no @FormParam or @FormFile field; a multipart body needs at least one part (RFC 2046)",
                fix: "add the form fields, or drop formEncoding"
            )
        }
        let style: RequestPlan.BodyStyle
        if let body = bodies.first {
            style = body.kind == .rawBody ? .raw : .json
        } else if declaration.formEncoding == .multipart || form.contains(where: { $0.kind.sendsFiles }) {
            style = .multipart
        } else {
            style = form.isEmpty ? .none : .formURLEncoded
        }
        if style != .none && !declaration.method.allowsBody {
            let standard = HTTPMethod.standard.contains(declaration.method)
            draft.report(
                "a \(declaration.method.rawValue) request cannot have a body",
                fix: standard
                    ? "send the values as @Query fields, or declare the endpoint with @Post, @Put or @Patch"
                    : "send the values as @Query fields, or make the method with allowsBody: true"
            )
        }
        draft.bodyStyle = style
    }
}
