import Foundation

/// Turns one request value into ``HttpRequestParams`` by following its ``RequestPlan``.
struct RequestBuilder {
    let plan: RequestPlan
    let settings: DomainSettings

    /// Encoded path values by placeholder name; a few at most, so an array beats a dictionary.
    private var pathValues: [(name: String, value: String)] = []
    private var queryItems: [HttpQueryItem] = []
    private var headers: [HttpHeader] = []
    private var jsonBody: Data?
    /// Form fields and files in declaration order, which multipart keeps.
    private var form: [MultipartFormBody.Part] = []

    init(plan: RequestPlan, settings: DomainSettings) {
        self.plan = plan
        self.settings = settings
        self.queryItems = plan.template.staticQueryItems
        self.headers = plan.staticHeaders
        // Room for every field up front: growing these arrays one append at a time was several allocations per call.
        var counts = (path: 0, query: 0, header: 0)
        for field in plan.fields {
            switch field.kind {
            case .path: counts.path += 1
            case .query: counts.query += 1
            case .header: counts.header += 1
            default: break
            }
        }
        pathValues.reserveCapacity(counts.path)
        queryItems.reserveCapacity(queryItems.count + counts.query)
        headers.reserveCapacity(headers.count + counts.header)
    }

    static func build<Request>(_ request: Request, plan: RequestPlan, settings: DomainSettings) throws -> HttpRequestParams {
        var builder = RequestBuilder(plan: plan, settings: settings)
        if let access = plan.access {
            try withUnsafeBytes(of: request) { bytes in
                guard let base = bytes.baseAddress else { return }
                for (field, location) in zip(plan.fields, access) {
                    switch field.kind {
                    case .path, .query, .header, .formParam:
                        if let single = location.type.singleString(in: base, at: location.offset) {
                            if let single {
                                try builder.add(strings: CollectionOfOne(single), for: field)
                            } else {
                                try builder.add(strings: EmptyCollection(), for: field)
                            }
                        } else {
                            try builder.add(location.type.value(in: base, at: location.offset), for: field)
                        }
                    case .jsonBody, .formFile:
                        try builder.add(location.type.value(in: base, at: location.offset), for: field)
                    }
                }
            }
        } else {
            for (field, child) in zip(plan.fields, Mirror(reflecting: request).children) {
                // The plan was made from this type, so every child is a parameter; the cast only opens the existential.
                guard let parameter = child.value as? any RequestParameter else { continue }
                try builder.add(parameter.anyValue, for: field)
            }
        }
        return try builder.params()
    }

    private mutating func add(_ value: Any, for field: RequestPlan.Field) throws {
        switch field.kind {
        case .path, .query, .header, .formParam: try add(strings: strings(value, field), for: field)
        case .jsonBody: jsonBody = try encodeJSON(value, field)
        case .formFile: try addFile(value, field)
        }
    }

    private mutating func add<Values: Collection<String>>(strings values: Values, for field: RequestPlan.Field) throws {
        switch field.kind {
        case .path: pathValues.append((field.name, try pathSegment(values, field)))
        case .query: for value in values { queryItems.append(HttpQueryItem(name: field.name, value: value)) }
        case .header: try addHeader(values, field)
        case .formParam:
            form += values.map { .init(name: field.name, fileName: nil, mimeType: nil, content: .text($0)) }
        case .jsonBody, .formFile: preconditionFailure("not a string field")
        }
    }

    private func strings(_ value: Any, _ field: RequestPlan.Field) throws -> [String] {
        do {
            return try ParameterValues.strings(from: value)
        } catch .unsupported(let typeName) {
            throw invalid(field, "values of type \(typeName) cannot be sent; conform it to ParameterValueConvertible")
        } catch .nested {
            throw invalid(field, "nested arrays cannot be sent; flatten the array")
        }
    }

    private func pathSegment<Values: Collection<String>>(_ values: Values, _ field: RequestPlan.Field) throws -> String {
        guard values.count == 1, let text = values.first else {
            throw invalid(field, values.isEmpty ? "path value is nil" : "path value is an array; a placeholder takes one value")
        }
        if text.isEmpty { throw invalid(field, "path value is empty, which would change the path") }
        if text == "." || text == ".." { throw invalid(field, "path value '\(text)' is not allowed (path traversal)") }
        return PercentEncoding.encode(text, allowing: PercentEncoding.pathSegment)
    }

    private mutating func addHeader<Values: Collection<String>>(_ values: Values, _ field: RequestPlan.Field) throws {
        guard !values.isEmpty else { return }
        let joined = values.joined(separator: ", ")
        if let problem = HeaderRules.problem(inValue: joined) { throw invalid(field, problem) }
        // A request field overrides the endpoint's static header of the same name.
        let lowered = field.name.lowercased()
        headers.removeAll { $0.name.lowercased() == lowered }
        headers.append(HttpHeader(name: field.name, value: joined))
    }

    private func encodeJSON(_ value: Any, _ field: RequestPlan.Field) throws -> Data? {
        if let optional = value as? any OptionalValue, optional.wrappedAny == nil { return nil }
        guard let encodable = value as? any Encodable else {
            throw invalid(field, "\(type(of: value)) is not Encodable")
        }
        do {
            return try settings.jsonEncoder.encode(encodable)
        } catch {
            throw RequestError(
                .unencodableBody, endpoint: plan.endpoint, field: field.property,
                reason: "the JSON body could not be encoded: \(error)", underlyingError: error
            )
        }
    }

    private mutating func addFile(_ value: Any, _ field: RequestPlan.Field) throws {
        guard let file = value as? FormFile.File, !file.isEmpty else { return }
        if let problem = HeaderRules.problem(inValue: file.mimeType) { throw invalid(field, "MIME type: \(problem)") }
        form.append(MultipartFormBody.Part(name: field.name, fileName: file.fileName, mimeType: file.mimeType, content: file.content))
    }

    private func invalid(_ field: RequestPlan.Field, _ reason: String) -> RequestError {
        RequestError(.invalidValue, endpoint: plan.endpoint, field: field.property, reason: reason)
    }

    private func params() throws -> HttpRequestParams {
        HttpRequestParams(
            method: plan.endpoint.method, encodedPath: encodedPath(), encodedQuery: encodedQuery(),
            queryItems: queryItems, headers: headers, body: body(), timeout: plan.timeout ?? settings.timeout,
            responseDestination: plan.responseDestination, endpoint: plan.endpoint
        )
    }

    private func encodedPath() -> String {
        var path = ""
        for piece in plan.template.pieces {
            switch piece {
            case .literal(let text): path += text
            case .placeholder(let name): path += pathValues.first { $0.name == name }?.value ?? ""
            }
        }
        return path
    }

    private func encodedQuery() -> String? {
        // Appended into one string: a parts array and `joined` cost two allocations more.
        var query = plan.template.staticQuery ?? ""
        var hasQuery = plan.template.staticQuery != nil
        for item in queryItems.dropFirst(plan.template.staticQueryItems.count) {
            if hasQuery { query += "&" }
            hasQuery = true
            query += PercentEncoding.encode(item.name, allowing: PercentEncoding.queryComponent)
            query += "="
            query += PercentEncoding.encode(item.value, allowing: PercentEncoding.queryComponent)
        }
        return hasQuery ? query : nil
    }

    private func body() -> HttpRequestBody? {
        switch plan.bodyStyle {
        case .none:
            return nil
        case .json:
            return jsonBody.map { HttpRequestBody(contentType: "application/json", content: .data($0)) }
        case .formURLEncoded:
            let encoded = form.compactMap { part -> String? in
                guard case .text(let value) = part.content else { return nil }
                return PercentEncoding.encode(part.name, allowing: PercentEncoding.formComponent, spaceAsPlus: true) + "="
                    + PercentEncoding.encode(value, allowing: PercentEncoding.formComponent, spaceAsPlus: true)
            }
            return HttpRequestBody(
                contentType: "application/x-www-form-urlencoded; charset=utf-8",
                content: .data(Data(encoded.joined(separator: "&").utf8))
            )
        case .multipart:
            let multipart = MultipartFormBody(boundary: settings.multipartBoundary(), parts: form)
            return HttpRequestBody(contentType: multipart.contentType, content: .multipart(multipart))
        }
    }
}
