/// The mutable part of one endpoint of one domain instance, shared by every copy of its wrapper.
final class EndpointState<Signature>: Sendable {
    /// The mock installed by assigning to the endpoint property.
    let mock = Locked<Signature?>(nil)
    /// The validated plan, made on the first call.
    let plan = Locked<RequestPlan?>(nil)
}

/// Lets a domain find its endpoints among its stored properties without knowing their generic types.
protocol EndpointProtocol {
    func removeMock()
    func declarationIssues(domain: String, name: String, pathPrefix: PathPrefix?) -> [DeclarationError.Issue]
}
