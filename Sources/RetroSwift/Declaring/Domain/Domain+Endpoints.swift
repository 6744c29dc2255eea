extension Domain {
    /// Removes every mock, so all endpoints go over the wire again.
    public func removeAllMocks() {
        for property in endpointProperties() { property.endpoint.removeMock() }
    }

    /// Checks every endpoint's declaration now, instead of on its first call, and throws all mistakes together.
    ///
    /// Call it in a test: `try api.validateEndpoints()`. It checks path templates, bodies, methods, response
    /// types and fields that are not parameters. Checks that need the names given to wrappers (`@Path("id")`,
    /// duplicate names) can only run with a request value, so they happen on each endpoint's first call.
    public func validateEndpoints() throws(DeclarationError) {
        let domain = String(describing: type(of: self))
        let issues = endpointProperties().flatMap { property in
            property.endpoint.declarationIssues(
                domain: domain, name: RequestPlanner.propertyName(property.label), pathPrefix: pathPrefix)
        }
        if !issues.isEmpty { throw DeclarationError(issues: issues) }
    }

    /// The endpoint wrappers stored in this instance, subclass first, with their storage labels (`_getSchedules`).
    func endpointProperties() -> [(label: String, endpoint: any EndpointProtocol)] {
        var result: [(label: String, endpoint: any EndpointProtocol)] = []
        var mirror: Mirror? = Mirror(reflecting: self)
        while let current = mirror {
            for child in current.children {
                if let label = child.label, let endpoint = child.value as? any EndpointProtocol {
                    result.append((label, endpoint))
                }
            }
            mirror = current.superclassMirror
        }
        return result
    }
}
