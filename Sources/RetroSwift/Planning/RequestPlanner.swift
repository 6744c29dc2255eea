import Foundation

/// Reads a request type through `Mirror`, checks the declaration against each ``DeclarationRule``, and produces its
/// ``RequestPlan``.
///
/// Every mistake is collected before anything throws, so the user fixes them in one pass.
enum RequestPlanner {
    typealias FieldDescription = DeclarationDraft.FieldDescription

    /// The rules a declaration must meet, in the order their mistakes are reported.
    static let rules: [any DeclarationRule] = [
        PathTemplateRule(), MethodNameRule(), StaticHeadersRule(),
        // The request's fields, when they can be described; else the request type itself.
        ParameterFieldsRule(), ParameterNamesRule(), URLFieldRule(), PlaceholdersRule(), BodyRule(), RequestTypeRule(),
        OtherHostsRule(), TimeoutRule(), ResponseTypeRule(), ConverterRule(),
    ]

    /// Validates the declaration against a request value whose static type `T` is its exact type, and returns
    /// the plan for values of `T`.
    static func plan<T>(
        for request: T, endpoint: EndpointIdentity, declaration: EndpointDeclaration, responseType: Any.Type
    ) throws(DeclarationError) -> RequestPlan {
        if T.self == Void.self {
            return try plan(
                fields: [], reader: .none, requestType: T.self, endpoint: endpoint, declaration: declaration,
                responseType: responseType
            )
        }
        let kind = RequestTypeKind(of: T.self)
        if kind == .struct, let layout = StructLayout(of: T.self) {
            var names = ExplicitNames(count: layout.fields.count)
            let slots = ParameterSlots(layout)
            if let slots {
                // Reading names cannot fail: the slots were just made from `T`, and naming throws nothing.
                _ = try? UnsafeStructMemory.visitParameters(of: request, slots: slots, with: &names)
            }
            let fields = layout.fields.enumerated().map { index, field in
                let parameterType = field.type as? any RequestParameter.Type
                return FieldDescription(
                    label: field.label, kind: parameterType?.kind ?? nil,
                    name: parameterType.map { _ in names.names[index] ?? propertyName(field.label) },
                    valueType: parameterType?.valueType, isNamedExplicitly: names.names[index] != nil
                )
            }
            return try plan(
                fields: fields, reader: slots.map { .structFields($0) } ?? .unplanned, requestType: T.self,
                endpoint: endpoint, declaration: declaration, responseType: responseType
            )
        }
        if kind == .class {
            let fields = ClassRequestFields.parameters(of: request).map { label, parameter in
                FieldDescription(
                    label: label, kind: parameter.flatMap { type(of: $0).kind },
                    name: parameter.map { $0.explicitName ?? propertyName(label) },
                    valueType: parameter.map { type(of: $0).valueType }, isNamedExplicitly: parameter?.explicitName != nil
                )
            }
            return try plan(
                fields: fields, reader: .classMirror, requestType: T.self, endpoint: endpoint,
                declaration: declaration, responseType: responseType
            )
        }
        return try plan(
            fields: nil, reader: .none, requestType: T.self, endpoint: endpoint, declaration: declaration,
            responseType: responseType
        )
    }

    /// Collects the explicit wire names of a struct's wrappers, by slot.
    private struct ExplicitNames: RequestParameterVisitor {
        var names: [String?]

        init(count: Int) {
            names = Array(repeating: nil, count: count)
        }

        mutating func visit<Parameter: RequestParameter>(_ parameter: Parameter, slot: Int) {
            names[slot] = parameter.explicitName
        }
    }

    /// Validates what can be known from the types alone, for ``Domain/validateEndpoints()``.
    static func issues(
        requestType: Any.Type, endpoint: EndpointIdentity, declaration: EndpointDeclaration, responseType: Any.Type
    ) -> [DeclarationError.Issue] {
        var fields: [FieldDescription]?
        if requestType == Void.self {
            fields = []
        } else if let layout = StructLayout(of: requestType) {
            fields = layout.fields.map { field in
                let parameterType = field.type as? any RequestParameter.Type
                return .init(label: field.label, kind: parameterType?.kind ?? nil, name: nil, valueType: parameterType?.valueType)
            }
        }
        do {
            _ = try plan(
                fields: fields, reader: .unplanned, requestType: requestType, endpoint: endpoint, declaration: declaration,
                responseType: responseType
            )
            return []
        } catch {
            return error.issues
        }
    }

    /// Checks a declaration whose request fields are `descriptions`, or — when `nil` — cannot be described
    /// (a request type that is not a struct, or a class or existential known only by its type): then the request
    /// type itself is checked, and field checks wait for a value.
    static func plan(
        fields descriptions: [FieldDescription]?, reader: RequestPlan.Reader, requestType: Any.Type,
        endpoint: EndpointIdentity, declaration: EndpointDeclaration, responseType: Any.Type
    ) throws(DeclarationError) -> RequestPlan {
        var draft = DeclarationDraft(
            endpoint: endpoint, declaration: declaration, requestType: requestType, responseType: responseType,
            descriptions: descriptions, valueSeen: reader.isPlanned)
        for rule in rules { rule.check(&draft) }
        guard draft.issues.isEmpty, let template = draft.template, descriptions != nil else {
            throw DeclarationError(issues: draft.issues)
        }
        return RequestPlan(
            endpoint: endpoint, template: template, requestType: ObjectIdentifier(requestType),
            fields: draft.fields.map {
                RequestPlan.Field(
                    property: $0.property, kind: $0.kind, name: $0.name ?? $0.property, valueIsOptional: $0.valueIsOptional)
            },
            reader: reader, bodyStyle: draft.bodyStyle, staticHeaders: draft.staticHeaders, timeout: declaration.timeout,
            responseDestination: ResponseDecoding.destination(for: responseType), otherHosts: declaration.otherHosts,
            converter: declaration.converter
        )
    }

    /// The property's name without the underscore of a wrapper's storage.
    static func propertyName(_ label: String) -> String {
        label.hasPrefix("_") ? String(label.dropFirst()) : label
    }
}
