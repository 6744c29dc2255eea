/// The response type is one RetroSwift can decode.
struct ResponseTypeRule: DeclarationRule {
    func check(_ draft: inout DeclarationDraft) {
        guard !ResponseDecoding.supports(draft.responseType) else { return }
        draft.report(
            "response type \(draft.responseType) is not Decodable",
            fix: "make it Decodable, or declare Empty, Data, String or Either<Response, ErrorResponse>"
        )
    }
}
