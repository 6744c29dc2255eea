import Foundation

/// A declared endpoint's call, top to bottom: plan, build, send (``CallPipeline``), decode.
enum EndpointCall {
    /// `nonisolated(nonsending)`: runs on the caller's actor until the transport call, so the request (which need not
    /// be `Sendable`) never leaves the caller's isolation; only the `Sendable` `HttpRequestParams` does.
    nonisolated(nonsending) static func perform<Signature, Request, Response>(
        _ domain: Domain, _ key: AnyKeyPath, _ state: EndpointState<Signature>, _ request: Request
    ) async throws -> Response {
        let settings = domain.settings.current
        let params = try buildParams(domain, key, state, state.declaration, request, Response.self, settings)
        let decoding = ResponseDecodingContext(
            decoder: settings.jsonDecoder, endpoint: params.endpoint, responseLimits: params.responseLimits,
            converter: state.declaration.converter ?? settings.converter)
        // `consume`: the request is not needed after this, and without it the call copied it (callgrind: 1,200
        // instructions).
        let result = try await CallPipeline.send(
            consume params, of: domain, settings: settings, redirects: state.declaration.redirects ?? settings.redirectPolicy,
            cacheMode: state.declaration.cache ?? .standard)
        return try decoding.decode(Response.self, from: result)
    }

    /// Plans and builds `request` as a value of its exact type: the declared type when that is a struct, else the
    /// type of the value inside the existential (`any P`, `Any`) or the subclass — so a plan is only ever applied
    /// to values of the type it was made from.
    private static func buildParams<Signature, Request>(
        _ domain: Domain, _ key: AnyKeyPath, _ state: EndpointState<Signature>, _ declaration: EndpointDeclaration,
        _ request: Request, _ responseType: Any.Type, _ settings: DomainSettings
    ) throws -> HttpRequestParams {
        // Warm path: the last plan was made for exactly this struct type (or for Void).
        if let plan = state.plan.current, plan.requestType == ObjectIdentifier(Request.self), !plan.reader.readsClass {
            return try RequestBuilder.build(request, plan: plan, settings: settings)
        }
        func exact<T>(_ value: T) throws -> HttpRequestParams {
            let plan = try plan(for: value, domain, key, state, declaration, responseType)
            return try RequestBuilder.build(value, plan: plan, settings: settings)
        }
        switch RequestTypeKind(of: Request.self) {
        case .existential, .class:
            let box = request as Any
            func opened<T>(_: T.Type) throws -> HttpRequestParams {
                // Cannot fail: `T` is the dynamic type of the boxed value, and casts see through nested existentials.
                guard let value = box as? T else {
                    throw RequestError(.invalidValue, endpoint: nil, reason: "the request could not be opened as \(T.self)")
                }
                return try exact(value)
            }
            return try _openExistential(type(of: box), do: opened)
        default:
            return try exact(request)
        }
    }

    /// Plans shared by every instance of a domain type, keyed by the endpoint's storage key path (which names the
    /// domain type and the property, and so the declaration) and the exact request type.
    private static let sharedPlans = Locked<[SharedPlanKey: RequestPlan]>([:])

    private struct SharedPlanKey: Hashable {
        let endpoint: AnyKeyPath
        let requestType: ObjectIdentifier
    }

    /// The cached plan for values of type `T`, or a new one validated from this value.
    private static func plan<Signature, T>(
        for request: T, _ domain: Domain, _ key: AnyKeyPath, _ state: EndpointState<Signature>,
        _ declaration: EndpointDeclaration, _ responseType: Any.Type
    ) throws -> RequestPlan {
        let requestType = ObjectIdentifier(T.self)
        if let plan = state.plan.current, plan.requestType == requestType { return plan }
        let sharedKey = SharedPlanKey(endpoint: key, requestType: requestType)
        if let plan = sharedPlans.withLock({ $0[sharedKey] }) {
            state.plan.withLock { $0 = plan }
            return plan
        }
        let domainType = DomainType(type(of: domain))
        let storage = PlanKey(key)
        let endpoint = EndpointIdentity(method: declaration.method, template: declaration.template) {
            (String(describing: domainType.type), propertyName(of: storage.path))
        }
        let plan = try RequestPlanner.plan(for: request, endpoint: endpoint, declaration: declaration, responseType: responseType)
        state.plan.withLock { $0 = plan }
        sharedPlans.withLock { $0[sharedKey] = plan }
        return plan
    }

    /// The endpoint's property name, read from its storage key path (`\SchedulesApi._getSchedules`): the same cost
    /// whatever the size of the API. If a runtime ever prints key paths another way, the whole text stands in.
    private static func propertyName(of key: AnyKeyPath) -> String {
        storageLabel(of: key).map(RequestPlanner.propertyName) ?? String(describing: key)
    }

    /// `_getSchedules` from `\SchedulesApi._getSchedules`; `nil` for any other form.
    static func storageLabel(of key: AnyKeyPath) -> String? {
        let text = String(describing: key)
        guard text.hasPrefix("\\"), let dot = text.lastIndex(of: ".") else { return nil }
        let label = text[text.index(after: dot)...]
        guard label.hasPrefix("_"), label.count > 1,
            label.allSatisfy({ $0 == "_" || $0.isLetter || $0.isNumber })
        else { return nil }
        return String(label)
    }
}

/// A domain's type, carried into the closure that names an endpoint when first asked.
// @unchecked Sendable: a metatype is immutable runtime metadata.
private struct DomainType: @unchecked Sendable {
    let type: Domain.Type

    init(_ type: Domain.Type) {
        self.type = type
    }
}
