import Foundation
import RetroSwift
import RetroSwiftTestServer
import RetroSwiftURLSession

#if AsyncHTTPClient
    import AsyncHTTPClient
    import RetroSwiftAsyncHTTPClient
#endif
#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// A transport that breaks one rule, and the conformance cases that must catch it.
struct Mutant: Sendable, CustomStringConvertible {
    /// What the mutant does wrong.
    let name: String
    /// The ids of the cases that must fail against it.
    let killers: [String]
    /// Makes the mutant on a base, wrapping its transports.
    let make: @Sendable (MutantBase) -> any HttpTransport

    var description: String { name }

    /// A mutant that wraps one transport of the base.
    init(name: String, killers: [String], wrap: @escaping @Sendable (any HttpTransport) -> any HttpTransport) {
        self.name = name
        self.killers = killers
        make = { wrap($0.make()) }
    }

    /// A mutant that wraps several transports of the base, which share no connection: `separately` gets a maker of the
    /// `n`th.
    init(
        name: String, killers: [String],
        separately: @escaping @Sendable (_ transport: @escaping @Sendable (Int) -> any HttpTransport) -> any HttpTransport
    ) {
        self.name = name
        self.killers = killers
        make = { base in separately { base.make(separate: $0) } }
    }

    /// Every mutant: one per rule a transport can break from outside the library it is built on. Four rules cannot be
    /// broken by a wrapper, and have no mutant: swallowing a `1xx` (transports hand over only the final response),
    /// reusing a closed connection, keeping one the server ended, and losing one to an upload (connections live inside
    /// the transport). Resending a request after a connection error stands for the second; URLSessionTransport on
    /// Linux, which keeps ended connections in libcurl's cache, fails `connection/server-ended-released` as a declared
    /// limitation; and `connection/keep-alive-after-uploads` failed on every run of AsyncHTTPClientTransport before
    /// its uploads ended on the call's event loop (CHANGELOG.md). Of the rules of URLs and TLS, one has no mutant of its own: that no
    /// server name is sent for an IPv6 literal (the handshake is the transport's); naming 127.0.0.1 `localhost` stands
    /// for it.
    static let all: [Mutant] = common + urlMutants + onlyWithAsyncHTTPClient

    /// Mutants of rules URLSessionTransport does not keep (a known limitation) or refuses to be asked to (it presents
    /// no client certificate): proven on async-http-client's base.
    private static var onlyWithAsyncHTTPClient: [Mutant] {
        #if AsyncHTTPClient
            [
                Mutant(name: "reads a body stream whole before sending it", killers: ["request/stream-body-chunked"]) {
                    BuffersStreamBodies($0)
                }
            ]
                + (tlsCasesCanFail
                    ? [
                        Mutant(name: "presents no client certificate", killers: ["tls/client-certificate-presented"]) {
                            DropsClientIdentity($0)
                        },
                        Mutant(
                            name: "presents the first domain's client certificate for every domain",
                            killers: ["tls/client-certificate-own-domain-only", "tls/client-certificate-kept-to-its-origin"]
                        ) { PresentsFirstClientIdentity($0) },
                    ] : [])
        #else
            []
        #endif
    }

    private static let common: [Mutant] = [
        Mutant(
            name: "timeouts fire 10 times late",
            killers: ["timeout/before-head", "timeout/stalled-body", "timeout/stalled-upload", "timeout/head-after-upload"]
        ) { LateTimeouts($0) },
        Mutant(
            name: "turns the timeout into a deadline for the whole call",
            killers: ["timeout/steady-upload-completes", "timeout/steady-download-completes"]
        ) { WholeCallDeadline($0) },
        Mutant(
            name: "uses a fixed 2.5 s timeout whatever is asked",
            killers: ["timeout/long-and-none-honoured", "timeout/fractions-honoured"]
        ) { FixedTimeout($0) },
        Mutant(name: "rounds the timeout down to whole seconds", killers: ["timeout/fractions-honoured"]) { WholeSecondTimeouts($0) },
        Mutant(
            name: "throws on a status of 400 or more",
            killers: ["status/400", "status/404", "status/500", "status/503", "status/418-json-error-body"]
        ) { ThrowsOnErrorStatus($0) },
        Mutant(name: "drops the body of error responses", killers: ["status/400", "status/404", "status/500", "status/503"]) {
            DropsErrorBodies($0)
        },
        Mutant(name: "keeps a cookie jar", killers: ["request/no-cookie-jar"]) { KeepsCookies($0) },
        Mutant(
            name: "resends a POST after a connection error",
            killers: ["connection/post-unanswered-not-resent", "connection/post-on-reused-connection-not-resent"]
        ) { ResendsAfterConnectionError($0) },
        Mutant(name: "sends a request again after a timeout", killers: ["timeout/post-not-resent"]) { ResendsAfterTimeout($0) },
        Mutant(name: "reports no progress", killers: ["progress/upload", "progress/download"]) { ReportsNoProgress($0) },
        Mutant(
            name: "ignores cancellation",
            killers: ["cancellation/before-head", "cancellation/during-upload", "cancellation/file-download-mid-body"]
        ) { IgnoresCancellation($0) },
        Mutant(name: "follows redirects itself", killers: ["redirects/returned-not-followed"]) { FollowsRedirects($0) },
        Mutant(
            name: "reorders header fields",
            killers: ["request/field-order", "response-fields/wire-order", "response-fields/set-cookie-never-combined"]
        ) { ReordersFields($0) },
        Mutant(name: "adds an Authorization header", killers: ["request/nothing-added"]) { AddsAuthorization($0) },
        Mutant(
            name: "joins repeated response fields",
            killers: ["response-fields/repeats-kept-apart", "response-fields/set-cookie-never-combined"]
        ) { JoinsRepeatedFields($0) },
        Mutant(
            name: "drops the last chunk before a stream error",
            killers: ["streams/cut-keeps-records-bytes", "streams/cut-before-reading-bytes", "streams/cut-while-pool-busy-bytes"]
        ) { DropsLastChunkBeforeError($0) },
        Mutant(name: "holds a body past the limits", killers: ["body/announced-over-limit"]) { IgnoresLimits($0) },
        Mutant(name: "does not decompress", killers: ["body/gzip", "body/deflate"]) { SkipsDecompression($0) },
        Mutant(name: "reports another URL than the one requested", killers: ["response-fields/status-and-url"]) { ReportsWrongURL($0) },
        Mutant(
            name: "reports a timeout as a lost connection",
            killers: ["timeout/before-head", "timeout/stalled-body", "timeout/stalled-upload", "timeout/fractions-honoured"]
        ) { MisreportsError($0, reporting: .timedOut, as: .networkConnectionLost) },
        Mutant(name: "reports a lost connection as one never made", killers: ["connection/reset-after-request"]) {
            MisreportsError($0, reporting: .networkConnectionLost, as: .cannotConnectToHost)
        },
        Mutant(
            name: "drops the error body of a call asking for a file or a stream",
            killers: ["status/404-file-keeps-body", "status/500-stream-keeps-body"]
        ) { DropsErrorBodiesOfDownloads($0) },
        Mutant(name: "returns a cut-short download as a file", killers: ["framing/file-body-shorter-than-content-length"]) {
            ReturnsCutDownloads($0)
        },
        Mutant(name: "reports the URL without its query", killers: ["response-fields/url-keeps-query"]) { DropsQueryFromURL($0) },
        Mutant(
            name: "drops the request body", killers: ["request/body-bytes", "request/file-body", "request/patch-with-body"]
        ) { DropsRequestBody($0) },
        Mutant(
            name: "rounds the status to its class",
            killers: ["status/503", "status/418-json-error-body", "response-fields/status-and-url"]
        ) { RoundsStatus($0) },
        Mutant(
            name: "answers repeated GETs from a cache of its own",
            killers: ["cache/transport-cache-unused", "connection/keep-alive-reused"]
        ) {
            CachesResponses($0)
        },
    ]

    /// The TLS cases, with the trait that builds them and where a base can fail them: URLSessionTransport on Linux
    /// enforces no `ServerTrust`, so RetroSwift refuses their calls before sending, mutant or not, and only
    /// AsyncHTTPClientTransport is left there.
    #if TransportConformance && (AsyncHTTPClient || !canImport(FoundationNetworking))
        private static let tlsCasesCanFail = true
    #else
        private static let tlsCasesCanFail = false
    #endif

    /// IPv6 literals, where a base passes their cases: URLSessionTransport on Linux does not (a known limitation).
    #if AsyncHTTPClient || !canImport(FoundationNetworking)
        private static let ipv6CasesCanFail = true
    #else
        private static let ipv6CasesCanFail = false
    #endif

    /// `ids` when ``tlsCasesCanFail``, else none.
    private static func tls(_ ids: String...) -> [String] { tlsCasesCanFail ? ids : [] }

    /// The mutants of URLs as RFC 3986 writes them (scheme and host without case, IPv6 literals), and of TLS to such
    /// hosts.
    private static var urlMutants: [Mutant] {
        var mutants = [
            Mutant(name: "refuses a scheme in capitals", killers: ["url/scheme-in-capitals"]) { RefusesCapitalSchemes($0) },
            Mutant(
                name: "keeps connections per host as written",
                killers: ["url/host-in-capitals-one-origin"] + tls("tls/host-in-capitals"),
                separately: { PoolsByHostSpelling($0) }),
        ]
        if ipv6CasesCanFail {
            mutants.append(
                Mutant(name: "refuses an IPv6 literal", killers: ["url/ipv6-literal"] + tls("tls/ipv6-literal-no-server-name")) {
                    RefusesIPv6Literals($0)
                })
        }
        if tlsCasesCanFail {
            mutants.append(
                Mutant(name: "names 127.0.0.1 localhost", killers: ["tls/ipv4-literal-no-server-name"]) { NamesIPLiterals($0) })
        }
        return mutants
    }
}

/// A shipped transport the mutants wrap, as the conformance tests make it.
enum MutantBase: String, CaseIterable, CustomStringConvertible, Sendable {
    case urlSession
    #if AsyncHTTPClient
        case asyncHTTPClient
    #endif

    var description: String { rawValue }

    /// A fresh transport. URLSession's runs without cookies: its session's cookie storage would otherwise keep them
    /// itself (a known limitation), and the cookie-jar mutant would change nothing there.
    func make() -> any HttpTransport {
        switch self {
        case .urlSession:
            let configuration = URLSessionConfiguration.ephemeral
            configuration.httpShouldSetCookies = false
            configuration.httpCookieAcceptPolicy = .never
            return URLSessionTransport(configuration: configuration)
        #if AsyncHTTPClient
            case .asyncHTTPClient:
                // Cannot throw: the client is made with redirects disallowed.
                return try! AsyncHTTPClientTransport(client: Self.client)
        #endif
        }
    }

    /// A fresh transport, the `index`th of up to ten that share no connection with each other (the first is
    /// ``make()``'s): URLSession's has sessions of its own anyway; async-http-client's go through clients of their own,
    /// each with its own pool.
    func make(separate index: Int) -> any HttpTransport {
        switch self {
        case .urlSession:
            return make()
        #if AsyncHTTPClient
            case .asyncHTTPClient:
                return index == 0 ? make() : try! AsyncHTTPClientTransport(client: Self.separateClients[(index - 1) % 9])
        #endif
        }
    }

    #if AsyncHTTPClient
        /// The client an app would own, as async-http-client's documentation asks of one given to RetroSwift: redirects
        /// returned, not followed; no retry of a connection that cannot be made; the domain's timeouts and limits, not
        /// the client's own lower ones.
        static let client = makeClient()

        /// Nine more clients made as ``client`` is, for ``make(separate:)``, made on first use and kept, as ``client`` is,
        /// for the whole process.
        static let separateClients = (0..<9).map { _ in makeClient() }

        private static func makeClient() -> HTTPClient {
            var configuration = HTTPClient.Configuration.singletonConfiguration
            configuration.redirectConfiguration = .disallow
            configuration.connectionPool.retryConnectionEstablishment = false
            configuration.timeout.read = nil
            configuration.decompression = .enabled(limit: .ratio(1_000))
            return HTTPClient(eventLoopGroup: HTTPClient.defaultEventLoopGroup, configuration: configuration)
        }
    #endif

    /// The cases that pass on the base whatever a mutant does, so they prove nothing of one: where the transport enforces
    /// no `ServerTrust` (URLSessionTransport on Linux), RetroSwift refuses before sending every call of the TLS cases
    /// that set one, which all do but `tls/unknown-authority-refused`.
    var inertCases: Set<String> {
        (Self.enforcingNoTrust.contains(self) ? Self.trustCases : [])
            .union(Self.presentingNoIdentity.contains(self) ? Self.clientCertificateCases : [])
    }

    /// The bases that present no client certificate, where RetroSwift refuses the calls of the client certificate
    /// cases that set one before sending, mutant or not.
    private static let presentingNoIdentity = Set(
        allCases.filter { !(($0.make() as? any ServerTrustEnforcing)?.serverTrustSupport ?? []).contains(.clientIdentity) })

    private static let clientCertificateCases: Set<String> = [
        "tls/client-certificate-presented", "tls/client-certificate-own-domain-only", "tls/client-certificate-kept-to-its-origin",
    ]

    private static let enforcingNoTrust = Set(
        allCases.filter { (($0.make() as? any ServerTrustEnforcing)?.serverTrustSupport ?? []).isEmpty })

    private static let trustCases = Set(
        TransportConformance.cases.map(\.id).filter { $0.hasPrefix("tls/") && $0 != "tls/unknown-authority-refused" })

    /// The cases the transport underneath does not pass itself, which say nothing of a mutant: its known limitations
    /// (the conformance tests' table), less the cookie one its session here is set not to have.
    var knownLimitations: [String: TransportLimitation] {
        switch self {
        case .urlSession:
            var limitations = ShippedTransport.urlSession.knownLimitations
            limitations["request/no-cookie-jar"] = nil
            return limitations
        #if AsyncHTTPClient
            case .asyncHTTPClient:
                return ShippedTransport.asyncHTTPClient.knownLimitations
        #endif
        }
    }
}
