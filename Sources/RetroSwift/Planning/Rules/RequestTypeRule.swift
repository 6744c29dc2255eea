/// A request type whose fields cannot be described is refused, unless it is one that only a value can tell about
/// (a class or existential known only by its type, checked on its first call).
struct RequestTypeRule: DeclarationRule {
    func check(_ draft: inout DeclarationDraft) {
        guard draft.descriptions == nil else { return }
        let type = draft.requestType
        let fix = "declare a struct whose stored properties are @Query, @Header, @Path, @JsonBody, @FormParam or @FormFile fields"
        switch RequestTypeKind(of: type) {
        case .struct, .class, .existential:
            // Known only by type (validateEndpoints): the fields of each value's own type are checked on its first
            // call. With a value in hand these kinds were read, so reaching here means the runtime could not.
            guard draft.valueSeen else { return }
            draft.report("the stored properties of request type \(type) cannot be read", fix: fix)
        case .optional:
            draft.report(
                "request type \(type) is optional",
                fix: "declare the endpoint with the wrapped type and always pass a value"
            )
        case .enum: draft.report("request type \(type) is an enum; RetroSwift reads a request's fields from a struct", fix: fix)
        case .tuple: draft.report("request type \(type) is a tuple; RetroSwift reads a request's fields from a struct", fix: fix)
        case .function, .metatype, .other:
            draft.report("request type \(type) is not a struct; RetroSwift reads a request's fields from a struct", fix: fix)
        }
    }
}
