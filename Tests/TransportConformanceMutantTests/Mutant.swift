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
    /// Wraps a shipped transport.
    let wrap: @Sendable (any HttpTransport) -> any HttpTransport

    var description: String { name }

    /// Every mutant: one per rule a transport can break from outside the library it is built on. Two rules the issue
    /// lists cannot be broken by a wrapper, and have no mutant: swallowing a `1xx` (transports hand over only the final
    /// response) and reusing a closed connection (connections live inside the transport); resending a request after a
    /// connection error stands for the latter.
    static let all: [Mutant] = [
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
        ) { MisreportsTimeouts($0) },
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
                return AsyncHTTPClientTransport(client: Self.client)
        #endif
        }
    }

    #if AsyncHTTPClient
        /// The client an app would own, as async-http-client's documentation asks of one given to RetroSwift: redirects
        /// returned, not followed; no retry of a connection that cannot be made; the domain's timeouts and limits, not
        /// the client's own lower ones.
        static let client: HTTPClient = {
            var configuration = HTTPClient.Configuration.singletonConfiguration
            configuration.redirectConfiguration = .disallow
            configuration.connectionPool.retryConnectionEstablishment = false
            configuration.timeout.read = nil
            configuration.decompression = .enabled(limit: .ratio(1_000))
            return HTTPClient(eventLoopGroup: HTTPClient.defaultEventLoopGroup, configuration: configuration)
        }()
    #endif

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
