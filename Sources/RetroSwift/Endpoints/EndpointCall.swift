/// The request pipeline of every endpoint, top to bottom: plan, build, send, decode.
enum EndpointCall {
    static func perform<Signature, Request, Response>(
        _ domain: Domain, _ state: EndpointState<Signature>, _ declaration: EndpointDeclaration, _ request: Request
    ) async throws -> Response {
        let plan = try plan(domain, state, declaration, request, Response.self)
        let settings = domain.settings.current
        let params = try RequestBuilder.build(request, plan: plan, settings: settings)
        let result = try await InterceptorChain.send(params, through: settings.interceptors, to: domain.transport)
        return try ResponseDecodingContext(decoder: settings.jsonDecoder, endpoint: plan.endpoint)
            .decode(Response.self, from: result)
    }

    /// The cached plan, or a new one validated from this first request.
    private static func plan<Signature>(
        _ domain: Domain, _ state: EndpointState<Signature>, _ declaration: EndpointDeclaration,
        _ request: Any, _ responseType: Any.Type
    ) throws -> RequestPlan {
        if let plan = state.plan.current { return plan }
        let endpoint = EndpointIdentity(
            domain: String(describing: type(of: domain)), name: name(of: state, in: domain),
            method: declaration.method, template: declaration.template
        )
        let plan = try RequestPlanner.plan(for: request, endpoint: endpoint, declaration: declaration, responseType: responseType)
        state.plan.withLock { $0 = plan }
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
