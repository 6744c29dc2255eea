/// The request pipeline of every endpoint, top to bottom: plan, build, send, decode.
enum EndpointCall {
    static func perform<Signature, Request, Response>(
        _ domain: Domain, _ key: AnyKeyPath, _ state: EndpointState<Signature>, _ declaration: EndpointDeclaration,
        _ request: Request
    ) async throws -> Response {
        let plan = try plan(domain, key, state, declaration, request, Response.self)
        let settings = domain.settings.current
        let params = try RequestBuilder.build(request, plan: plan, settings: settings)
        let result = try await InterceptorChain.send(params, through: settings.interceptors, to: domain.transport)
        return try ResponseDecodingContext(decoder: settings.jsonDecoder, endpoint: plan.endpoint)
            .decode(Response.self, from: result)
    }

    /// Plans shared by every instance of a domain type, keyed by the endpoint's storage key path (which names the
    /// domain type and the property, and so fixes the request and response types).
    private static let sharedPlans = Locked<[AnyKeyPath: RequestPlan]>([:])

    /// The cached plan, or a new one validated from this first request.
    private static func plan<Signature>(
        _ domain: Domain, _ key: AnyKeyPath, _ state: EndpointState<Signature>, _ declaration: EndpointDeclaration,
        _ request: Any, _ responseType: Any.Type
    ) throws -> RequestPlan {
        if let plan = state.plan.current { return plan }
        if let plan = sharedPlans.withLock({ $0[key] }) {
            state.plan.withLock { $0 = plan }
            return plan
        }
        let endpoint = EndpointIdentity(
            domain: String(describing: type(of: domain)), name: name(of: state, in: domain),
            method: declaration.method, template: declaration.template
        )
        let plan = try RequestPlanner.plan(for: request, endpoint: endpoint, declaration: declaration, responseType: responseType)
        state.plan.withLock { $0 = plan }
        sharedPlans.withLock { $0[key] = plan }
        return plan
    }

    /// The endpoint's property name, found by looking for its state among the domain's stored properties.
    private static func name<Signature>(of state: EndpointState<Signature>, in domain: Domain) -> String {
        if let name = state.name.current { return name }
        let identity = ObjectIdentifier(state)
        let label = domain.endpointProperties().first { $0.endpoint.stateIdentity == identity }?.label ?? "endpoint"
        let name = RequestPlanner.propertyName(label)
        state.name.withLock { $0 = name }
        return name
    }
}
