import Foundation

/// Turns one request value into ``HttpRequestParams`` by following its ``RequestPlan``.
struct RequestBuilder {
    let plan: RequestPlan
    let settings: DomainSettings

    /// Encoded path values by placeholder name; a few at most, so an array beats a dictionary.
    private var pathValues: [(name: String, value: String)] = []
    private var queryItems: [HTTPQueryItem] = []
    private var headers: [HTTPHeader] = []
    private var jsonBody: Data?
    /// The `@Body` converter's media type; `nil` for JSON.
    private var bodyContentType: String?
    private var rawBody: RequestPayload?
    /// Form fields and files in declaration order, which multipart keeps.
    private var form: [MultipartFormBody.Part] = []
    /// The `@Url` field's value and the field, when the endpoint has one; boxed, so other calls carry one empty
    /// pointer.
    private var dynamicURL: DynamicURLField?

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

    /// Builds the request for `request`, whose static type `T` must be exactly the type `plan` was made for.
    static func build<T>(_ request: T, plan: RequestPlan, settings: DomainSettings) throws -> HttpRequestParams {
        var builder = RequestBuilder(plan: plan, settings: settings)
        guard plan.requestType == ObjectIdentifier(T.self) else { throw builder.planMismatch(T.self) }
        switch plan.reader {
        case .none:
            break
        case .structFields(let slots):
            let read: Bool
            do {
                read = try UnsafeStructMemory.visitParameters(of: request, slots: slots, with: &builder)
            } catch is UnsafeStructMemory.SlotOutOfBounds {
                read = false
            }
            guard read else { throw builder.planMismatch(T.self) }
        case .classMirror:
            let parameters = ClassRequestFields.parameters(of: request)
            guard parameters.count == plan.fields.count else { throw builder.planMismatch(T.self) }
            for (slot, field) in parameters.enumerated() {
                guard let parameter = field.parameter else { throw builder.planMismatch(T.self) }
                try builder.visit(parameter, slot: slot)
            }
        case .unplanned:
            throw builder.planMismatch(T.self)
        }
        return try builder.params()
    }

    /// A request that does not match its own plan; only a bug in RetroSwift can cause it.
    private func planMismatch(_ type: Any.Type) -> RequestError {
        RequestError(
            .invalidValue, endpoint: plan.endpoint,
            reason:
                "a value of type \(type) does not match the plan made for its type; nothing was sent (please report this RetroSwift bug)"
        )
    }

    /// The wire strings of a field's value, with the endpoint and field named if the value cannot be sent.
    func wireStrings<Value>(of value: Value, for field: RequestPlan.Field) throws -> ParameterValues.WireStrings {
        do {
            return try ParameterValues.wireStrings(of: value)
        } catch {
            throw invalid(field, error)
        }
    }

    private func invalid(_ field: RequestPlan.Field, _ failure: ParameterValues.Failure) -> RequestError {
        switch failure {
        case .unsupported(let typeName):
            invalid(field, "values of type \(typeName) cannot be sent; conform it to ParameterValueConvertible")
        case .nested:
            invalid(field, "nested arrays cannot be sent; flatten the array")
        case .unrepresentable(let reason):
            invalid(field, reason)
        }
    }

    /// Adds the entries of a `@QueryMap`, `@HeaderMap` or `@FormMap` in key order, each as a field of the kind the
    /// map stands for, named by its key; errors name the map and the key.
    mutating func addMap<Value>(_ value: Value, for field: RequestPlan.Field) throws {
        guard let entryKind = field.kind.mapEntryKind, let map = value as? any StringKeyedEntries else {
            throw planMismatch(Value.self)
        }
        guard let entries = map.entriesInKeyOrder else { return }
        var headerKeys: [String: String] = [:]
        for (key, entryValue) in entries {
            let entry = RequestPlan.Field(property: "\(field.property)[\"\(key)\"]", kind: entryKind, name: key)
            if key.isEmpty { throw invalid(entry, "the key is empty; every entry needs a name") }
            if entryKind == .header, let problem = HeaderRules.problem(inName: key) { throw invalid(entry, problem) }
            if entryKind == .header, let other = headerKeys.updateValue(key, forKey: HeaderName.key(key)) {
                throw invalid(entry, "'\(key)' and '\(other)' name the same header (header names are case-insensitive)")
            }
            if let declared = plan.fields.first(where: { Self.names($0, key, as: entryKind) }) {
                throw invalid(
                    entry,
                    "'\(key)' is also the name of \(declared.kind.rawValue) '\(declared.property)'; send it through one of them")
            }
            if entryKind == .header, let other = headers.first(where: { HeaderName.matches($0.name, key) }),
                !plan.staticHeaders.contains(where: { HeaderName.matches($0.name, key) })
            {
                throw invalid(entry, "'\(key)' and '\(other.name)' name the same header (header names are case-insensitive)")
            }
            let strings: [String]
            do {
                strings = try ParameterValues.strings(from: entryValue)
            } catch {
                throw invalid(entry, error)
            }
            try add(strings: strings, for: entry)
        }
    }

    /// Whether the declared `field` sends the name `key` where a map entry of `kind` would.
    private static func names(_ field: RequestPlan.Field, _ key: String, as kind: ParameterKind) -> Bool {
        switch (kind, field.kind) {
        case (.query, .query): field.name == key
        case (.header, .header): HeaderName.matches(field.name, key)
        case (.formParam, .formParam), (.formParam, .formFile), (.formParam, .formFileList): field.name == key
        default: false
        }
    }

    /// Adds the wire strings of a `@Path`, `@Query`, `@Header` or `@FormParam` field.
    mutating func add(_ strings: ParameterValues.WireStrings, for field: RequestPlan.Field) throws {
        switch strings {
        case .none: try add(strings: EmptyCollection(), for: field)
        case .one(let string): try add(strings: CollectionOfOne(string), for: field)
        case .many(let strings): try add(strings: strings, for: field)
        }
    }

    private mutating func add<Values: Collection<String>>(strings values: Values, for field: RequestPlan.Field) throws {
        switch field.kind {
        case .path: pathValues.append((field.name, try pathSegment(values, field)))
        case .query: for value in values { queryItems.append(HTTPQueryItem(name: field.name, value: value)) }
        case .header: try addHeader(values, field)
        case .formParam:
            form += values.map { .init(name: field.name, fileName: nil, mimeType: nil, content: .text($0)) }
        case .url: dynamicURL = .init(url: try url(values, field), field: field)
        case .jsonBody, .body, .rawBody, .formFile, .formFileList, .queryMap, .headerMap, .formMap: throw planMismatch(type(of: values))
        }
    }

    private func url<Values: Collection<String>>(_ values: Values, _ field: RequestPlan.Field) throws -> DynamicURL {
        guard values.count == 1, let text = values.first else {
            throw invalid(field, values.isEmpty ? "the URL is nil; every call needs one" : "the URL is an array; a call has one URL")
        }
        switch DynamicURL.parse(text) {
        case .success(let url): return url
        case .failure(let problem): throw invalid(field, problem.reason)
        }
    }

    private func pathSegment<Values: Collection<String>>(_ values: Values, _ field: RequestPlan.Field) throws -> String {
        switch Self.pathSegment(values) {
        case .success(let segment): return segment
        case .failure(let problem): throw invalid(field, problem.reason)
        }
    }

    /// The one rule for a value that fills a path placeholder, a `@Path` field's or a nested domain's: exactly one
    /// non-empty string, not `.` or `..`, percent-encoded as one segment.
    static func pathSegment<Values: Collection<String>>(_ values: Values) -> Result<String, InvalidValue> {
        guard values.count == 1, let text = values.first else {
            return .failure(.init(reason: values.isEmpty ? "path value is nil" : "path value is an array; a placeholder takes one value"))
        }
        if text.isEmpty { return .failure(.init(reason: "path value is empty, which would change the path")) }
        if text == "." || text == ".." { return .failure(.init(reason: "path value '\(text)' is not allowed (path traversal)")) }
        return .success(PercentEncoding.encode(text, allowing: PercentEncoding.pathSegment))
    }

    private mutating func addHeader<Values: Collection<String>>(_ values: Values, _ field: RequestPlan.Field) throws {
        guard !values.isEmpty else { return }
        let joined = values.joined(separator: ", ")
        if let problem = HeaderRules.problem(inValue: joined) { throw invalid(field, problem) }
        // A request field overrides the endpoint's static header of the same name.
        headers.removeAll { HeaderName.matches($0.name, field.name) }
        headers.append(HTTPHeader(name: field.name, value: joined))
    }

    /// Sets the `@JsonBody`; a `nil` optional sends no body.
    mutating func setJSONBody<Value>(_ value: Value, for field: RequestPlan.Field) throws {
        if field.valueIsOptional, let optional = value as? any OptionalValue, optional.wrappedAny == nil { return }
        guard let encodable = value as? any Encodable else {
            throw invalid(field, "\(type(of: value)) is not Encodable")
        }
        // A @Body in a converter's format; with no converter chosen it is JSON, as a @JsonBody.
        let converter = field.kind == .body ? plan.converter ?? settings.converter : nil
        do {
            if let converter {
                jsonBody = try converter.encode(encodable)
                bodyContentType = converter.contentType
            } else {
                jsonBody = try settings.jsonEncoder.encode(encodable)
            }
        } catch {
            let format = converter.map { "\(type(of: $0))" } ?? "JSON"
            throw RequestError(
                .unencodableBody, endpoint: plan.endpoint, field: field.property,
                reason: "the \(format) body could not be encoded: \(Self.describe(encodingError: error))", underlyingError: error
            )
        }
    }

    /// `at 'when': the date ... cannot be sent` for an `EncodingError`, whose own description is a debug dump.
    private static func describe(encodingError error: any Error) -> String {
        guard case .invalidValue(_, let context) = error as? EncodingError else { return "\(error)" }
        let path = context.codingPath.reduce(into: "") { path, key in
            if let index = key.intValue { path += "[\(index)]" } else { path += (path.isEmpty ? "" : ".") + key.stringValue }
        }
        return (path.isEmpty ? "" : "at '\(path)': ") + context.debugDescription
    }

    /// Sets the `@RawBody`: its media type is the value's, else the declared one, else the value's default; `nil`
    /// sends no body.
    mutating func setRawBody(_ content: RawBodyContent?, declaredContentType: String?, for field: RequestPlan.Field) throws {
        guard let content else { return }
        let contentType = content.contentType ?? declaredContentType ?? content.defaultContentType
        if let problem = HeaderRules.problem(inValue: contentType) { throw invalid(field, "content type: \(problem)") }
        switch content.source {
        case .data(let data):
            rawBody = RequestPayload(contentType: contentType, content: .data(data))
        case .file(let url):
            try checkReadable(url, field)
            rawBody = RequestPayload(contentType: contentType, content: .file(url))
        case .stream(let stream):
            rawBody = RequestPayload(contentType: contentType, content: .stream(stream))
        }
    }

    /// A stat per file, so a missing file is a clear error before anything is sent, not a transport's error halfway
    /// through the upload.
    private func checkReadable(_ url: URL, _ field: RequestPlan.Field) throws {
        let type = (try? FileManager.default.attributesOfItem(atPath: url.path))?[.type] as? FileAttributeType
        guard url.isFileURL, let type, type != .typeDirectory, FileManager.default.isReadableFile(atPath: url.path) else {
            throw invalid(field, "the file '\(url.path)' does not exist, is a directory or cannot be read; nothing was sent")
        }
    }

    /// Adds one part per file of a `@FormFileList`, in order, all under the field's name.
    mutating func addFiles(_ files: [FormFile.File], for field: RequestPlan.Field) throws {
        for file in files { try addFile(file, for: field) }
    }

    /// Adds a `@FormFile` part; ``FormFile/File/empty`` adds none.
    mutating func addFile(_ file: FormFile.File, for field: RequestPlan.Field) throws {
        guard !file.isEmpty else { return }
        if let problem = HeaderRules.problem(inValue: file.mimeType) { throw invalid(field, "MIME type: \(problem)") }
        if case .file(let url) = file.content { try checkReadable(url, field) }
        form.append(MultipartFormBody.Part(name: field.name, fileName: file.fileName, mimeType: file.mimeType, content: file.content))
    }

    private func invalid(_ field: RequestPlan.Field, _ reason: String) -> RequestError {
        RequestError(.invalidValue, endpoint: plan.endpoint, field: field.property, reason: reason)
    }

    /// The request built from everything added so far, with the domain's base URL and shared headers as they were
    /// when the call started.
    func params() throws -> HttpRequestParams {
        if let problem = settings.target?.problem {
            throw RequestError(.transportNotConfigured, endpoint: plan.endpoint, reason: "the domain's \(problem); nothing was sent")
        }
        if plan.timeout == nil, let timeout = settings.timeout, let problem = TimeoutRule.problem(in: timeout) {
            throw RequestError(
                .transportNotConfigured, endpoint: plan.endpoint,
                reason: "the domain's timeout \(problem): give a positive number of seconds, or .infinity for none; nothing was sent")
        }
        // A @Url field's value stands in for the template: its path, then its own query before the fields'.
        let url = dynamicURL?.url
        let params = HttpRequestParams(
            method: plan.endpoint.method, encodedPath: url?.encodedPath ?? encodedPath(),
            encodedQuery: encodedQuery(after: url.map { $0.encodedQuery } ?? plan.template.staticQuery),
            queryItems: url?.encodedQuery.map { PathTemplate.decodedItems($0) + queryItems } ?? queryItems, headers: headersWithAccept(),
            payload: try body(), timeout: plan.timeout ?? settings.timeout, responseDestination: plan.responseDestination,
            endpoint: plan.endpoint, domainTarget: settings.target, responseLimits: settings.responseLimits
        )
        // Most calls have no @Url field: their request is returned as made, without a copy to change.
        guard let dynamicURL, let schemeAndAuthority = dynamicURL.url.schemeAndAuthority else { return params }
        // A full URL becomes the absolute URL, its origin still to be checked against the base URL's.
        let text = schemeAndAuthority + params.encodedPathAndQuery
        guard let absolute = URL(string: text) else { throw invalid(dynamicURL.field, "the URL '\(text)' is not a valid URL") }
        var pointed = params
        pointed.absoluteURL = absolute
        pointed.dynamicURLState = .pendingOriginCheck(field: dynamicURL.field.property, policy: plan.otherHosts)
        return pointed
    }

    /// The headers, with a chosen converter's media types as `Accept` unless a field or the declaration sent one.
    /// Without a chosen converter (JSON by the domain's coders) no `Accept` is added, so requests stay as they were
    /// before converters.
    private func headersWithAccept() -> [HTTPHeader] {
        guard let accept = plan.converter == nil ? settings.converterAccept : plan.converterAccept,
            !headers.contains(where: { HeaderName.matches($0.name, "Accept") })
        else { return headers }
        return headers + [HTTPHeader(name: "Accept", value: accept)]
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

    /// `prefix` (an already encoded query: the template's, or a `@Url` value's), then the query items the fields
    /// added, which come after the template's own.
    private func encodedQuery(after prefix: String?) -> String? {
        // Appended into one string: a parts array and `joined` cost two allocations more.
        var query = prefix ?? ""
        var hasQuery = prefix != nil
        for item in queryItems.dropFirst(plan.template.staticQueryItems.count) {
            if hasQuery { query += "&" }
            hasQuery = true
            query += PercentEncoding.encode(item.name, allowing: PercentEncoding.queryComponent)
            query += "="
            query += PercentEncoding.encode(item.value, allowing: PercentEncoding.queryComponent)
        }
        return hasQuery ? query : nil
    }

    private func body() throws -> RequestPayload? {
        switch plan.bodyStyle {
        case .none:
            return nil
        case .json:
            return jsonBody.map { RequestPayload(contentType: bodyContentType ?? "application/json", content: .data($0)) }
        case .raw:
            return rawBody
        case .formURLEncoded:
            let encoded = form.compactMap { part -> String? in
                guard case .text(let value) = part.content else { return nil }
                return PercentEncoding.encode(part.name, allowing: PercentEncoding.formComponent, spaceAsPlus: true) + "="
                    + PercentEncoding.encode(value, allowing: PercentEncoding.formComponent, spaceAsPlus: true)
            }
            return RequestPayload(
                contentType: "application/x-www-form-urlencoded; charset=utf-8",
                content: .data(Data(encoded.joined(separator: "&").utf8))
            )
        case .multipart:
            guard !form.isEmpty else {
                throw RequestError(
                    .invalidValue, endpoint: plan.endpoint,
                    reason: "a multipart body needs at least one part (RFC 2046), but every form field is nil or empty "
                        + "and every file is .empty; nothing was sent"
                )
            }
            let multipart = try MultipartFormBody(boundary: settings.multipartBoundary(), parts: form)
            return RequestPayload(contentType: multipart.contentType, content: .multipart(multipart))
        }
    }
}

extension RequestBuilder: ParameterSink {}

extension RequestBuilder: RequestParameterVisitor {
    mutating func visit<Parameter: RequestParameter>(_ parameter: Parameter, slot: Int) throws {
        guard plan.fields.indices.contains(slot) else { throw planMismatch(Parameter.self) }
        try parameter.write(to: &self, as: plan.fields[slot])
    }
}
