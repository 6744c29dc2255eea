import Foundation

/// The base class of an API: subclass it and declare endpoints with `@Get`, `@Post`, `@Put`, `@Patch`,
/// `@Delete`, `@Head` and `@Options`.
///
/// Declare a subclass as `nonisolated final class SchedulesApi: ApiDomain`, which compiles in every configuration,
/// Xcode 26 app targets included (<doc:Concurrency>). One instance may be used from many tasks at once, and endpoints
/// may be mocked while calls run; for Swift 6 to let one instance cross into other tasks, outside a module whose
/// default isolation is `MainActor`, add `@unchecked Sendable`: it is safe as long as the subclass adds no mutable
/// stored properties of its own (endpoint wrappers keep their state behind a lock). The only stored state here is
/// `transport` (a Sendable `let`) and `settings` (behind a lock), which each call reads once when it starts.
///
/// `Domain` itself is deliberately not `Sendable`: in a module whose default isolation is `MainActor` (Xcode 26 app
/// targets), Swift 6.2/6.3 can only compile a subclass written `nonisolated final class SchedulesApi: ApiDomain`,
/// and rejects the endpoint wrappers' storage in such a class when the class is `Sendable`.
open class Domain {
    /// The transport every endpoint of this domain sends through.
    public let transport: any HttpTransport
    /// Shared with nested domains, so a change through any of them is seen by all.
    let settings: Locked<DomainSettings>
    /// The path a parent binds before this domain's endpoints, or `nil` for a domain that is not nested.
    let pathPrefix: PathPrefix?
    /// Where RetroSwift keeps what the transport's `setConfiguration` records (``TransportTarget``); looked up once here,
    /// as a lookup by identity costs more than a whole call's URL building when made per call. `nil` for a transport
    /// that is a value.
    let transportTarget: TransportTarget?

    /// Creates a domain sending through `transport`. Subclasses configure the transport here.
    public init(transport: any HttpTransport) {
        self.transport = transport
        settings = Locked(DomainSettings.makeDefault())
        pathPrefix = nil
        transportTarget = TransportTarget.of(transport)
    }

    /// Creates a domain nested in `parent` (Ethel's `client.gists.public` and `repository(owner:name:)`): its
    /// endpoints' paths go after `path`, whose `{placeholders}` are filled from `values` once, here.
    ///
    /// ```swift
    /// final class RepositoryApi: Domain, @unchecked Sendable {
    ///     @Get("/issues") var issues: (IssuesRequest) async throws -> [Issue]
    /// }
    /// extension GitHubApi {
    ///     func repository(owner: String, name: String) -> RepositoryApi {
    ///         RepositoryApi(parent: self, path: "/repos/{owner}/{name}", values: ["owner": owner, "name": name])
    ///     }
    /// }
    /// // GET /repos/apple/swift/issues?state=open
    /// let open = try await github.repository(owner: "apple", name: "swift").issues(IssuesRequest(state: "open"))
    /// ```
    ///
    /// The nested domain shares the parent's transport and its settings — interceptors, coders, base URL, shared
    /// headers, redirect policy, timeout — so a change through either is seen by both. Values follow the rules of
    /// `@Path`: one segment each, percent-encoded, never empty, `.` or `..`. A domain can be nested in a nested
    /// domain; the paths add up.
    ///
    /// A mistake is thrown by each call of the nested domain, and nothing is sent: ``DeclarationError`` for a
    /// malformed path, a query in it, a placeholder without a value or a value without a placeholder, or an
    /// endpoint path that uses a placeholder the enclosing path binds (``validateEndpoints()`` reports these too);
    /// ``RequestError`` naming the placeholder for a value that cannot be sent.
    ///
    /// - Parameters:
    ///   - parent: The domain this one is reached from.
    ///   - path: The path between the parent's endpoints' base and this domain's endpoints, such as
    ///     `/repos/{owner}/{name}`.
    ///   - values: The placeholders' values, by name.
    public init(parent: Domain, path: String, values: [String: Any] = [:]) {
        transport = parent.transport
        transportTarget = parent.transportTarget
        settings = parent.settings
        pathPrefix = PathPrefix(parent: parent.pathPrefix, path: path, values: values)
    }

    /// `Empty`, so subclasses can write it unqualified even if another module also declares one.
    public typealias Empty = RetroSwift.Empty
    /// `Either`, so subclasses can write it unqualified even if another module also declares one.
    public typealias Either<Response, ErrorResponse> = RetroSwift.Either<Response, ErrorResponse>

    /// Encodes `@JsonBody` values. Dates are whole epoch milliseconds by default (rounded to the nearest, halves
    /// away from zero), as Echo and Kilo send them and as query, header, path and form values are sent.
    public var jsonEncoder: JSONEncoder {
        get { settings.current.jsonEncoder }
        set { settings.withLock { $0.jsonEncoder = newValue } }
    }

    /// Decodes JSON responses. Dates are epoch milliseconds by default, as integers or fractions.
    public var jsonDecoder: JSONDecoder {
        get { settings.current.jsonDecoder }
        set { settings.withLock { $0.jsonDecoder = newValue } }
    }

    /// The format of this domain's `@Body` fields and decoded responses, for endpoints that declare no `converter:`;
    /// `nil` (the default) is JSON through ``jsonEncoder`` and ``jsonDecoder``. A converter set here is also sent as
    /// `Accept`. See ``BodyConverter``.
    public var converter: (any BodyConverter)? {
        get { settings.current.converter }
        set { settings.withLock { $0.converter = newValue } }
    }

    /// Makes the boundary of each multipart body; replace it in tests to compare exact bytes.
    public var multipartBoundary: @Sendable () -> String {
        get { settings.current.multipartBoundary }
        set { settings.withLock { $0.multipartBoundary = newValue } }
    }

    /// Steps every call of this domain goes through, in order, before the transport: authentication, retries,
    /// logging, your own. See ``Interceptor``.
    public var interceptors: [any Interceptor] {
        get { settings.current.interceptors }
        set { settings.withLock { $0.interceptors = newValue } }
    }

    /// How redirects are followed by endpoints that declare no `redirects:` of their own; ``RedirectPolicy/default``
    /// unless set. See ``RedirectPolicy`` for the rules.
    public var redirectPolicy: RedirectPolicy {
        get { settings.current.redirectPolicy }
        set { settings.withLock { $0.redirectPolicy = newValue } }
    }

    /// How much a response to this domain's calls may bring before reading stops: header fields, bytes held in
    /// memory, decompression. ``ResponseLimits/default`` unless set; see ``ResponseLimits`` for what each limit covers.
    public var responseLimits: ResponseLimits {
        get { settings.current.responseLimits }
        set { settings.withLock { $0.responseLimits = newValue } }
    }

    /// The HTTP cache this domain's calls use, by the rules of RFC 9111; `nil` (the default) caches nothing. One
    /// cache may be shared by several domains. An endpoint can opt out or always revalidate with `cache:` (see
    /// ``CacheMode``); a response says where it came from in ``HTTPResponse/source``.
    public var httpCache: HTTPCache? {
        get { settings.current.cache }
        set { settings.withLock { $0.cache = newValue } }
    }

    /// Which servers this domain's calls trust over `https`: ``ServerTrust/system`` (the default), or certificate
    /// authorities of your own, public-key pins, or both. It covers every call of the domain — ordinary, streamed,
    /// uploads, downloads, every hop of a redirect — and a transport that cannot enforce it refuses the call before
    /// sending anything (``RequestError/Kind/serverTrustUnsupported``). See <doc:ServerTrustAndPinning>.
    public var serverTrust: ServerTrust {
        get { settings.current.serverTrust ?? .system }
        set { settings.withLock { $0.serverTrust = newValue.requirements.isEmpty ? nil : newValue } }
    }

    /// The client certificate and key this domain's `https` calls present to servers that ask for one (mutual TLS);
    /// `nil` (the default) presents none. A transport presents it only on connections of calls that have it, and one
    /// that cannot present it refuses the call before sending anything (``RequestError/Kind/serverTrustUnsupported``).
    /// See ``ClientIdentity``.
    public var clientIdentity: ClientIdentity? {
        get { settings.current.clientIdentity }
        set { settings.withLock { $0.clientIdentity = newValue } }
    }

    /// Where this domain's calls go: scheme, host, and optionally a port and a base path, such as
    /// `https://api.example.com/v2`. `nil` (the default for `Domain`) leaves it to the transport's
    /// `setConfiguration`; ``ApiDomain`` sets it from its `baseURL:`.
    ///
    /// A domain with a base URL of its own never uses the transport's configuration, so any number of such domains
    /// can share one transport. It can change while the app runs (staging and production): calls started after the
    /// change go to the new URL, calls already running finish with the old one. Change it together with
    /// ``sharedHeaders`` through ``setConfiguration(baseURL:sharedHeaders:)`` when both differ, so that no call
    /// pairs one environment's URL with the other's credentials. An unusable value (not an absolute `http` or
    /// `https` URL) makes calls throw ``RequestError`` of kind ``RequestError/Kind/transportNotConfigured`` until
    /// it is replaced; nothing is sent.
    public var baseURL: URL? {
        get { settings.current.target?.baseURL }
        set { settings.withLock { $0.setConfiguration(baseURL: newValue, sharedHeaders: $0.target?.sharedHeaders ?? [:]) } }
    }

    /// Headers sent with every call of this domain, such as an API key. They are added to the transport's shared
    /// headers and win over them by name; a request's own header of the same name wins over both. Like the
    /// transport's, they are withheld once a redirect leaves the origin when they are credentials (see
    /// ``RedirectPolicy``). They can be replaced while the app runs; calls already running keep the old ones. A name
    /// or value that is not a valid header (a CR or LF in the value, for instance) makes calls throw ``RequestError``
    /// until it is replaced; nothing is sent.
    public var sharedHeaders: [String: String] {
        get { settings.current.target?.sharedHeaders ?? [:] }
        set { settings.withLock { $0.setConfiguration(baseURL: $0.target?.baseURL, sharedHeaders: newValue) } }
    }

    /// Replaces ``baseURL`` and ``sharedHeaders`` at once, so that no call sees one without the other: switching
    /// from staging to production with a different API key, for instance.
    ///
    /// - Parameters:
    ///   - baseURL: Where calls go from now on, or `nil` to use the transport's configuration.
    ///   - sharedHeaders: The headers every call carries from now on.
    public func setConfiguration(baseURL: URL?, sharedHeaders: [String: String] = [:]) {
        settings.withLock { $0.setConfiguration(baseURL: baseURL, sharedHeaders: sharedHeaders) }
    }

    /// The timeout for endpoints that declare none, or `nil` for the transport's default.
    public var timeout: TimeInterval? {
        get { settings.current.timeout }
        set { settings.withLock { $0.timeout = newValue } }
    }
}
