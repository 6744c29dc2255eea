/// A method of the user's own is a token (RFC 9110 §9.1), or the request line would be malformed.
struct MethodNameRule: DeclarationRule {
    func check(_ draft: inout DeclarationDraft) {
        let name = draft.declaration.method.rawValue
        let fix = "name the method with letters, digits and !#$%&'*+-.^_`|~ only, such as PROPFIND"
        if name.isEmpty { return draft.report("the method name is empty", fix: fix) }
        if let byte = name.utf8.first(where: { !HeaderRules.isTokenCharacter($0) }) {
            draft.report(
                "method '\(name)' contains \(HeaderRules.describe(byte)), which is not allowed in a method name (an RFC 9110 token)",
                fix: fix)
        }
    }
}
