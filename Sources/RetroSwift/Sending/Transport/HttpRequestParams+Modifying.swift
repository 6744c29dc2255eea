import Foundation

extension HttpRequestParams {
    /// A copy with header `name` set to `value`, replacing any of the same name (compared case-insensitively).
    ///
    /// Throws ``RequestError`` when the name or value could not be sent safely (CR, LF, control characters).
    public func settingHeader(_ name: String, to value: String) throws -> HttpRequestParams {
        if let problem = HeaderRules.problem(inName: name) ?? HeaderRules.problem(inValue: value) {
            throw RequestError(.invalidValue, endpoint: endpoint, field: name, reason: problem)
        }
        var copy = removingHeader(name)
        copy.headers.append(HTTPHeader(name: name, value: value))
        return copy
    }

    /// A copy without header `name` (compared case-insensitively).
    public func removingHeader(_ name: String) -> HttpRequestParams {
        var copy = self
        copy.headers.removeAll { HeaderName.matches($0.name, name) }
        return copy
    }

    /// The value of header `name` as it will be sent (compared case-insensitively): the last field of that name in
    /// ``headerFields``, shared headers and `Content-Type` included.
    ///
    /// - Parameter name: A field name in any case.
    /// - Returns: The value, or `nil` when no such field is sent.
    public func header(_ name: String) -> String? {
        headerFields.last { HeaderName.matches($0.name, name) }?.value
    }

    /// A copy with query parameter `name` set to `value`: items of that name are removed and one is added at the end,
    /// percent-encoded by the rules of `@Query` (the other items keep their exact bytes).
    ///
    /// - Parameters:
    ///   - name: The parameter name, compared exactly (query names are case-sensitive).
    ///   - value: The value, unencoded; any string can be sent.
    /// - Returns: The modified request; its ``url`` and ``encodedPathAndQuery`` carry the new query.
    /// - Throws: ``RequestError`` of kind ``RequestError/Kind/invalidValue`` when `name` is empty.
    public func settingQueryItem(_ name: String, to value: String) throws -> HttpRequestParams {
        try removingQueryItem(name).addingQueryItem(name, value: value)
    }

    /// A copy with one more query item at the end (a name may repeat, as an array field's does), percent-encoded by
    /// the rules of `@Query`.
    ///
    /// - Parameters:
    ///   - name: The parameter name.
    ///   - value: The value, unencoded.
    /// - Returns: The modified request.
    /// - Throws: ``RequestError`` of kind ``RequestError/Kind/invalidValue`` when `name` is empty.
    public func addingQueryItem(_ name: String, value: String) throws -> HttpRequestParams {
        guard !name.isEmpty else {
            throw RequestError(.invalidValue, endpoint: endpoint, reason: "a query item needs a name; nothing was sent")
        }
        let pair =
            PercentEncoding.encode(name, allowing: PercentEncoding.queryComponent) + "="
            + PercentEncoding.encode(value, allowing: PercentEncoding.queryComponent)
        var copy = self
        copy.replaceQuery(with: encodedQuery.map { $0 + "&" + pair } ?? pair)
        copy.queryItems.append(HTTPQueryItem(name: name, value: value))
        return copy
    }

    /// A copy without the query items named `name` (compared exactly, after percent-decoding).
    ///
    /// - Parameter name: The parameter name.
    /// - Returns: The modified request; unchanged when no item has that name.
    public func removingQueryItem(_ name: String) -> HttpRequestParams {
        guard queryItems.contains(where: { $0.name == name }), let encodedQuery else { return self }
        let kept = encodedQuery.split(separator: "&", omittingEmptySubsequences: false).filter { pair in
            let encodedName = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)[0]
            return PercentEncoding.decodedText(String(encodedName)) != name
        }
        var copy = self
        copy.replaceQuery(with: kept.isEmpty ? nil : kept.joined(separator: "&"))
        copy.queryItems.removeAll { $0.name == name }
        return copy
    }

    /// Sets `encodedQuery`, and the query of `absoluteURL` when the request has one.
    private mutating func replaceQuery(with query: String?) {
        encodedQuery = query
        guard let absolute = absoluteURL?.absoluteString else { return }
        let withoutQuery = absolute.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false)[0]
        absoluteURL = URL(string: query.map { withoutQuery + "?" + $0 } ?? String(withoutQuery)) ?? absoluteURL
    }
}
