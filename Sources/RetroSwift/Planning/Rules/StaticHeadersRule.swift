/// The endpoint's `headers:` are valid fields, no two of them naming the same field.
struct StaticHeadersRule: DeclarationRule {
    func check(_ draft: inout DeclarationDraft) {
        var seen: [String: String] = [:]
        draft.staticHeaders = draft.declaration.headers.sorted { $0.key < $1.key }.compactMap { name, value in
            if let problem = HeaderRules.problem(inName: name) ?? HeaderRules.problem(inValue: value) {
                draft.report("static header '\(name)': \(problem)", fix: "correct the header in the endpoint's headers argument")
                return nil
            }
            // Header names are case-insensitive (RFC 9110 §5.1): two keys differing only in case are one field,
            // refused as two @Header fields of such names are, rather than one value silently dropped.
            if let first = seen[HeaderName.key(name)] {
                draft.report(
                    "static headers '\(first)' and '\(name)' name the same field (header names are case-insensitive)",
                    fix: "keep one of them; to send several values, join them with \", \" in one header"
                )
                return nil
            }
            seen[HeaderName.key(name)] = name
            return HTTPHeader(name: name, value: value)
        }
    }
}
