/// An endpoint's own converter can encode its `@Body` and decode its response type. (A domain's converter can change
/// after plans are made, which are shared by every instance of the domain type, so its mistakes surface per call.)
struct ConverterRule: DeclarationRule {
    func check(_ draft: inout DeclarationDraft) {
        guard let converter = draft.declaration.converter else { return }
        let name = "\(type(of: converter))"
        for field in draft.descriptions ?? [] where field.kind == .body {
            guard let valueType = field.valueType else { continue }
            let type = (valueType as? any OptionalValue.Type)?.wrappedType ?? valueType
            guard !converter.canEncode(type) else { continue }
            let property = RequestPlanner.propertyName(field.label)
            draft.report(
                "@Body '\(property)' is \(type), which the endpoint's converter \(name) cannot encode",
                fix: "declare the body as a type \(name) encodes, or choose another converter:", field: property)
        }
        let response = draft.responseType
        // Types that read the response themselves (Either, HTTPResponse, Data, String, streams) are not asked.
        guard ResponseDecoding.supports(response), !(response is any HTTPResponseDecodable.Type), !converter.canDecode(response)
        else { return }
        draft.report(
            "response type \(response) is not one the endpoint's converter \(name) decodes",
            fix: "declare a response type \(name) decodes, or choose another converter:")
    }
}
