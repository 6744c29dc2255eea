import Foundation
import RetroSwift

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// An `HttpTransport` on `URLSession`, for Apple platforms and Linux.
///
/// - Domains with a base URL of their own (`ApiDomain(transport:baseURL:)`, `Domain.baseURL`) can share one
///   transport: each call carries its domain's base URL and shared headers. The configuration set through
///   `setConfiguration` is one per transport: a second one with different values (two domains sharing this
///   transport) makes the requests that rely on it fail with `RequestError.transportNotConfigured` instead of
///   silently sending one domain's calls to the other's host.
/// - Timeouts: the endpoint's or domain's timeout becomes `URLRequest.timeoutInterval`, URLSession's idle timeout:
///   it bounds connecting and each silence in either direction, so an upload or a download that keeps moving
///   completes however long it takes; expiry throws `URLError(.timedOut)`, and `.infinity` means none. On Linux,
///   where swift-corelibs-foundation counts it in whole seconds (0.5 s would fire at once), a timeout with a fraction
///   of a second is kept by a timer of the transport's own with the same meaning (its `DownloadedFile` calls then go
///   through the transport's own session rather than a download task).
/// - Cancelling the calling task cancels the URLSession task at once and throws `CancellationError`.
/// - Multipart bodies with file parts are written to a temporary file chunk by chunk and uploaded from it, and
///   `@RawBody` files are uploaded from where they are, so a large file is never held in memory — on Apple
///   platforms. On Linux a file body is read into memory first (still sent with its `Content-Length`):
///   swift-corelibs-foundation's upload from a file crashes the process when the transfer ends while it waits for
///   the file, as a cancellation or a timeout can make it do. To stream large files from disk on Linux, use
///   `AsyncHTTPClientTransport`. `DownloadedFile` responses are downloaded to disk everywhere. Both go to
///   ``temporaryDirectory``, and a call that fails leaves nothing there. (On Linux a download that fails mid-transfer
///   leaves swift-corelibs-foundation's own partial file in `NSTemporaryDirectory()`: it says nowhere where it is.)
/// - Streamed responses run on a session of their own, allowing at least 64 connections per host: an open stream
///   holds its connection, and streams sharing the connections of ordinary calls (6 per host by default) would make
///   those calls wait, and time out, until a stream ended.
/// - Bodies are read piece by piece, so the domain's `ResponseLimits` stop one as it arrives rather than after
///   URLSession held all of it: calls run on a session the transport makes from `session.configuration` (its cookie
///   storage, cache, proxies and headers apply), since swift-corelibs-foundation hands body pieces only to a
///   session's own delegate. Your session's delegate still decides client-certificate challenges, and server-trust
///   challenges of domains without a `ServerTrust` of their own; it no longer sees the tasks' data or metrics.
///   `DownloadedFile` calls use a download task of `session` itself, unless their domain has a `ServerTrust`.
/// - Redirects: the session never follows them itself; RetroSwift does, by the domain's or endpoint's
///   `RedirectPolicy`, so credentials stay with their origin and a `307` keeps its body, on Linux too.
/// - Authentication challenges (Basic and Digest; NTLM and Negotiate on Apple platforms) are answered only with
///   ``credential``, only for the configured origin and only once; otherwise the `401` comes back as the response.
///   On Linux its body is empty: swift-corelibs-foundation cannot go on without a credential, so the transport
///   ends the exchange there. Server-trust challenges of a domain with a `ServerTrust` (`Domain.serverTrust`) are
///   decided by it, on Apple platforms; other challenges (server trust for other domains, client certificates of
///   domains without a `ClientIdentity`) go to your session's delegate, so certificate pinning done there keeps working.
/// - Client certificates, on Apple platforms: a domain's `ClientIdentity` made from a PKCS #12 archive
///   (`ClientIdentity(pkcs12:passphrase:)`) answers the server's client-certificate challenges. Its calls run on
///   sessions of their own, one pair per identity, so that no connection that presented it serves another domain's
///   call. One made from PEM is refused before sending (the system makes identities from archives only), and on
///   Linux, where libcurl asks no delegate, every `https` call of a domain with an identity is.
/// - Credentials in the session configuration's `httpAdditionalHeaders` cannot be withheld from another origin
///   (URLSession adds them to every request): a redirect or a `@Url` call that leaves the origin then fails with
///   `RequestError.Kind.redirectRefused`. Other headers
///   there (a `User-Agent`) go everywhere. Give credentials to the domain as shared headers instead.
/// - Nothing is printed or logged. Calls are logged, the same way on every transport, by an interceptor on the
///   domain: `LoggingInterceptor`, or `SwiftLogInterceptor` from `RetroSwiftLogging`.
public final class URLSessionTransport: HttpTransport, ServerTrustEnforcing {
    /// The session whose configuration the transport's calls run with, and whose delegate decides server-trust and
    /// client-certificate challenges (see the type's documentation).
    public let session: URLSession
    /// The credential that answers HTTP authentication challenges from the configured host, or `nil` to answer none.
    public let credential: URLCredential?
    /// Where the transport writes multipart bodies with file parts before uploading them on Apple platforms (deleted
    /// when the call ends, whatever its outcome; on Linux they are sent from memory) and `DownloadedFile` bodies
    /// (yours once the call returns; deleted if it fails).
    public let temporaryDirectory: URL
    /// How far, in bytes, a streamed response's reader may fall behind on Linux before the stream fails with
    /// `URLError(.dataLengthExceedsMaximum)`: swift-corelibs-foundation cannot pause a transfer, so without a limit
    /// a reader slower than the network would grow memory without bound. Apple platforms pause the task instead.
    public let maxBufferedStreamBytes: Int
    private let delegateSession = LazyDelegateSession(forStreams: false)
    /// Streamed responses' own session: a stream holds its connection for as long as it is read, so streams sharing the
    /// per-host connections of ordinary calls would starve them.
    private let streamSession = LazyDelegateSession(forStreams: true)
    /// The sessions of the calls of domains with a client identity, a pair per identity: URLSession pools connections
    /// per session, and a connection that presented one domain's certificate must serve no other domain's call.
    private let identitySessions = Locked<[ClientIdentity: (calls: LazyDelegateSession, streams: LazyDelegateSession)]>([:])

    /// Creates a transport on `session`'s configuration.
    ///
    /// Most calls do not run on `session` itself but on two sessions of the transport's own, made on first use from
    /// a copy of `session.configuration`, so that the app's cookie storage, URL cache and cache policy, proxies, TLS
    /// settings and `httpAdditionalHeaders` apply (on Linux, not its URL cache: there they keep none, since
    /// swift-corelibs-foundation's traps when calls are cancelled from many tasks; use a domain's `HTTPCache`): the
    /// transport reads every body piece by piece to hold it to the call's `ResponseLimits`, which
    /// swift-corelibs-foundation allows only a session's own delegate. One of them runs ordinary calls, the other
    /// streamed responses (with at least 64 connections per host). Only `DownloadedFile` calls of domains without a
    /// `ServerTrust` run on `session` itself, as download tasks. So `session`'s delegate
    /// sees neither the data nor the task metrics of RetroSwift's calls, and they do not share its connection pool; it
    /// still decides their client-certificate challenges, and the server-trust challenges of domains without a
    /// `ServerTrust` of their own.
    ///
    /// - Parameters:
    ///   - session: The session whose configuration, and delegate for challenges, calls run with (`URLSession.shared`
    ///     by default).
    ///   - credential: Answers Basic, Digest, NTLM or Negotiate challenges from the configured host, once; `nil`
    ///     (the default) answers none, so the `401` is returned.
    ///   - temporaryDirectory: Where upload bodies with files and downloaded bodies are written; the system's
    ///     temporary directory by default.
    ///   - maxBufferedStreamBytes: How far a streamed response's reader may fall behind on Linux; 64 MiB by default.
    public init(
        session: URLSession = .shared, credential: URLCredential? = nil,
        temporaryDirectory: URL = FileManager.default.temporaryDirectory, maxBufferedStreamBytes: Int = 64 << 20
    ) {
        self.session = session
        self.credential = credential
        self.temporaryDirectory = temporaryDirectory
        self.maxBufferedStreamBytes = maxBufferedStreamBytes
    }

    /// Creates a transport on a new session with `configuration`; see ``init(session:credential:temporaryDirectory:maxBufferedStreamBytes:)``
    /// for what runs where.
    ///
    /// - Parameters:
    ///   - configuration: The configuration of the new session.
    ///   - credential: Answers Basic, Digest, NTLM or Negotiate challenges from the configured host, once; `nil`
    ///     (the default) answers none, so the `401` is returned.
    ///   - temporaryDirectory: Where upload bodies with files and downloaded bodies are written; the system's
    ///     temporary directory by default.
    ///   - maxBufferedStreamBytes: How far a streamed response's reader may fall behind on Linux; 64 MiB by default.
    public convenience init(
        configuration: URLSessionConfiguration, credential: URLCredential? = nil,
        temporaryDirectory: URL = FileManager.default.temporaryDirectory, maxBufferedStreamBytes: Int = 64 << 20
    ) {
        self.init(
            session: URLSession(configuration: configuration), credential: credential, temporaryDirectory: temporaryDirectory,
            maxBufferedStreamBytes: maxBufferedStreamBytes)
    }

    /// Everything on Apple platforms, where the transport decides the server-trust challenges of a domain with a
    /// `ServerTrust` (its certificate authorities, the host name, then its pins) for every kind of call. Nothing on
    /// Linux: swift-corelibs-foundation verifies certificates inside libcurl against the system's authorities and
    /// delivers no server-trust challenge, so RetroSwift refuses the calls of a domain with a `ServerTrust` of its
    /// own there (`RequestError.Kind.serverTrustUnsupported`); use `AsyncHTTPClientTransport` for custom
    /// authorities on Linux. `.pkcs12ClientIdentity` on Apple platforms, where a domain's `ClientIdentity` made from a
    /// PKCS #12 archive answers client-certificate challenges; on Linux a domain with a `ClientIdentity` has its
    /// `https` calls refused before sending (use `NIOTransport` or `AsyncHTTPClientTransport` for mutual TLS there).
    public var serverTrustSupport: ServerTrustSupport {
        // Where ServerTrustEvaluation decides server-trust challenges and ClientIdentityCredential answers
        // client-certificate ones (SessionTaskDelegate).
        #if canImport(Security) && !canImport(FoundationNetworking)
            [.certificateAuthorities, .publicKeyPins, .pkcs12ClientIdentity]
        #else
            []
        #endif
    }

    /// Sends the request and returns the response, whatever its status; never follows a redirect itself.
    ///
    /// - Parameter params: The request RetroSwift built.
    /// - Returns: The status, headers and body, and the URL requested.
    /// - Throws: `URLError` when no response arrived, `CancellationError` when the calling task was cancelled,
    ///   `RequestError` when the transport is not configured.
    public func sendRequest(with params: HttpRequestParams) async throws -> HttpOperationResult {
        guard params.url.host != nil else { throw RequestError.missingBaseURL(of: params) }
        try refuseSessionCredentials(for: params)
        let lowered = Self.lowercaseOriginURL(of: params)
        let request = makeRequest(params, url: lowered ?? params.url)
        // The credential answers challenges from the origin the call goes to, unless RetroSwift withheld the
        // credentials from it: a redirect or a `@Url` field left the base URL's origin.
        let delegate = SessionTaskDelegate(
            credential: params.withholdsCredentials ? nil : credential, credentialOrigin: params.url, userSession: session,
            serverTrust: params.serverTrust, clientCredential: try Self.clientCredential(for: params))
        do {
            var result = try await perform(request, params: params, delegate: delegate)
            // The session follows no redirect: the response came from the URL requested, reported as RetroSwift wrote it.
            if lowered != nil { result.url = params.url }
            return result
        } catch {
            throw Self.translate(error, params)
        }
    }

    /// The credential that presents the domain's client identity, on Apple platforms; `nil` without one, and on Linux,
    /// where RetroSwift hands this transport no `https` call of a domain with one.
    private static func clientCredential(for params: HttpRequestParams) throws -> URLCredential? {
        #if canImport(Security) && !canImport(FoundationNetworking)
            guard let identity = params.clientIdentity, params.url.scheme?.lowercased() == "https" else { return nil }
            return try ClientIdentityCredential.credential(presenting: identity, for: params)
        #else
            return nil
        #endif
    }

    /// The transport's sessions for `params`'s calls: the identity's own pair when its domain has one, else the
    /// shared pair.
    private func sessions(for params: HttpRequestParams) -> (calls: LazyDelegateSession, streams: LazyDelegateSession) {
        guard let identity = params.clientIdentity else { return (delegateSession, streamSession) }
        return identitySessions.withLock { sessions in
            if let made = sessions[identity] { return made }
            let made = (LazyDelegateSession(forStreams: false), LazyDelegateSession(forStreams: true))
            sessions[identity] = made
            return made
        }
    }

    /// A status line libcurl refuses ("Unsupported response code", which swift-corelibs-foundation reports as
    /// `URLError(.unsupportedURL)`) as the malformed response it is, as async-http-client's parser refuses it; and a
    /// certificate libcurl refuses as `.serverCertificateUntrusted`, as on Apple platforms.
    private static func translate(_ error: any Error, _ params: HttpRequestParams) -> any Error {
        guard let urlError = error as? URLError else { return error }
        #if canImport(FoundationNetworking)
            // swift-corelibs-foundation reports libcurl's TLS failures as `.unknown`, with curl's message: "SSL
            // certificate problem: …" for a chain that does not verify, "SSL: no alternative certificate subject name
            // matches target host name …" for another host's certificate.
            if urlError.code == .unknown {
                let message = urlError.localizedDescription
                if message.hasPrefix("SSL certificate problem") || message.hasPrefix("SSL: no alternative certificate subject name")
                    || message.hasPrefix("SSL: certificate subject name")
                {
                    return URLError(.serverCertificateUntrusted, userInfo: [NSLocalizedDescriptionKey: message])
                }
            }
        #endif
        guard urlError.code == .unsupportedURL, urlError.localizedDescription.contains("response code") else { return error }
        return RequestError(
            .malformedResponse, endpoint: params.endpoint,
            reason: "the response is refused: its status line is not valid HTTP/1.1 (\(urlError.localizedDescription))",
            underlyingError: urlError)
    }

    /// URLSession adds the session configuration's `httpAdditionalHeaders` to every request, and a request can
    /// override them but not remove them; so when a redirect or a `@Url` field has left the base URL's origin and such
    /// a header is a credential (`Authorization`, `Cookie`, `Proxy-Authorization`), the call stops rather than send it
    /// there.
    private func refuseSessionCredentials(for params: HttpRequestParams) throws {
        guard params.withholdsCredentials, let additional = session.configuration.httpAdditionalHeaders else { return }
        let names = additional.keys.map { "\($0)" }.filter { RedirectPolicy.standardCredentialHeaders.contains(HeaderName.key($0)) }
            .sorted()
        guard let name = names.first else { return }
        throw RequestError(
            .redirectRefused, endpoint: params.endpoint,
            reason: "the call leads to \(params.url.absoluteString), another origin than the base URL's, but the session's "
                + "httpAdditionalHeaders carry '\(name)', which URLSession would send there; give it to the domain as a "
                + "shared header instead, which RetroSwift withholds from other origins"
        )
    }

    /// `params.url` with its scheme and host in lower case, or `nil` when they are already: they compare without case
    /// (RFC 3986 §6.2.2.1), but swift-corelibs-foundation takes only the schemes `http` and `https` as written, and
    /// fails `HTTP://` with `URLError(.unsupportedURL)`.
    private static func lowercaseOriginURL(of params: HttpRequestParams) -> URL? {
        let url = params.url
        func hasCapitals(_ part: String?) -> Bool { part?.utf8.contains { (65...90).contains($0) } ?? false }
        guard hasCapitals(url.scheme) || hasCapitals(url.host) else { return nil }
        return URL(string: HttpRequestParams.lowercasingSchemeAndHost(params.urlString))
    }

    /// The request exactly as RetroSwift resolved it: its URL (`url`, with the scheme and host in lower case), method,
    /// every header field, timeout.
    private func makeRequest(_ params: HttpRequestParams, url: URL) -> URLRequest {
        var request = URLRequest(url: url)
        request.httpMethod = params.method.rawValue
        // Capped at a year: swift-corelibs-foundation turns the interval into whole milliseconds, which `.infinity` (no
        // timeout, for a stream that may stay silent) would overflow.
        if let timeout = params.timeout, timeout > 0 { request.timeoutInterval = min(timeout, 365 * 24 * 3600) }
        #if canImport(FoundationNetworking)
            // swift-corelibs-foundation would round a fraction down to whole seconds (0.5 s to none at all): the call's
            // own SilenceTimer keeps it instead, and URLSession's waits beyond it.
            if SilenceTimer.isNeeded(for: params.timeout) { request.timeoutInterval = 365 * 24 * 3600 }
        #endif
        // RetroSwift's cache decides; URLCache must neither answer for it (a 200 where RetroSwift asked a 304) nor
        // store a second copy (see DelegateSessionDelegate's willCacheResponse).
        if params.isCachedByRetroSwift { request.cachePolicy = .reloadIgnoringLocalCacheData }
        for header in params.headerFields {
            request.setValue(header.value, forHTTPHeaderField: header.name)
        }
        return request
    }

    private func perform(_ request: URLRequest, params: HttpRequestParams, delegate: SessionTaskDelegate) async throws
        -> HttpOperationResult
    {
        let upload = try await UploadSource(params.body, temporaryDirectory: temporaryDirectory)
        defer { upload.cleanUp() }
        let progress = params.progress
        if params.responseDestination == .file && progress == nil {
            return try await download(request, params: params, upload: upload, delegate: delegate)
        }
        // Bodies in memory and streamed bodies come piece by piece through the delegate session, which counts them
        // against the call's `ResponseLimits` as they arrive: a completion handler would get a body only once URLSession
        // had held all of it, however large it grew.
        let pair = sessions(for: params)
        let sessions = params.responseDestination == .stream ? pair.streams : pair.calls
        return try await sessions.session(for: session).send(
            request, params: params, upload: upload, decisions: delegate, temporaryDirectory: temporaryDirectory,
            destination: params.responseDestination, progress: progress,
            maxBufferedStreamBytes: maxBufferedStreamBytes)
    }

    /// Sends `request` and writes a 2xx response body to a new file in ``temporaryDirectory``.
    private func download(_ request: URLRequest, params: HttpRequestParams, upload: UploadSource, delegate: SessionTaskDelegate)
        async throws
        -> HttpOperationResult
    {
        #if canImport(FoundationNetworking)
            // A download task first writes to NSTemporaryDirectory(), and swift-corelibs-foundation crashes the
            // process (a `try!`) when it cannot create its file there. The streaming session writes straight into
            // temporaryDirectory instead, but without back-pressure: its memory grows with the body (BENCHMARKS.md
            // section 4), so it is only the fallback.
            let downloadTaskCanWrite = FileManager.default.isWritableFile(atPath: NSTemporaryDirectory())
        #else
            let downloadTaskCanWrite = true
        #endif
        // A download task takes no file body: a body stream would go chunked, an upload task sends the file with
        // its Content-Length.
        let hasFileBody = if case .file = upload { true } else { false }
        #if canImport(FoundationNetworking)
            // A download task tells nobody of its moves, which a timeout of the transport's own needs.
            let timedByTransport = SilenceTimer.isNeeded(for: params.timeout)
        #else
            let timedByTransport = false
        #endif
        // A call with a ServerTrust or a ClientIdentity of its own goes through a delegate session too: on a session of
        // the user's, a delegate with a session-level challenge method would decide its challenges instead.
        if hasFileBody || !downloadTaskCanWrite || params.serverTrust != nil || params.clientIdentity != nil || timedByTransport {
            return try await sessions(for: params).calls.session(for: session).send(
                request, params: params, upload: upload, decisions: delegate, temporaryDirectory: temporaryDirectory, destination: .file,
                progress: nil, maxBufferedStreamBytes: maxBufferedStreamBytes)
        }
        var request = request
        if case .data(let data) = upload { request.httpBody = data }
        return try await SessionTaskRunner.download(
            request, params: params, in: session, delegate: delegate, temporaryDirectory: temporaryDirectory)
    }
}

/// One of the transport's ``DelegateSession``s, made on first use from the configuration of the transport's session.
private final class LazyDelegateSession: Sendable {
    /// The least number of connections per host the streams' session allows: each open stream holds one.
    static let streamConnectionsPerHost = 64

    private let made = Locked<DelegateSession?>(nil)
    private let forStreams: Bool

    init(forStreams: Bool) {
        self.forStreams = forStreams
    }

    func session(for session: URLSession) -> DelegateSession {
        made.withLock { made in
            if let made { return made }
            // A copy: the user's configuration object is left as it is.
            let configuration = session.configuration.copy() as? URLSessionConfiguration ?? session.configuration
            #if canImport(FoundationNetworking)
                // No URLCache on Linux: swift-corelibs-foundation's, under calls cancelled from many tasks at once,
                // makes URLSessionTask.cancel() trap ("a task that in not in the registry"). RetroSwift's own HTTPCache
                // is there for domains that want one; on Apple platforms the app's URLCache applies as configured.
                configuration.urlCache = nil
            #endif
            if forStreams {
                configuration.httpMaximumConnectionsPerHost = max(
                    configuration.httpMaximumConnectionsPerHost, Self.streamConnectionsPerHost)
            }
            let new = DelegateSession(configuration: configuration)
            made = new
            return new
        }
    }
}
