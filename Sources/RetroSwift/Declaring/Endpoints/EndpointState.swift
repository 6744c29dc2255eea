/// One endpoint of one domain instance, shared by every copy of its wrapper: what it declares, how it makes its call,
/// and the parts that change (its mock and its plan).
final class EndpointState<Signature>: Sendable {
    /// What the endpoint declares.
    let declaration: EndpointDeclaration
    /// Makes the closure that performs a call of this endpoint on a domain.
    let makeCall: @Sendable (Domain, AnyKeyPath, EndpointState<Signature>) -> Signature
    /// The declaration's mistakes that its types alone show, for ``Domain/validateEndpoints()``.
    let inspect: @Sendable (EndpointIdentity, EndpointDeclaration) -> [DeclarationError.Issue]
    /// The mock installed by assigning to the endpoint property, in a ``MockedCall``: held as `AnyObject?`, not as
    /// `Signature?`, because the property's getter is generic code that reads it on every call, and reading a
    /// `Signature?` there made the runtime look up the metadata of that optional type each time (500 instructions).
    let mock = Locked<AnyObject?>(nil)
    /// The validated plan, made on the first call.
    let plan = Locked<RequestPlan?>(nil)

    /// Installs `call` as the endpoint's mock.
    func setMock(_ call: Signature) {
        let box = MockedCall(call)
        mock.withLock { $0 = box }
    }

    /// The closure inside a mock that ``mock`` holds.
    func mockedCall(_ box: AnyObject) -> Signature {
        // Only `setMock` writes `mock`, always with a `MockedCall<Signature>`.
        (box as! MockedCall<Signature>).call
    }

    init(
        declaration: EndpointDeclaration,
        makeCall: @escaping @Sendable (Domain, AnyKeyPath, EndpointState<Signature>) -> Signature,
        inspect: @escaping @Sendable (EndpointIdentity, EndpointDeclaration) -> [DeclarationError.Issue]
    ) {
        self.declaration = declaration
        self.makeCall = makeCall
        self.inspect = inspect
    }
}

/// Lets a domain find its endpoints among its stored properties without knowing their generic types.
protocol EndpointProtocol {
    func removeMock()
    func declarationIssues(domain: String, name: String, pathPrefix: PathPrefix?) -> [DeclarationError.Issue]
}

/// An endpoint's mock, boxed so that ``EndpointState`` can hold it as an `AnyObject`.
// @unchecked Sendable: immutable, and it holds what `Locked<Signature?>` held before it, a mock that the Sendable
// `Endpoint` already shares between tasks (a closure, whose Sendable-ness is the declaring module's to check).
final class MockedCall<Signature>: @unchecked Sendable {
    let call: Signature

    init(_ call: Signature) {
        self.call = call
    }
}
