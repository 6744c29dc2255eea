/// Every stored property of the request is a parameter, and each map is a dictionary with `String` keys, named by
/// its keys alone.
struct ParameterFieldsRule: DeclarationRule {
    func check(_ draft: inout DeclarationDraft) {
        guard let descriptions = draft.descriptions else { return }
        draft.fields = descriptions.compactMap { field in
            guard let kind = field.kind else {
                draft.report(
                    "'\(field.label)' of \(draft.requestTypeName) is not a request parameter",
                    fix:
                        "mark it @Query, @Header, @Path, @JsonBody, @FormParam, @FormFile, @QueryMap, @HeaderMap or @FormMap, "
                        + "or make it a computed property",
                    field: field.label
                )
                return nil
            }
            let property = RequestPlanner.propertyName(field.label)
            if kind.mapEntryKind != nil, let valueType = field.valueType, !(valueType is any StringKeyedEntries.Type) {
                draft.report(
                    "\(kind.rawValue) '\(property)' has type \(valueType), not a dictionary with String keys",
                    fix: "declare it as [String: Value], such as [String: String] or [String: [String]]",
                    field: property
                )
            }
            if kind.mapEntryKind != nil, field.isNamedExplicitly {
                draft.report(
                    "\(kind.rawValue) '\(property)' is given the name '\(field.name ?? "")', but a map's keys are its names",
                    fix: "drop the name argument; to send one value under that name, declare a \(kind.mapEntryKind?.rawValue ?? "") field",
                    field: property
                )
            }
            return DeclarationDraft.CheckedField(
                property: property, kind: kind, name: field.name,
                // Asked of JSON bodies only, the one kind whose call casts for it: a first lookup of a type's
                // conformance scans every conformance record, a cost best not added to other fields' first call.
                valueIsOptional: kind == .jsonBody || kind == .body ? field.valueType.map { $0 is any OptionalValue.Type } ?? true : true)
        }
    }
}
