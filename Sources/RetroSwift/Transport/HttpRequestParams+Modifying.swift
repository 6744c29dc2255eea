extension HttpRequestParams {
    /// A copy with header `name` set to `value`, replacing any of the same name (compared case-insensitively).
    ///
    /// Throws ``RequestError`` when the name or value could not be sent safely (CR, LF, control characters).
    public func settingHeader(_ name: String, to value: String) throws -> HttpRequestParams {
        if let problem = HeaderRules.problem(inName: name) ?? HeaderRules.problem(inValue: value) {
            throw RequestError(.invalidValue, endpoint: endpoint, field: name, reason: problem)
        }
        var copy = removingHeader(name)
        copy.headers.append(HttpHeader(name: name, value: value))
        return copy
    }

    /// A copy without header `name` (compared case-insensitively).
    public func removingHeader(_ name: String) -> HttpRequestParams {
        var copy = self
        copy.headers.removeAll { HeaderName.matches($0.name, name) }
        return copy
    }

    /// The value of the request's own header `name` (compared case-insensitively).
    public func header(_ name: String) -> String? {
        return headers.last { HeaderName.matches($0.name, name) }?.value
    }
}
