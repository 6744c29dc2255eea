import Foundation

/// The pipeline of ``Domain/invoke(_:path:arguments:body:returning:)``: the declared endpoints' plan, build, send and
/// decode, with a plan made for each call from its arguments instead of from a request type.
enum AdHocCall {
    enum Body {
        case raw(RawBodyContent?)
        case json(any Encodable)
    }

    nonisolated(nonsending) static func perform<Response>(
        _ domain: Domain, _ method: HTTPMethod, _ path: String, _ arguments: [String: Any], _ body: Body
    ) async throws -> Response {
        let settings = domain.settings.current
        let template = path.hasPrefix("/") ? path : "/" + path
        let endpoint = EndpointIdentity(domain: String(describing: type(of: domain)), name: "invoke", method: method, template: template)
        let params = try build(endpoint, arguments, body, Response.self, settings)
        let result = try await CallPipeline.send(params, of: domain, settings: settings, redirects: settings.redirectPolicy)
        return try ResponseDecodingContext(
            decoder: settings.jsonDecoder, endpoint: endpoint, responseLimits: settings.responseLimits, converter: settings.converter
        )
        .decode(Response.self, from: result)
    }

    /// Plans the call as if each argument were a declared `@Query` field (or `@Path`, when the path names it) and
    /// the body a `@RawBody` or `@JsonBody`, so every check of a declaration applies, then builds it.
    private static func build(
        _ endpoint: EndpointIdentity, _ arguments: [String: Any], _ body: Body, _ responseType: Any.Type,
        _ settings: DomainSettings
    ) throws -> HttpRequestParams {
        // A malformed path has no placeholders here; the planner reports it.
        let placeholders: Set<String> =
            if case .success(let template) = PathTemplate.parse(endpoint.template) { Set(template.placeholders) } else { [] }
        let sorted = arguments.sorted { $0.key < $1.key }
        var descriptions = sorted.map { name, _ in
            RequestPlanner.FieldDescription(label: name, kind: placeholders.contains(name) ? .path : .query, name: name)
        }
        let bodyKind: ParameterKind? =
            switch body {
            case .raw(nil): nil
            case .raw: .rawBody
            case .json: .jsonBody
            }
        if let bodyKind { descriptions.append(.init(label: "body", kind: bodyKind, name: "body")) }
        let declaration = EndpointDeclaration(
            method: endpoint.method, template: endpoint.template, timeout: nil, headers: [:], formEncoding: .automatic,
            redirects: nil, otherHosts: .refused)
        let plan = try RequestPlanner.plan(
            fields: descriptions, reader: .none, requestType: Void.self, endpoint: endpoint, declaration: declaration,
            responseType: responseType)
        var builder = RequestBuilder(plan: plan, settings: settings)
        for (field, (_, value)) in zip(plan.fields, sorted) {
            try builder.add(builder.wireStrings(of: value, for: field), for: field)
        }
        // The body, when there is one, was described last.
        switch (body, plan.fields.last) {
        case (.raw(let content?), let field?): try builder.setRawBody(content, declaredContentType: nil, for: field)
        case (.json(let value), let field?): try builder.setJSONBody(value, for: field)
        default: break
        }
        return try builder.params()
    }
}
