import Foundation

/// The one property wrapper behind `@Get`, `@Post`, `@Put`, `@Patch`, `@Delete`, `@Head` and `@Options`.
///
/// Apply it to a closure property of a ``Domain`` subclass:
///
/// ```swift
/// @Get("/api/v1/schedule/{schedule_id}")
/// var getSchedule: (GetScheduleRequest) async throws -> Schedule
///
/// @Get("/health")
/// var health: () async throws -> Empty
/// ```
///
/// Reading the property gives a closure that builds the request, sends it through the domain's transport and
/// decodes the response. Assigning a closure replaces the endpoint (a mock); `api.$name.removeMock()` restores it.
@propertyWrapper
public struct Endpoint<Method: EndpointMethod, Signature>: Sendable {
    /// Everything about this endpoint, in one object: reading the property copies the wrapper out of the domain on every
    /// call, and one reference is one retain where its five fields were about twenty.
    let state: EndpointState<Signature>

    /// What the endpoint declares.
    var declaration: EndpointDeclaration { state.declaration }

    /// An endpoint taking a request struct whose fields are `@Query`, `@Header`, `@Path`, `@JsonBody`,
    /// `@FormParam` or `@FormFile`: `var getSchedule: (GetScheduleRequest) async throws -> Schedule`.
    ///
    /// - Parameters:
    ///   - path: The path template, relative to the base URL, such as `/api/v1/schedule/{schedule_id}`; left out when
    ///     the request has a `@Url` field.
    ///   - timeout: This endpoint's timeout in seconds; `nil` uses the domain's, then the transport's.
    ///   - headers: Headers sent on every call of this endpoint (Retrofit's `@Headers`); request fields override them.
    ///   - formEncoding: `.multipart` forces a multipart body even without `@FormFile` fields.
    ///   - redirects: How this endpoint follows redirects; `nil` uses the domain's ``Domain/redirectPolicy``.
    ///   - cache: How this endpoint uses the domain's ``Domain/httpCache``; `nil` follows RFC 9111 (``CacheMode/standard``).
    ///   - converter: The format of this endpoint's `@Body` and decoded response; `nil` uses the domain's ``Domain/converter``.
    ///   - otherHosts: Which hosts besides the base URL's a `@Url` field's full URL may lead to; none by default.
    public init<Request, Response>(
        _ path: String = "", timeout: TimeInterval? = nil, headers: [String: String] = [:],
        formEncoding: FormEncoding = .automatic, redirects: RedirectPolicy? = nil, otherHosts: OtherHostPolicy = .refused,
        cache: CacheMode? = nil, converter: (any BodyConverter)? = nil
    ) where Signature == (Request) async throws -> Response {
        self.init(
            path, timeout, headers, formEncoding, redirects, otherHosts, cache, converter, request: Request.self, response: Response.self
        ) {
            domain, key, state in
            { request in try await EndpointCall.perform(domain, key, state, request) }
        }
    }

    /// An endpoint that takes no parameters: `var health: () async throws -> Empty`.
    ///
    /// - Parameters:
    ///   - path: The path template, relative to the base URL, such as `/health`.
    ///   - timeout: This endpoint's timeout in seconds; `nil` uses the domain's, then the transport's.
    ///   - headers: Headers sent on every call of this endpoint (Retrofit's `@Headers`); request fields override them.
    ///   - formEncoding: `.multipart` forces a multipart body even without `@FormFile` fields.
    ///   - redirects: How this endpoint follows redirects; `nil` uses the domain's ``Domain/redirectPolicy``.
    ///   - cache: How this endpoint uses the domain's ``Domain/httpCache``; `nil` follows RFC 9111 (``CacheMode/standard``).
    ///   - converter: The format of this endpoint's `@Body` and decoded response; `nil` uses the domain's ``Domain/converter``.
    public init<Response>(
        _ path: String, timeout: TimeInterval? = nil, headers: [String: String] = [:],
        formEncoding: FormEncoding = .automatic, redirects: RedirectPolicy? = nil, cache: CacheMode? = nil,
        converter: (any BodyConverter)? = nil
    ) where Signature == () async throws -> Response {
        self.init(path, timeout, headers, formEncoding, redirects, .refused, cache, converter, request: Void.self, response: Response.self)
        {
            domain, key, state in
            { try await EndpointCall.perform(domain, key, state, ()) }
        }
    }

    /// An endpoint declared with a `@Sendable` signature, whose closures can be handed to other tasks:
    /// `var getUser: @Sendable (GetUserRequest) async throws -> User`.
    ///
    /// - Parameters:
    ///   - path: The path template, relative to the base URL, such as `/api/v1/schedule/{schedule_id}`; left out when
    ///     the request has a `@Url` field.
    ///   - timeout: This endpoint's timeout in seconds; `nil` uses the domain's, then the transport's.
    ///   - headers: Headers sent on every call of this endpoint (Retrofit's `@Headers`); request fields override them.
    ///   - formEncoding: `.multipart` forces a multipart body even without `@FormFile` fields.
    ///   - redirects: How this endpoint follows redirects; `nil` uses the domain's ``Domain/redirectPolicy``.
    ///   - cache: How this endpoint uses the domain's ``Domain/httpCache``; `nil` follows RFC 9111 (``CacheMode/standard``).
    ///   - converter: The format of this endpoint's `@Body` and decoded response; `nil` uses the domain's ``Domain/converter``.
    ///   - otherHosts: Which hosts besides the base URL's a `@Url` field's full URL may lead to; none by default.
    public init<Request, Response>(
        _ path: String = "", timeout: TimeInterval? = nil, headers: [String: String] = [:],
        formEncoding: FormEncoding = .automatic, redirects: RedirectPolicy? = nil, otherHosts: OtherHostPolicy = .refused,
        cache: CacheMode? = nil, converter: (any BodyConverter)? = nil
    ) where Signature == @Sendable (Request) async throws -> Response {
        self.init(
            path, timeout, headers, formEncoding, redirects, otherHosts, cache, converter, request: Request.self, response: Response.self
        ) {
            domain, key, state in
            let key = PlanKey(key)
            let domain = SendableDomain(domain)
            return { @Sendable request in try await EndpointCall.perform(domain.domain, key.path, state, request) }
        }
    }

    /// A parameterless endpoint with a `@Sendable` signature: `var health: @Sendable () async throws -> Empty`.
    ///
    /// - Parameters:
    ///   - path: The path template, relative to the base URL, such as `/health`.
    ///   - timeout: This endpoint's timeout in seconds; `nil` uses the domain's, then the transport's.
    ///   - headers: Headers sent on every call of this endpoint (Retrofit's `@Headers`); request fields override them.
    ///   - formEncoding: `.multipart` forces a multipart body even without `@FormFile` fields.
    ///   - redirects: How this endpoint follows redirects; `nil` uses the domain's ``Domain/redirectPolicy``.
    ///   - cache: How this endpoint uses the domain's ``Domain/httpCache``; `nil` follows RFC 9111 (``CacheMode/standard``).
    ///   - converter: The format of this endpoint's `@Body` and decoded response; `nil` uses the domain's ``Domain/converter``.
    public init<Response>(
        _ path: String, timeout: TimeInterval? = nil, headers: [String: String] = [:],
        formEncoding: FormEncoding = .automatic, redirects: RedirectPolicy? = nil, cache: CacheMode? = nil,
        converter: (any BodyConverter)? = nil
    ) where Signature == @Sendable () async throws -> Response {
        self.init(path, timeout, headers, formEncoding, redirects, .refused, cache, converter, request: Void.self, response: Response.self)
        {
            domain, key, state in
            let key = PlanKey(key)
            let domain = SendableDomain(domain)
            return { @Sendable in try await EndpointCall.perform(domain.domain, key.path, state, ()) }
        }
    }

    /// `(Request) async throws -> Response` as spelled in a module with `NonisolatedNonsendingByDefault` (the
    /// Xcode 26 default for new projects): the call runs on the caller's actor until the transport takes over.
    ///
    /// - Parameters:
    ///   - path: The path template, relative to the base URL, such as `/api/v1/schedule/{schedule_id}`; left out when
    ///     the request has a `@Url` field.
    ///   - timeout: This endpoint's timeout in seconds; `nil` uses the domain's, then the transport's.
    ///   - headers: Headers sent on every call of this endpoint (Retrofit's `@Headers`); request fields override them.
    ///   - formEncoding: `.multipart` forces a multipart body even without `@FormFile` fields.
    ///   - redirects: How this endpoint follows redirects; `nil` uses the domain's ``Domain/redirectPolicy``.
    ///   - cache: How this endpoint uses the domain's ``Domain/httpCache``; `nil` follows RFC 9111 (``CacheMode/standard``).
    ///   - converter: The format of this endpoint's `@Body` and decoded response; `nil` uses the domain's ``Domain/converter``.
    ///   - otherHosts: Which hosts besides the base URL's a `@Url` field's full URL may lead to; none by default.
    public init<Request, Response>(
        _ path: String = "", timeout: TimeInterval? = nil, headers: [String: String] = [:],
        formEncoding: FormEncoding = .automatic, redirects: RedirectPolicy? = nil, otherHosts: OtherHostPolicy = .refused,
        cache: CacheMode? = nil, converter: (any BodyConverter)? = nil
    ) where Signature == nonisolated(nonsending) (Request) async throws -> Response {
        self.init(
            path, timeout, headers, formEncoding, redirects, otherHosts, cache, converter, request: Request.self, response: Response.self
        ) {
            domain, key, state in
            { request in try await EndpointCall.perform(domain, key, state, request) }
        }
    }

    /// `() async throws -> Response` as spelled in a module with `NonisolatedNonsendingByDefault`.
    ///
    /// - Parameters:
    ///   - path: The path template, relative to the base URL, such as `/health`.
    ///   - timeout: This endpoint's timeout in seconds; `nil` uses the domain's, then the transport's.
    ///   - headers: Headers sent on every call of this endpoint (Retrofit's `@Headers`); request fields override them.
    ///   - formEncoding: `.multipart` forces a multipart body even without `@FormFile` fields.
    ///   - redirects: How this endpoint follows redirects; `nil` uses the domain's ``Domain/redirectPolicy``.
    ///   - cache: How this endpoint uses the domain's ``Domain/httpCache``; `nil` follows RFC 9111 (``CacheMode/standard``).
    ///   - converter: The format of this endpoint's `@Body` and decoded response; `nil` uses the domain's ``Domain/converter``.
    public init<Response>(
        _ path: String, timeout: TimeInterval? = nil, headers: [String: String] = [:],
        formEncoding: FormEncoding = .automatic, redirects: RedirectPolicy? = nil, cache: CacheMode? = nil,
        converter: (any BodyConverter)? = nil
    ) where Signature == nonisolated(nonsending) () async throws -> Response {
        self.init(path, timeout, headers, formEncoding, redirects, .refused, cache, converter, request: Void.self, response: Response.self)
        {
            domain, key, state in
            { try await EndpointCall.perform(domain, key, state, ()) }
        }
    }

    /// `@Sendable (Request) async throws -> Response` as spelled in a module with `NonisolatedNonsendingByDefault`.
    ///
    /// - Parameters:
    ///   - path: The path template, relative to the base URL, such as `/api/v1/schedule/{schedule_id}`; left out when
    ///     the request has a `@Url` field.
    ///   - timeout: This endpoint's timeout in seconds; `nil` uses the domain's, then the transport's.
    ///   - headers: Headers sent on every call of this endpoint (Retrofit's `@Headers`); request fields override them.
    ///   - formEncoding: `.multipart` forces a multipart body even without `@FormFile` fields.
    ///   - redirects: How this endpoint follows redirects; `nil` uses the domain's ``Domain/redirectPolicy``.
    ///   - cache: How this endpoint uses the domain's ``Domain/httpCache``; `nil` follows RFC 9111 (``CacheMode/standard``).
    ///   - converter: The format of this endpoint's `@Body` and decoded response; `nil` uses the domain's ``Domain/converter``.
    ///   - otherHosts: Which hosts besides the base URL's a `@Url` field's full URL may lead to; none by default.
    public init<Request, Response>(
        _ path: String = "", timeout: TimeInterval? = nil, headers: [String: String] = [:],
        formEncoding: FormEncoding = .automatic, redirects: RedirectPolicy? = nil, otherHosts: OtherHostPolicy = .refused,
        cache: CacheMode? = nil, converter: (any BodyConverter)? = nil
    ) where Signature == nonisolated(nonsending) @Sendable (Request) async throws -> Response {
        self.init(
            path, timeout, headers, formEncoding, redirects, otherHosts, cache, converter, request: Request.self, response: Response.self
        ) {
            domain, key, state in
            let key = PlanKey(key)
            let domain = SendableDomain(domain)
            return { @Sendable request in try await EndpointCall.perform(domain.domain, key.path, state, request) }
        }
    }

    /// `@Sendable () async throws -> Response` as spelled in a module with `NonisolatedNonsendingByDefault`.
    ///
    /// - Parameters:
    ///   - path: The path template, relative to the base URL, such as `/health`.
    ///   - timeout: This endpoint's timeout in seconds; `nil` uses the domain's, then the transport's.
    ///   - headers: Headers sent on every call of this endpoint (Retrofit's `@Headers`); request fields override them.
    ///   - formEncoding: `.multipart` forces a multipart body even without `@FormFile` fields.
    ///   - redirects: How this endpoint follows redirects; `nil` uses the domain's ``Domain/redirectPolicy``.
    ///   - cache: How this endpoint uses the domain's ``Domain/httpCache``; `nil` follows RFC 9111 (``CacheMode/standard``).
    ///   - converter: The format of this endpoint's `@Body` and decoded response; `nil` uses the domain's ``Domain/converter``.
    public init<Response>(
        _ path: String, timeout: TimeInterval? = nil, headers: [String: String] = [:],
        formEncoding: FormEncoding = .automatic, redirects: RedirectPolicy? = nil, cache: CacheMode? = nil,
        converter: (any BodyConverter)? = nil
    ) where Signature == nonisolated(nonsending) @Sendable () async throws -> Response {
        self.init(path, timeout, headers, formEncoding, redirects, .refused, cache, converter, request: Void.self, response: Response.self)
        {
            domain, key, state in
            let key = PlanKey(key)
            let domain = SendableDomain(domain)
            return { @Sendable in try await EndpointCall.perform(domain.domain, key.path, state, ()) }
        }
    }

    /// The one initializer behind the public ones, which differ only in the closure type they make.
    private init(
        _ path: String, _ timeout: TimeInterval?, _ headers: [String: String], _ formEncoding: FormEncoding,
        _ redirects: RedirectPolicy?, _ otherHosts: OtherHostPolicy, _ cache: CacheMode?, _ converter: (any BodyConverter)?,
        request: Any.Type, response: Any.Type,
        makeCall: @escaping @Sendable (Domain, AnyKeyPath, EndpointState<Signature>) -> Signature
    ) {
        let declaration = EndpointDeclaration(
            method: Method.method, template: path, timeout: timeout, headers: headers, formEncoding: formEncoding,
            redirects: redirects, otherHosts: otherHosts, cache: cache, converter: converter
        )
        let types = InspectedTypes(request: request, response: response)
        state = EndpointState(declaration: declaration, makeCall: makeCall) { endpoint, declaration in
            RequestPlanner.issues(
                requestType: types.request, endpoint: endpoint, declaration: declaration, responseType: types.response
            )
        }
    }

    /// Endpoints live in ``Domain`` subclasses only; the domain instance is reached through the subscript below.
    @available(*, unavailable, message: "@Get, @Post, @Put, @Patch, @Delete, @Head and @Options can only be used in a Domain subclass")
    public var wrappedValue: Signature {
        get { fatalError("unavailable") }
        // swiftlint:disable:next unused_setter_value
        set { fatalError("unavailable") }
    }

    /// Controls this endpoint's mock: `api.$getSchedules.removeMock()`.
    public var projectedValue: EndpointHandle {
        let state = state
        return EndpointHandle(
            isMockedProbe: { state.mock.withLock { $0 != nil } },
            remove: { state.mock.withLock { $0 = nil } }
        )
    }

    /// The endpoint property of `instance`: its mock if one is set, else the real call.
    public static subscript<D: Domain>(
        _enclosingInstance instance: D,
        wrapped wrappedKeyPath: ReferenceWritableKeyPath<D, Signature>,
        storage storageKeyPath: ReferenceWritableKeyPath<D, Self>
    ) -> Signature {
        get {
            let state = instance[keyPath: storageKeyPath].state
            if let mock = state.mock.current { return state.mockedCall(mock) }
            return state.makeCall(instance, storageKeyPath, state)
        }
        set {
            // Only the lock-guarded state changes; the wrapper stored in the instance is never written after init.
            instance[keyPath: storageKeyPath].state.setMock(newValue)
        }
    }
}

extension Endpoint: EndpointProtocol {
    func removeMock() {
        state.mock.withLock { $0 = nil }
    }

    func declarationIssues(domain: String, name: String, pathPrefix: PathPrefix?) -> [DeclarationError.Issue] {
        let endpoint = EndpointIdentity(domain: domain, name: name, method: declaration.method, template: declaration.template)
        return state.inspect(endpoint, declaration) + (pathPrefix?.issues(for: endpoint) ?? [])
    }
}

/// An endpoint's request and response types, carried into its `@Sendable` declaration check.
// @unchecked Sendable: metatypes are immutable runtime metadata.
struct InspectedTypes: @unchecked Sendable {
    let request: Any.Type
    let response: Any.Type
}

/// An endpoint's storage key path, carried into `@Sendable` endpoint closures.
// @unchecked Sendable: key paths are immutable; Swift 6 leaves `AnyKeyPath` non-Sendable only because a key path
// may capture non-Sendable subscript arguments, and this one names a stored property.
struct PlanKey: @unchecked Sendable {
    let path: AnyKeyPath

    init(_ path: AnyKeyPath) {
        self.path = path
    }
}

/// A domain carried into `@Sendable` endpoint closures.
// @unchecked Sendable: a domain's own state is a Sendable `let` and lock-guarded settings, so sharing it is safe;
// `Domain` is not declared Sendable only so that `nonisolated` subclasses may hold endpoint wrappers (Swift 6.2+
// rejects the wrappers' `var` storage in a `nonisolated` Sendable class).
struct SendableDomain: @unchecked Sendable {
    let domain: Domain

    init(_ domain: Domain) {
        self.domain = domain
    }
}
