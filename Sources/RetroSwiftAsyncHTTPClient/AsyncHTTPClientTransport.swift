#if AsyncHTTPClient
    import AsyncHTTPClient
    import Foundation
    import NIOCore
    import NIOHTTP1
    import NIOHTTPCompression
    import NIOPosix
    import NIOSSL
    import RetroSwift

    /// An `HttpTransport` on an async-http-client `HTTPClient` your app already owns — Vapor's, or one of your own.
    /// Enabled by the package trait `AsyncHTTPClient`. For a transport RetroSwift owns on SwiftNIO, faster and with
    /// every server-trust option on Linux, use `NIOTransport` (product `RetroSwiftNIO`).
    ///
    /// Every call goes through `client` and its connection pool: the transport makes no client of its own. The
    /// timeout bounds connecting (waiting for a pooled connection included) and then each silence of the exchange in
    /// either direction, by a timer on the connection's event loop, as URLSession's timeout does on Apple platforms:
    /// every part of the request body the connection takes and every part of the response starts it again, so an
    /// upload or a download that keeps moving completes however long it takes; `.infinity` means none. The client's
    /// own timeouts (`HTTPClient.Configuration.Timeout`: connect, read, write) apply as well, and the first to run
    /// out fails the call with `URLError(.timedOut)`: give the client no read timeout (`timeout.read = nil`) for the
    /// domain's timeouts to be the ones that count. Bodies are held to the domain's `ResponseLimits` as they arrive,
    /// `DownloadedFile` bodies are written on SwiftNIO's thread pool, and a streamed body is taken from the
    /// connection part by part as it is parsed, so nothing that arrived before a failure is lost. Task cancellation
    /// closes the exchange and throws `CancellationError`; connection failures are `URLError`s (`.cannotConnectToHost`
    /// before the request reached a connection, `.networkConnectionLost` after, `.timedOut`), as on the other transports.
    ///
    /// Redirects are RetroSwift's to follow, by the domain's `RedirectPolicy`: the transport refuses a client that
    /// follows them itself (`HTTPClient.shared` does), which would decide each hop, and which credentials go along,
    /// before RetroSwift saw it. It refuses one that retries a connection it could not make as well
    /// (`retryConnectionEstablishment`, async-http-client's default): such a client keeps the calls waiting until its
    /// connect timeout and tells them nothing, so a refused certificate would end a call as a timeout, not at once as
    /// `.serverCertificateUntrusted`. Make the client from ``clientConfiguration``, which sets both.
    ///
    /// A domain's `ServerTrust` with certificate authorities of its own is enforced; one with public-key pins is
    /// refused before sending: async-http-client shows no transport the chain a connection verified (its connection
    /// debug initializers see the channel, but NIOSSL reports the verified chain only to a verification callback,
    /// which async-http-client gives no way to install), and a pin checked against an unverified chain would be no pin.
    public final class AsyncHTTPClientTransport: HttpTransport, ServerTrustEnforcing {
        /// The client ordinary calls go through; its lifetime is yours.
        public let client: HTTPClient
        /// The client streamed responses go through: `client` unless one was given for streams.
        public let streamingClient: HTTPClient
        /// The timeout used when neither the endpoint nor the domain sets one: the longest wait for a connection, and
        /// then the longest silence of the exchange in either direction.
        public let defaultTimeout: TimeInterval
        /// Where `DownloadedFile` bodies are written (yours once the call returns; deleted if it fails).
        public let temporaryDirectory: URL

        /// Creates a transport on `client`.
        ///
        /// - Parameters:
        ///   - client: The app's client, created with redirects disallowed and no retry of failed connections
        ///     (``clientConfiguration`` is) so that RetroSwift's `RedirectPolicy` applies and failures come at once.
        ///   - streamingClient: A client for streamed responses, created as `client` is; `client` by default. An open
        ///     stream holds its connection, so give streams a client of their own when they may stay open long, lest
        ///     they take the connections ordinary calls to the same host wait for.
        ///   - defaultTimeout: Seconds of the timeout when none is declared (the longest silence, see ``defaultTimeout``);
        ///     60 by default.
        ///   - temporaryDirectory: Where downloaded bodies are written; the system's temporary directory by default.
        /// - Throws: ``UnsuitableClientError`` when `client` or `streamingClient` follows redirects itself, retries
        ///   failed connections, or its configuration cannot be read; its description says how to make one the
        ///   transport accepts.
        public convenience init(
            client: HTTPClient, streamingClient: HTTPClient? = nil, defaultTimeout: TimeInterval = 60,
            temporaryDirectory: URL = FileManager.default.temporaryDirectory
        ) throws(UnsuitableClientError) {
            try Self.check(client, as: "client")
            if let streamingClient, streamingClient !== client { try Self.check(streamingClient, as: "streamingClient") }
            self.init(
                unchecked: client, streamingClient: streamingClient, defaultTimeout: defaultTimeout, temporaryDirectory: temporaryDirectory)
        }

        /// A transport on clients not checked for redirects: the tests' way to prove that a client following one anyway
        /// fails the call (see `ResponseDelegate.didVisitURL`).
        init(unchecked client: HTTPClient, streamingClient: HTTPClient?, defaultTimeout: TimeInterval, temporaryDirectory: URL) {
            self.client = client
            self.streamingClient = streamingClient ?? client
            self.defaultTimeout = defaultTimeout
            self.temporaryDirectory = temporaryDirectory
        }

        /// Certificate authorities of the domain's own (`ServerTrust.certificateAuthorities`) and its client identity
        /// (`ClientIdentity`): a call whose domain has either goes out with a TLS configuration of its own (trusting only
        /// those authorities, presenting that certificate), on connections async-http-client keeps for that configuration
        /// alone. Not public-key pins (see the type's documentation).
        public var serverTrustSupport: ServerTrustSupport { [.certificateAuthorities, .clientIdentity] }

        /// Sends the request and returns the response, whatever its status.
        ///
        /// - Parameter params: The request RetroSwift built.
        /// - Returns: The status, headers and body.
        /// - Throws: `URLError` when no response arrived or the body did not arrive whole, `CancellationError` when
        ///   the calling task was cancelled, `RequestError` for a response refused by RetroSwift's rules or a request
        ///   without a base URL.
        public func sendRequest(with params: HttpRequestParams) async throws -> HttpOperationResult {
            guard params.url.host != nil else { throw RequestError.missingBaseURL(of: params) }
            let client = params.responseDestination == .stream ? streamingClient : client
            do {
                // Scheme and host in lower case: async-http-client keeps a pool of connections per host as written, and
                // `LOCALHOST` is `localhost` (RFC 3986 §6.2.2.1).
                let written = params.urlString
                let url = HttpRequestParams.lowercasingSchemeAndHost(written)
                let (request, upload) = try makeRequest(params, url: url)
                var result = try await ResponseDelegate.send(
                    request, upload: upload, params: params, through: client,
                    timeout: .nanoseconds(Self.nanoseconds(ofTimeout: params.timeout ?? defaultTimeout)),
                    temporaryDirectory: temporaryDirectory)
                // The URL requested is reported as RetroSwift wrote it.
                if url != written, result.url?.absoluteString == url { result.url = params.url }
                return result
            } catch {
                throw Self.translate(error, params, requestWritten: false)
            }
        }

        /// A timeout in seconds as nanoseconds, at most a year's: `.infinity` (no timeout, for a stream that may stay
        /// silent) and absurdly long ones would overflow the `Int64` SwiftNIO counts in. Timeouts that are not positive
        /// numbers never get here: RetroSwift refuses them before the call.
        static func nanoseconds(ofTimeout seconds: TimeInterval) -> Int64 {
            let year: TimeInterval = 365 * 24 * 3600
            guard seconds.isFinite, seconds < year else { return Int64(year) * 1_000_000_000 }
            return Int64(max(seconds, 0) * 1_000_000_000)
        }

        /// The largest body in memory handed to async-http-client whole, with its end in the same write: it fits a
        /// connection's send buffer, so its end is never left queued behind it.
        static let wholeBodyLimit = 64 * 1024

        /// The request exactly as RetroSwift resolved it, sent to `url` (its URL with the scheme and host in lower case):
        /// method, every header field in order, and the body: bytes as they are, or a file, a stream or bytes past
        /// ``wholeBodyLimit``, read as the connection takes them, which each attempt uploads afresh.
        ///
        /// async-http-client writes a body's end once the body is handed over, and fails the call when that write
        /// fails; an early answer with `Connection: close` (a 413 before the upload was read) closes the connection
        /// under an end still queued behind megabytes of body, and the answer it read was lost (one run in two under
        /// load). Through ``BodyByteStream/upload(on:gate:)`` at most a chunk goes ahead of the connection, and the end
        /// follows the write that completes the body at once.
        private func makeRequest(_ params: HttpRequestParams, url: String) throws -> (HTTPClient.Request, upload: BodyByteStream?) {
            var headers = HTTPHeaders()
            for header in params.headerFields {
                headers.add(name: header.name, value: header.value)
            }
            var body: HTTPClient.Body?
            var upload: BodyByteStream?
            switch params.body {
            case .bytes(let data)? where data.count <= Self.wholeBodyLimit: body = .bytes(data)
            case let other?: upload = BodyByteStream(body: other, length: try other.length())
            case nil: break
            }
            var tlsConfiguration: TLSConfiguration?
            let authorities = params.serverTrust?.certificateAuthorities ?? []
            if !authorities.isEmpty || params.clientIdentity != nil {
                tlsConfiguration = try Self.tlsConfiguration(trusting: authorities, presenting: params.clientIdentity, for: params)
            }
            let request = try HTTPClient.Request(
                url: url, method: HTTPMethod(rawValue: params.method.rawValue), headers: headers, body: body,
                tlsConfiguration: tlsConfiguration)
            return (request, upload)
        }

        /// Parsed certificates of the authorities domains trust, so a call parses none: a handful per process.
        private static let trustRoots = Locked<[[Data]: [NIOSSLCertificate]]>([:])

        /// Parsed certificates and keys of the identities domains present, so a call parses none: a handful per process.
        private static let identities = Locked<[ClientIdentity: (chain: [NIOSSLCertificate], key: NIOSSLPrivateKey)]>([:])

        /// A client TLS configuration whose only roots are `authorities` (the system's when empty) and that presents
        /// `identity`, if any. async-http-client pools connections by the configuration, certificate and key included,
        /// so a connection presenting an identity is never given to a call without it.
        private static func tlsConfiguration(
            trusting authorities: [Data], presenting identity: ClientIdentity?, for params: HttpRequestParams
        ) throws -> TLSConfiguration {
            // Most apps have one such domain: its configuration is found by comparing bytes with the last one made,
            // which costs less than hashing them for the caches below (a certificate is a kilobyte or so).
            if let last = lastConfiguration.withLock({ $0 }), last.authorities == authorities, last.identity == identity {
                return last.configuration
            }
            let configuration = try makeTLSConfiguration(trusting: authorities, presenting: identity, for: params)
            lastConfiguration.withLock { $0 = (authorities, identity, configuration) }
            return configuration
        }

        /// The last configuration ``tlsConfiguration(trusting:presenting:)`` made, with what it was made for.
        private static let lastConfiguration = Locked<(authorities: [Data], identity: ClientIdentity?, configuration: TLSConfiguration)?>(
            nil)

        private static func makeTLSConfiguration(
            trusting authorities: [Data], presenting identity: ClientIdentity?, for params: HttpRequestParams
        ) throws -> TLSConfiguration {
            var configuration = TLSConfiguration.makeClientConfiguration()
            if !authorities.isEmpty {
                let certificates = try trustRoots.withLock { roots in
                    if let parsed = roots[authorities] { return parsed }
                    let parsed = try authorities.map { try NIOSSLCertificate(bytes: Array($0), format: .der) }
                    if roots.count < 16 { roots[authorities] = parsed }
                    return parsed
                }
                configuration.trustRoots = .certificates(certificates)
            }
            if let identity {
                let parsed = try identities.withLock { identities in
                    if let parsed = identities[identity] { return parsed }
                    let parsed: (chain: [NIOSSLCertificate], key: NIOSSLPrivateKey)
                    do {
                        switch identity.material {
                        case .pem(let chain, let keyPEM):
                            parsed = (
                                try chain.map { try NIOSSLCertificate(bytes: Array($0), format: .der) },
                                try NIOSSLPrivateKey(bytes: Array(keyPEM.utf8), format: .pem)
                            )
                        case .pkcs12(let archive, let passphrase):
                            let bundle = try NIOSSLPKCS12Bundle(buffer: Array(archive), passphrase: Array(passphrase.utf8))
                            parsed = (bundle.certificateChain, bundle.privateKey)
                        }
                    } catch {
                        // Before anything is sent, naming the endpoint: not a connection that could not be made.
                        throw RequestError.unreadableClientIdentity(of: params, error)
                    }
                    if identities.count < 16 { identities[identity] = parsed }
                    return parsed
                }
                configuration.certificateChain = parsed.chain.map { .certificate($0) }
                configuration.privateKey = .privateKey(parsed.key)
            }
            return configuration
        }

        /// Maps async-http-client's and SwiftNIO's errors onto those the other transports throw, by type and by when
        /// they came: `requestWritten` once the request's head reached the connection (or a response began), so a
        /// broken connection is a lost one — the server may have the request — not one never made.
        /// A response the client's parser or decompressor refused is refused as RetroSwift's own checks would refuse
        /// it: malformed (a broken `Content-Length`, a bare CR in a field) or over the limits.
        static func translate(_ error: any Error, _ params: HttpRequestParams, requestWritten: Bool) -> any Error {
            func refused(_ kind: RequestError.Kind, _ reason: String) -> RequestError {
                RequestError(kind, endpoint: params.endpoint, reason: "the response is refused: " + reason, underlyingError: error)
            }
            switch error {
            case is CancellationError, is RequestError, is URLError:
                return error
            case let parserError as HTTPParserError:
                if parserError == .invalidEOFState { return URLError(.networkConnectionLost) }
                return parserError == .headerOverflow
                    ? refused(.responseTooLarge, "its head is larger than async-http-client's parser accepts (80 KiB)")
                    : refused(.malformedResponse, "it is not valid HTTP/1.1 (async-http-client's parser: \(parserError))")
            case let decompressionError as NIOHTTPDecompression.DecompressionError:
                return decompressionError == .limit
                    ? refused(.responseTooLarge, "its body decompresses past the client's limit")
                    : refused(.malformedResponse, "its compressed body cannot be decompressed (\(decompressionError))")
            case let clientError as HTTPClientError:
                switch clientError {
                case .cancelled: return CancellationError()
                case .deadlineExceeded, .readTimeout, .connectTimeout, .writeTimeout, .tlsHandshakeTimeout: return URLError(.timedOut)
                case .remoteConnectionClosed: return URLError(.networkConnectionLost)
                default: return error
                }
            case let tlsError as NIOSSLError:
                // NIOSSL reports a chain that did not verify as a failed handshake whose BoringSSL error it keeps to
                // itself; its code is the one typed thing left to tell it from other handshake failures.
                if case .handshakeFailed(let failure) = tlsError, Self.isCertificateVerificationFailure(failure) {
                    return URLError(.serverCertificateUntrusted, userInfo: [NSLocalizedDescriptionKey: "\(tlsError)"])
                }
                return URLError(.secureConnectionFailed, userInfo: [NSLocalizedDescriptionKey: "\(tlsError)"])
            case let tlsError as BoringSSLError:
                // An alert after the handshake, as TLS 1.3 sends a server's refusal of a client certificate (missing or
                // not trusted): the client learns it on its first read.
                return URLError(
                    .secureConnectionFailed, userInfo: [NSLocalizedDescriptionKey: "\(tlsError)", NSUnderlyingErrorKey: tlsError])
            case let hostError as NIOSSLExtraError where hostError == .failedToValidateHostname:
                return URLError(.serverCertificateUntrusted, userInfo: [NSLocalizedDescriptionKey: "\(hostError)"])
            case is NIOConnectionError:
                return URLError(.cannotConnectToHost)
            case is IOError, is ChannelError:
                return URLError(requestWritten ? .networkConnectionLost : .cannotConnectToHost)
            default:
                return error
            }
        }

        /// BoringSSL's packed code for `SSL_R_CERTIFICATE_VERIFY_FAILED` in the SSL library: `ERR_PACK(ERR_LIB_SSL, 125)`.
        private static let certificateVerifyFailed = "268435581"

        /// Whether a failed handshake failed on the server's chain.
        private static func isCertificateVerificationFailure(_ failure: BoringSSLError) -> Bool {
            guard case .sslError(let errors) = failure else { return false }
            // `BoringSSLInternalError` keeps its code private and prints it as "Error: <code> …".
            return errors.contains { "\($0)".hasPrefix("Error: \(certificateVerifyFailed) ") }
        }
    }

    /// Counts the bytes of a 2xx body for a progress observer.
    final class DownloadCounter: Sendable {
        private let progress: TransferProgressReporter
        private let expected: Int64?
        private let received = Locked<Int64>(0)

        init(progress: TransferProgressReporter, expected: Int64?) {
            self.progress = progress
            self.expected = expected
            progress.reportDownload(completed: 0, expected: expected)
        }

        func add(_ count: Int) {
            received.withLock { received in
                received += Int64(count)
                progress.reportDownload(completed: received, expected: expected)
            }
        }

        func finish() {
            progress.finishDownload(total: received.current)
        }
    }
#endif
