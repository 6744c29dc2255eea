import Foundation

/// Reads a request type through `Mirror`, checks the declaration, and produces its ``RequestPlan``.
///
/// Every mistake is collected before anything throws, so the user fixes them in one pass.
struct RequestPlanner {
    let endpoint: EndpointIdentity
    let declaration: EndpointDeclaration
    let requestType: Any.Type
    private var issues: [DeclarationError.Issue] = []

    init(endpoint: EndpointIdentity, declaration: EndpointDeclaration, requestType: Any.Type) {
        self.endpoint = endpoint
        self.declaration = declaration
        self.requestType = requestType
    }

    /// The request type's name, for messages only: printing a type name costs about 0.2 ms the first time, which
    /// a declaration without mistakes never pays.
    var requestTypeName: String {
        requestType == Void.self ? "the endpoint" : String(describing: requestType)
    }

    /// A field as the planner sees it: from a request value (`name` known) or from the type alone (`name` is
    /// `nil` when the wrapper was given an explicit name we cannot read without a value).
    struct FieldDescription {
        let label: String
        let kind: ParameterKind?
        let name: String?
        /// The wrapped value's type, when the field is a parameter.
        var valueType: Any.Type? = nil
        /// Whether the wrapper was given a name argument (`false` when only the type is known).
        var isNamedExplicitly = false
    }

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
                    label: field.label, kind: parameterType?.kind,
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
                    label: label, kind: parameter.map { type(of: $0).kind },
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
                return .init(label: field.label, kind: parameterType?.kind, name: nil, valueType: parameterType?.valueType)
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
        var planner = RequestPlanner(endpoint: endpoint, declaration: declaration, requestType: requestType)
        let template = planner.checkTemplate()
        planner.checkMethod()
        let staticHeaders = planner.checkStaticHeaders()
        var bodyStyle = RequestPlan.BodyStyle.none
        var fields: [CheckedField] = []
        if let descriptions {
            fields = planner.checkFields(descriptions)
            planner.checkNames(fields)
            let hasURL = planner.checkURL(fields, descriptions)
            if let template, !hasURL { planner.checkPlaceholders(template, fields) }
            bodyStyle = planner.checkBody(fields)
        } else {
            planner.checkRequestType(requestType, valueSeen: reader.isPlanned)
        }
        planner.checkOtherHosts()
        planner.checkTimeout()
        planner.checkResponse(responseType)
        guard planner.issues.isEmpty, let template, descriptions != nil else { throw DeclarationError(issues: planner.issues) }
        return RequestPlan(
            endpoint: endpoint, template: template, requestType: ObjectIdentifier(requestType),
            fields: fields.map { RequestPlan.Field(property: $0.property, kind: $0.kind, name: $0.name ?? $0.property) },
            reader: reader, bodyStyle: bodyStyle, staticHeaders: staticHeaders, timeout: declaration.timeout,
            responseDestination: ResponseDecoding.destination(for: responseType), otherHosts: declaration.otherHosts
        )
    }

    static func propertyName(_ label: String) -> String {
        label.hasPrefix("_") ? String(label.dropFirst()) : label
    }

    /// A parameter field during validation; `name` is `nil` when only the type is known.
    struct CheckedField {
        let property: String
        let kind: ParameterKind
        let name: String?
    }

    private mutating func report(_ problem: String, fix: String, field: String? = nil) {
        issues.append(DeclarationError.Issue(endpoint: endpoint, field: field, problem: problem, fix: fix))
    }

    private mutating func checkTemplate() -> PathTemplate? {
        // No path: a @Url field gives it on each call, which checkURL makes sure of.
        if declaration.template.isEmpty { return PathTemplate(pieces: [], placeholders: [], staticQuery: nil, staticQueryItems: []) }
        switch PathTemplate.parse(declaration.template) {
        case .success(let template):
            return template
        case .failure(let list):
            for item in list.items { report(item.problem, fix: item.fix) }
            return nil
        }
    }

    /// A method of the user's own must be a token (RFC 9110 §9.1), or the request line would be malformed.
    private mutating func checkMethod() {
        let name = declaration.method.rawValue
        let fix = "name the method with letters, digits and !#$%&'*+-.^_`|~ only, such as PROPFIND"
        if name.isEmpty { return report("the method name is empty", fix: fix) }
        if let byte = name.utf8.first(where: { !HeaderRules.isTokenCharacter($0) }) {
            report(
                "method '\(name)' contains \(HeaderRules.describe(byte)), which is not allowed in a method name (an RFC 9110 token)",
                fix: fix)
        }
    }

    private mutating func checkStaticHeaders() -> [HttpHeader] {
        var seen: [String: String] = [:]
        return declaration.headers.sorted { $0.key < $1.key }.compactMap { name, value in
            if let problem = HeaderRules.problem(inName: name) ?? HeaderRules.problem(inValue: value) {
                report("static header '\(name)': \(problem)", fix: "correct the header in the endpoint's headers argument")
                return nil
            }
            // Header names are case-insensitive (RFC 9110 §5.1): two keys differing only in case are one field,
            // refused as two @Header fields of such names are, rather than one value silently dropped.
            if let first = seen[HeaderName.key(name)] {
                report(
                    "static headers '\(first)' and '\(name)' name the same field (header names are case-insensitive)",
                    fix: "keep one of them; to send several values, join them with \", \" in one header"
                )
                return nil
            }
            seen[HeaderName.key(name)] = name
            return HttpHeader(name: name, value: value)
        }
    }

    private mutating func checkFields(_ descriptions: [FieldDescription]) -> [CheckedField] {
        descriptions.compactMap { field in
            guard let kind = field.kind else {
                report(
                    "'\(field.label)' of \(requestTypeName) is not a request parameter",
                    fix:
                        "mark it @Query, @Header, @Path, @JsonBody, @FormParam, @FormFile, @QueryMap, @HeaderMap or @FormMap, "
                        + "or make it a computed property",
                    field: field.label
                )
                return nil
            }
            if kind.mapEntryKind != nil, let valueType = field.valueType, !(valueType is any StringKeyedEntries.Type) {
                report(
                    "\(kind.rawValue) '\(Self.propertyName(field.label))' has type \(valueType), not a dictionary with String keys",
                    fix: "declare it as [String: Value], such as [String: String] or [String: [String]]",
                    field: Self.propertyName(field.label)
                )
            }
            if kind.mapEntryKind != nil, field.isNamedExplicitly {
                report(
                    "\(kind.rawValue) '\(Self.propertyName(field.label))' is given the name '\(field.name ?? "")', but a map's "
                        + "keys are its names",
                    fix: "drop the name argument; to send one value under that name, declare a \(kind.mapEntryKind?.rawValue ?? "") field",
                    field: Self.propertyName(field.label)
                )
            }
            return CheckedField(property: Self.propertyName(field.label), kind: kind, name: field.name)
        }
    }

    private mutating func checkNames(_ fields: [CheckedField]) {
        var seen: [String: CheckedField] = [:]
        // A map's entries are named by its keys, checked when they are sent.
        for field in fields where field.kind.mapEntryKind == nil && field.kind != .url {
            guard let name = field.name else { continue }
            if name.isEmpty {
                report(
                    "\(field.kind.rawValue) name is empty", fix: "give the field a name, or drop the empty argument", field: field.property)
                continue
            }
            if field.kind == .header, let problem = HeaderRules.problem(inName: name) {
                report("\(problem)", fix: "use a valid header name such as 'X-Account-Id'", field: field.property)
            }
            let key = namespace(field.kind, name, field.property)
            if let first = seen[key] {
                report(
                    "\(field.kind.rawValue) name '\(name)' is already used by '\(first.property)'",
                    fix: "give each field its own name; for repeated values use one array field", field: field.property
                )
            } else {
                seen[key] = field
            }
        }
    }

    // Form params and files share one form; header names are case-insensitive.
    private func namespace(_ kind: ParameterKind, _ name: String, _ property: String) -> String {
        switch kind {
        case .header: return "header:" + HeaderName.key(name)
        case .formParam, .formFile, .formFileList: return "form:" + name
        case .jsonBody: return "body:" + property
        default: return "\(kind.rawValue):" + name
        }
    }

    // When only the type is known, a path field's name may be unknown; then only certain mistakes are reported.
    private mutating func checkPlaceholders(_ template: PathTemplate, _ fields: [CheckedField]) {
        let pathFields = fields.filter { $0.kind == .path }
        let namesKnown = pathFields.allSatisfy { $0.name != nil }
        for name in template.placeholders where !pathFields.contains(where: { $0.name == name }) && (namesKnown || pathFields.isEmpty) {
            report(
                "placeholder {\(name)} has no @Path field",
                fix:
                    "add `@Path(\"\(name)\") var \(Self.camelCase(name)): String = \"\"` to \(requestTypeName), or remove {\(name)} from the path"
            )
        }
        for field in pathFields where field.name.map({ !template.placeholders.contains($0) }) ?? template.placeholders.isEmpty {
            let name = field.name ?? field.property
            report(
                "@Path name '\(name)' matches no placeholder in '\(declaration.template)'",
                fix: "add {\(name)} to the path, or rename the field to one of its placeholders", field: field.property
            )
        }
    }

    /// Checks the `@Url` field against the declared path and the other fields; returns whether there is one.
    private mutating func checkURL(_ fields: [CheckedField], _ descriptions: [FieldDescription]) -> Bool {
        let urlFields = fields.filter { $0.kind == .url }
        guard let url = urlFields.first else {
            let example = "@\(Self.markerName(declaration.method))(\"/items\")"
            if declaration.template.isEmpty && requestType == Void.self {
                report(
                    "the endpoint has no path, and no request whose @Url field could give one", fix: "give it a path, such as \(example)")
            } else if declaration.template.isEmpty {
                report(
                    "the endpoint has no path and \(requestTypeName) has no @Url field",
                    fix: "give the endpoint a path, such as \(example), or add `@Url var url: String = \"\"` to the request"
                )
            }
            if declaration.otherHosts != .refused {
                report(
                    "otherHosts: is set, but \(requestTypeName) has no @Url field, so every call goes to the base URL",
                    fix: "drop otherHosts:, or add a @Url field to the request"
                )
            }
            return false
        }
        if urlFields.count > 1 {
            report(
                "\(urlFields.count) @Url fields (\(urlFields.map { "'\($0.property)'" }.joined(separator: ", "))); a call has one URL",
                fix: "keep one of them"
            )
        }
        if !declaration.template.isEmpty {
            report(
                "@Url '\(url.property)' on an endpoint declared with the path '\(declaration.template)'; the @Url field gives "
                    + "the whole path",
                fix: "declare the endpoint without a path, as @\(Self.markerName(declaration.method))(), or drop the @Url field",
                field: url.property
            )
        }
        for field in fields where field.kind == .path {
            report(
                "@Path '\(field.property)' has no placeholder to fill: the path comes from @Url '\(url.property)'",
                fix: "put the value into the URL, or declare a path template instead of the @Url field", field: field.property
            )
        }
        for description in descriptions where description.kind == .url {
            let property = Self.propertyName(description.label)
            if let valueType = description.valueType, !Self.urlValueTypes.contains(where: { $0 == valueType }) {
                report(
                    "@Url '\(property)' has type \(valueType), which is not a URL",
                    fix: "declare it as String or URL", field: property
                )
            }
            if description.isNamedExplicitly {
                report(
                    "@Url '\(property)' is given the name '\(description.name ?? "")', but a URL is not sent under a name",
                    fix: "drop the name argument", field: property
                )
            }
        }
        return true
    }

    private static let urlValueTypes: [Any.Type] = [String.self, String?.self, URL.self, URL?.self, Substring.self]

    /// `Get` for `GET`, and so on; custom methods have a marker of the user's own, named here by the method.
    private static func markerName(_ method: HttpMethod) -> String {
        method.rawValue.prefix(1) + method.rawValue.dropFirst().lowercased()
    }

    /// `otherHosts:` names host names only, and only an endpoint with a `@Url` field can use it.
    private mutating func checkOtherHosts() {
        for host in declaration.otherHosts.malformedHosts {
            report(
                "otherHosts lists '\(host)', which is not a host name",
                fix: "list host names only, such as 'cdn.example.com', without scheme, port or path"
            )
        }
    }

    /// A timeout is a positive number of seconds; `.infinity` means none (transports cap it at a year).
    private mutating func checkTimeout() {
        guard let timeout = declaration.timeout, let problem = TimeoutRule.problem(in: timeout) else { return }
        report("timeout \(problem)", fix: "give a positive number of seconds, or .infinity for no timeout")
    }

    private mutating func checkBody(_ fields: [CheckedField]) -> RequestPlan.BodyStyle {
        let bodies = fields.filter { $0.kind == .jsonBody || $0.kind == .rawBody }
        let form = fields.filter { $0.kind == .formParam || $0.kind.sendsFiles || $0.kind == .formMap }
        if bodies.count > 1 {
            let allJSON = bodies.allSatisfy { $0.kind == .jsonBody }
            report(
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
            report(
                "\(body.kind.rawValue) '\(body.property)' together with form field '\(form[0].property)'; a request has one body",
                fix: body.kind == .jsonBody
                    ? "send the values either as JSON or as form fields, not both" : "send either the raw body or form fields, not both"
            )
        }
        if let body = bodies.first, declaration.formEncoding == .multipart {
            report(
                "\(body.kind.rawValue) on an endpoint declared with formEncoding: .multipart",
                fix: "use @FormParam fields, or drop formEncoding")
        }
        if bodies.isEmpty && form.isEmpty && declaration.formEncoding == .multipart {
            report(
                "formEncoding: .multipart but no @FormParam or @FormFile field; a multipart body needs at least one part (RFC 2046)",
                fix: "add the form fields, or drop formEncoding"
            )
        }
        let style: RequestPlan.BodyStyle
        if let body = bodies.first {
            style = body.kind == .jsonBody ? .json : .raw
        } else if declaration.formEncoding == .multipart || form.contains(where: { $0.kind.sendsFiles }) {
            style = .multipart
        } else {
            style = form.isEmpty ? .none : .formURLEncoded
        }
        if style != .none && !declaration.method.allowsBody {
            let standard = HttpMethod.allCases.contains(declaration.method)
            report(
                "a \(declaration.method.rawValue) request cannot have a body",
                fix: standard
                    ? "send the values as @Query fields, or declare the endpoint with @Post, @Put or @Patch"
                    : "send the values as @Query fields, or make the method with allowsBody: true"
            )
        }
        return style
    }

    /// A request type whose fields cannot be read: refused, unless it is one that only a value can tell about.
    private mutating func checkRequestType(_ type: Any.Type, valueSeen: Bool) {
        let fix = "declare a struct whose stored properties are @Query, @Header, @Path, @JsonBody, @FormParam or @FormFile fields"
        switch RequestTypeKind(of: type) {
        case .struct, .class, .existential:
            // Known only by type (validateEndpoints): the fields of each value's own type are checked on its first
            // call. With a value in hand these kinds were read above, so reaching here means the runtime could not.
            guard valueSeen else { return }
            report("the stored properties of request type \(type) cannot be read", fix: fix)
        case .optional:
            report(
                "request type \(type) is optional",
                fix: "declare the endpoint with the wrapped type and always pass a value"
            )
        case .enum: report("request type \(type) is an enum; RetroSwift reads a request's fields from a struct", fix: fix)
        case .tuple: report("request type \(type) is a tuple; RetroSwift reads a request's fields from a struct", fix: fix)
        case .function, .metatype, .other:
            report("request type \(type) is not a struct; RetroSwift reads a request's fields from a struct", fix: fix)
        }
    }

    private mutating func checkResponse(_ responseType: Any.Type) {
        guard !ResponseDecoding.supports(responseType) else { return }
        report(
            "response type \(responseType) is not Decodable",
            fix: "make it Decodable, or declare Empty, Data, String or Either<Response, ErrorResponse>"
        )
    }

    private static func camelCase(_ name: String) -> String {
        let words = name.split(whereSeparator: { $0 == "_" || $0 == "-" || $0 == "." })
        guard let first = words.first else { return "value" }
        return first.lowercased() + words.dropFirst().map { $0.prefix(1).uppercased() + $0.dropFirst() }.joined()
    }
}
