import Foundation

/// The path a parent binds before a nested domain's endpoints (``Domain/init(parent:path:values:)``), checked and
/// encoded once, when the nested domain is made; a mistake is kept and thrown by each of its calls.
final class PathPrefix: Sendable {
    /// The paths as declared, outermost first: `/repos/{owner}/{name}`.
    let template: String
    /// The placeholders bound along the way, which the nested endpoints' own paths may not use again.
    let placeholders: [String]
    /// The encoded path, or why there is none.
    let encoded: Result<String, Problem>

    enum Problem: Error {
        /// A mistake in the declared path or its values' names: a ``DeclarationError``.
        case declaration([(problem: String, fix: String)])
        /// A value that cannot fill its placeholder (nil, empty, `..`): a ``RequestError`` naming it.
        case value(placeholder: String, reason: String)
    }

    init(parent: PathPrefix?, path: String, values: [String: Any]) {
        template = (parent?.template ?? "") + path
        let outer = parent?.placeholders ?? []
        let parsed: PathTemplate
        switch PathTemplate.parse(path) {
        case .success(let template):
            parsed = template
        case .failure(let list):
            placeholders = outer
            encoded = .failure(.declaration(list.items.map { ($0.problem, $0.fix) }))
            return
        }
        placeholders = outer + parsed.placeholders
        var mistakes: [(problem: String, fix: String)] = []
        if parsed.staticQuery != nil || path.hasSuffix("?") {
            mistakes.append(("the nested path '\(path)' has a query", "declare query items on the endpoints, or with @Query fields"))
        }
        let pathPart = path.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false)[0]
        if pathPart.count > 1, pathPart.hasSuffix("/") {
            mistakes.append(("the nested path '\(path)' ends with '/', which would double the endpoints' own", "drop the last '/'"))
        }
        for name in parsed.placeholders where values[name] == nil {
            mistakes.append(("placeholder {\(name)} of the nested path '\(path)' has no value", "pass values: [\"\(name)\": ...]"))
        }
        for name in values.keys.sorted() where !parsed.placeholders.contains(name) {
            mistakes.append(
                ("value '\(name)' matches no placeholder of the nested path '\(path)'", "add {\(name)} to the path, or drop the value"))
        }
        for name in parsed.placeholders where outer.contains(name) {
            mistakes.append(
                (
                    "placeholder {\(name)} of '\(path)' is already bound by the enclosing path '\(parent?.template ?? "")'",
                    "rename one of them"
                ))
        }
        guard mistakes.isEmpty else {
            encoded = .failure(.declaration(mistakes))
            return
        }
        var path = ""
        for piece in parsed.pieces {
            switch piece {
            case .literal(let text):
                path += text
            case .placeholder(let name):
                let strings = (try? ParameterValues.strings(from: values[name] as Any)) ?? []
                switch RequestBuilder.pathSegment(strings) {
                case .success(let segment): path += segment
                case .failure(let problem):
                    encoded = .failure(.value(placeholder: name, reason: problem.reason))
                    return
                }
            }
        }
        switch parent?.encoded {
        case .failure(let problem)?: encoded = .failure(problem)
        case .success(let outerPath)?: encoded = .success(outerPath + path)
        case nil: encoded = .success(path)
        }
    }

    /// The declaration mistakes that calls of an endpoint with this path template would throw: the prefix's own, and
    /// placeholders the endpoint's path uses again.
    func issues(for endpoint: EndpointIdentity) -> [DeclarationError.Issue] {
        var issues: [DeclarationError.Issue] = []
        if case .failure(.declaration(let mistakes)) = encoded {
            issues += mistakes.map { DeclarationError.Issue(endpoint: endpoint, field: nil, problem: $0.problem, fix: $0.fix) }
        }
        for name in placeholders where endpoint.template.contains("{\(name)}") {
            issues.append(
                DeclarationError.Issue(
                    endpoint: endpoint, field: nil,
                    problem: "placeholder {\(name)} is already bound by the enclosing path '\(template)'",
                    fix: "rename the endpoint's placeholder"))
        }
        return issues
    }

    /// Puts the prefix before the request's path (a full `@Url` URL is left as it is), or throws why it cannot.
    func apply(to params: inout HttpRequestParams) throws {
        let issues = issues(for: params.endpoint)
        if !issues.isEmpty { throw DeclarationError(issues: issues) }
        switch encoded {
        case .success(let prefix):
            if params.absoluteURL == nil { params.encodedPath = prefix + params.encodedPath }
        case .failure(.value(let placeholder, let reason)):
            throw RequestError(
                .invalidValue, endpoint: params.endpoint, field: placeholder,
                reason: "the nested path '\(template)': \(reason); nothing was sent")
        case .failure(.declaration):
            break  // reported above
        }
    }
}
