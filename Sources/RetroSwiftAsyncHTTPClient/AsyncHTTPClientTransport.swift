#if AsyncHTTPClient
    import AsyncHTTPClient
    import Foundation
    import NIOCore
    import NIOHTTP1
    import NIOHTTPCompression
    import NIOPosix
    import NIOSSL
    @_spi(Transport) import RetroSwift

    /// An `HttpTransport` on swift-server's async-http-client, for server-side Swift on Linux, where it is much
    /// faster than URLSession. Enabled by the package trait `AsyncHTTPClient`.
    ///
    /// Behaves like `URLSessionTransport`: domains with a base URL of their own can share it, the configuration set
    /// through `setConfiguration` is one per transport (a second, different one makes the requests relying on it
    /// fail rather than silently redirecting them), timeouts from the endpoint or domain, task cancellation throws
    /// `CancellationError`, multipart file parts stream from disk, `DownloadedFile` responses stream to disk, and
    /// connection failures surface as `URLError` (`.cannotConnectToHost`, `.timedOut`, `.networkConnectionLost`) so
    /// retry policies work the same on both transports. Nothing is logged.
    ///
    /// A domain's `ServerTrust` with certificate authorities of its own is enforced (``serverTrustSupport``); one
    /// with public-key pins is refused before sending, since async-http-client exposes no verified chain. A
    /// certificate that does not verify throws `URLError(.serverCertificateUntrusted)`, as on URLSession.
    ///
    /// Redirects are RetroSwift's to follow, by its `RedirectPolicy`, the same on every transport: the default
    /// ``failFastClient`` does not follow them itself. A client of your own must be created with
    /// `redirectConfiguration: .disallow` for that policy to apply; one that follows redirects itself applies its own
    /// rules first.
    public final class AsyncHTTPClientTransport: HttpTransport, ServerTrustEnforcing {
        /// The client requests go through; its lifetime is yours (the default ``failFastClient`` needs no shutdown).
        ///
        /// With the default, a call whose body is kept in memory or written to a file goes through one of
        /// ``failFastClient``'s siblings, configured alike but with the call's timeout as its idle read timeout, so that
        /// the connection's own timer bounds each silence of the body at no cost per call (one sibling, and one pool,
        /// per timeout the API declares, up to 16). With a client of your own, a watchdog task per call does it, which
        /// costs about a tenth of a loopback call's throughput (BENCHMARKS.md).
        public let client: HTTPClient
        /// The client streamed responses go through: ``failFastStreamingClient`` with the default ``client``, else
        /// ``client`` itself unless one was given for streams.
        public let streamingClient: HTTPClient

        /// A process-wide client configured like `HTTPClient.shared`, except that a connection that cannot be
        /// established fails the request at once (as URLSession does) instead of being retried until the deadline, and
        /// that redirects are returned to RetroSwift instead of followed.
        public static let failFastClient: HTTPClient = makeFailFastClient(connectionsPerHost: nil, readTimeout: nil)

        /// ``failFastClient``'s twin for streamed responses, with a pool of its own allowing 64 connections per host: an
        /// open stream holds its connection, and streams sharing the pool of ordinary calls (8 per host) would make
        /// those calls wait for a connection, and time out, until a stream ended.
        public static let failFastStreamingClient: HTTPClient = makeFailFastClient(connectionsPerHost: 64, readTimeout: nil)

        /// ``failFastClient``'s siblings, one per timeout calls have asked for, each bounding the silence of a response
        /// with its idle read timeout (see ``sendRequest(with:)``).
        private static let clientsByReadTimeout = Locked<[Int64: HTTPClient]>([:])
        /// How many siblings ``clientsByReadTimeout`` may hold; past it, calls with yet another timeout are timed by a
        /// watchdog task instead. Few APIs declare more than a handful of timeouts.
        private static let maxClientsByReadTimeout = 16

        private static func failFastClient(readTimeout nanoseconds: Int64) -> HTTPClient? {
            clientsByReadTimeout.withLock { clients in
                if let client = clients[nanoseconds] { return client }
                guard clients.count < maxClientsByReadTimeout else { return nil }
                let client = makeFailFastClient(connectionsPerHost: nil, readTimeout: .nanoseconds(nanoseconds))
                clients[nanoseconds] = client
                return client
            }
        }

        private static func makeFailFastClient(connectionsPerHost: Int?, readTimeout: TimeAmount?) -> HTTPClient {
            var configuration = HTTPClient.Configuration.singletonConfiguration
            configuration.timeout.read = readTimeout
            if let connectionsPerHost { configuration.connectionPool.concurrentHTTP1ConnectionsPerHostSoftLimit = connectionsPerHost }
            configuration.connectionPool.retryConnectionEstablishment = false
            configuration.redirectConfiguration = .disallow
            // RetroSwift holds a compressed body with a Content-Length to `ResponseLimits.maxDecompressionRatio` (100 by
            // default) on every transport; the client's own check is a backstop for bodies without one, set well above
            // it so that the call's limit decides whenever it can.
            configuration.decompression = .enabled(limit: .ratio(1_000))
            return HTTPClient(eventLoopGroup: HTTPClient.defaultEventLoopGroup, configuration: configuration)
        }
        /// The timeout used when neither the endpoint nor the domain sets one: the longest wait for the head (connecting
        /// and waiting for a pooled connection included), and then the longest silence of the body.
        public let defaultTimeout: TimeInterval
        /// Where `DownloadedFile` bodies are written (yours once the call returns; deleted if it fails). Multipart
        /// bodies stream straight from their files and need no temporary file.
        public let temporaryDirectory: URL

        /// Creates a transport on `client`.
        ///
        /// - Parameters:
        ///   - client: The HTTP client; ``failFastClient`` by default. A client of your own should be created with
        ///     `redirectConfiguration: .disallow`, so that RetroSwift's `RedirectPolicy` applies.
        ///   - streamingClient: The client for streamed responses; by default ``failFastStreamingClient`` when `client`
        ///     is ``failFastClient``, else `client`. Give streams a client with a pool of its own when they may stay open
        ///     long, so they never hold the connections ordinary calls wait for.
        ///   - defaultTimeout: Seconds of the timeout when none is declared: the longest wait for the head, and then the
        ///     longest silence of the body, as with URLSession.
        ///   - temporaryDirectory: Where downloaded bodies are written; the system's temporary directory by default.
        public init(
            client: HTTPClient = AsyncHTTPClientTransport.failFastClient, streamingClient: HTTPClient? = nil,
            defaultTimeout: TimeInterval = 60, temporaryDirectory: URL = FileManager.default.temporaryDirectory
        ) {
            self.client = client
            self.streamingClient = streamingClient ?? (client === Self.failFastClient ? Self.failFastStreamingClient : client)
            self.defaultTimeout = defaultTimeout
            self.temporaryDirectory = temporaryDirectory
        }

        /// Certificate authorities of the domain's own (`ServerTrust.certificateAuthorities`): a call whose domain has
        /// them goes out with `TLSConfiguration.makeClientConfiguration()` trusting only them, instead of the client's
        /// TLS configuration, and on connections of their own.
        ///
        /// Not public-key pins: async-http-client gives no way to see the chain a connection verified, so RetroSwift
        /// refuses the calls of a domain with pins (`RequestError.Kind.serverTrustUnsupported`) rather than send them
        /// unpinned.
        @_spi(Transport) public var serverTrustSupport: ServerTrustSupport { [.certificateAuthorities] }

        /// Sends the request and returns the response, whatever its status.
        ///
        /// - Parameter params: The request RetroSwift built.
        /// - Returns: The status, headers and body, and the URL requested.
        /// - Throws: `URLError` when no response arrived (`.timedOut` when the head or the body is silent for longer
        ///   than the timeout),
        ///   `CancellationError` when the calling task was cancelled, `RequestError` when the transport is not
        ///   configured.
        public func sendRequest(with params: HttpRequestParams) async throws -> HttpOperationResult {
            guard params.url.host != nil else { throw RequestError.missingBaseURL(of: params) }
            let timeout = Self.nanoseconds(ofTimeout: params.timeout ?? defaultTimeout)
            if params.responseDestination == .stream {
                // Parts go to the stream from the event loop as they are parsed (StreamingResponseDelegate).
                do {
                    return try await StreamingResponseDelegate.send(
                        try makeStreamingRequest(params), params: params, through: streamingClient, timeout: .nanoseconds(timeout),
                        translate: { Self.translate($0, params) })
                } catch {
                    throw Self.translate(error, params)
                }
            }
            let progress = params.progress
            let request = try makeRequest(params, progress: progress)
            let deadline = ContinuousClock.now + .nanoseconds(timeout)
            do {
                // The timeout bounds the wait for the head (async-http-client's deadline, connecting and waiting for a
                // pooled connection included), and then each silence of the body, as URLSession's does: a body that
                // keeps arriving completes however long it takes, and one that stops fails with `.timedOut`.
                if client === Self.failFastClient, let timed = Self.failFastClient(readTimeout: timeout) {
                    // The body's silence is the idle read timeout of a sibling of the default client, which the
                    // connection's own timer enforces at no cost per call.
                    let response = try await execute(request, params: params, on: timed, timeout: timeout, deadline: deadline)
                    return try await result(from: response, url: request.url, params: params, progress: progress, activity: nil)
                }
                let response = try await execute(request, params: params, on: nil, timeout: timeout, deadline: deadline)
                // A client of the user's own: a watchdog task bounds the body's silence.
                return try await Self.withIdleTimeout(.nanoseconds(timeout)) { activity in
                    try await self.result(from: response, url: request.url, params: params, progress: progress, activity: activity)
                }
            } catch {
                throw Self.translate(error, params)
            }
        }

        /// Sends `request`, once more on a new connection when the pooled one it was given turns out closed before the
        /// request went out (a server that sent bytes past its response, such as a body on a `204`, poisons its
        /// connection, and the client closes it just as the next request takes it). Only idempotent requests are sent
        /// again (RFC 9110 §9.2.2); the retry gets what is left of the deadline.
        private func execute(
            _ request: HTTPClientRequest, params: HttpRequestParams, on chosen: HTTPClient?, timeout: Int64,
            deadline: ContinuousClock.Instant
        ) async throws -> HTTPClientResponse {
            let client = chosen ?? client
            do {
                return try await client.execute(request, timeout: .nanoseconds(timeout))
            } catch ChannelError.ioOnClosedChannel where params.method.isIdempotent {
                return try await client.execute(request, timeout: .nanoseconds(Self.nanoseconds(until: deadline)))
            }
        }

        /// The nanoseconds from now to `deadline`, at least zero.
        private static func nanoseconds(until deadline: ContinuousClock.Instant) -> Int64 {
            let left = ContinuousClock.now.duration(to: deadline).components
            return max(0, left.seconds.multipliedReportingOverflow(by: 1_000_000_000).partialValue + left.attoseconds / 1_000_000_000)
        }

        /// A timeout in seconds as nanoseconds, at most a year's: `.infinity` (no timeout, for a stream that may stay
        /// silent) and absurdly long ones would overflow the `Int64` async-http-client counts in. Timeouts that are
        /// not positive numbers never get here: RetroSwift refuses them before the call.
        static func nanoseconds(ofTimeout seconds: TimeInterval) -> Int64 {
            let year: TimeInterval = 365 * 24 * 3600
            guard seconds.isFinite, seconds < year else { return Int64(year) * 1_000_000_000 }
            return Int64(max(seconds, 0) * 1_000_000_000)
        }

        /// Runs `body`, cancelling it and throwing `URLError(.timedOut)` once `timeout` passes without it reporting
        /// progress to the ``BodyActivity`` it is given.
        private static func withIdleTimeout(
            _ timeout: Duration, _ body: @escaping @Sendable (BodyActivity) async throws -> HttpOperationResult
        ) async throws -> HttpOperationResult {
            let activity = BodyActivity()
            return try await withThrowingTaskGroup(of: HttpOperationResult?.self) { group in
                group.addTask { try await body(activity) }
                group.addTask {
                    while true {
                        try await Task.sleep(until: activity.lastProgress + timeout, clock: .continuous)
                        if ContinuousClock.now - activity.lastProgress >= timeout { return nil }
                    }
                }
                defer { group.cancelAll() }
                guard let first = try await group.next(), let value = first else {
                    group.cancelAll()
                    // A download that finished as the timeout passed would leave its file behind unseen.
                    while let late = try? await group.next() {
                        if case .file(let file)? = late?.body { try? FileManager.default.removeItem(at: file) }
                    }
                    throw URLError(.timedOut)
                }
                return value
            }
        }

        private func makeRequest(_ params: HttpRequestParams, progress: TransferProgressReporter?) throws -> HTTPClientRequest {
            // Exactly what RetroSwift resolved: URL, method, every header field in order.
            var request = HTTPClientRequest(url: params.urlString)
            request.method = HTTPMethod(rawValue: params.method.rawValue)
            if let authorities = params.serverTrust?.certificateAuthorities, !authorities.isEmpty {
                request.tlsConfiguration = try Self.tlsConfiguration(trusting: authorities)
            }
            for header in params.headerFields {
                request.headers.add(name: header.name, value: header.value)
            }
            if let body = params.body {
                // Observed uploads go in chunks, so that progress moves as the connection takes them.
                if case .bytes(let data) = body, progress == nil {
                    request.body = .bytes(ByteBuffer(bytes: data))
                } else {
                    let length = try body.length()
                    request.body = .stream(
                        BodyByteStream(body: body, length: length, progress: progress), length: length.map { .known($0) } ?? .unknown)
                }
            }
            return request
        }

        /// The request of a streamed call, for async-http-client's delegate API: exactly what RetroSwift resolved, as
        /// ``makeRequest(_:progress:)`` makes it. A body other than bytes in memory is read in a task of its own and
        /// written as the connection takes it.
        private func makeStreamingRequest(_ params: HttpRequestParams) throws -> HTTPClient.Request {
            var headers = HTTPHeaders()
            for header in params.headerFields {
                headers.add(name: header.name, value: header.value)
            }
            var body: HTTPClient.Body?
            if let requestBody = params.body {
                if case .bytes(let data) = requestBody {
                    body = .bytes(data)
                } else {
                    let length = try requestBody.length()
                    let chunks = BodyByteStream(body: requestBody, length: length, progress: nil)
                    body = .stream(contentLength: length) { writer in
                        let written = HTTPClient.defaultEventLoopGroup.any().makePromise(of: Void.self)
                        written.completeWithTask {
                            for try await chunk in chunks { try await writer.write(.byteBuffer(chunk)).get() }
                        }
                        return written.futureResult
                    }
                }
            }
            var tlsConfiguration: TLSConfiguration?
            if let authorities = params.serverTrust?.certificateAuthorities, !authorities.isEmpty {
                tlsConfiguration = try Self.tlsConfiguration(trusting: authorities)
            }
            return try HTTPClient.Request(
                url: params.urlString, method: HTTPMethod(rawValue: params.method.rawValue), headers: headers, body: body,
                tlsConfiguration: tlsConfiguration)
        }

        /// Parsed certificates of the authorities domains trust, so a call parses none: a handful per process.
        private static let trustRoots = Locked<[[Data]: [NIOSSLCertificate]]>([:])

        /// A client TLS configuration whose only roots are `authorities`.
        private static func tlsConfiguration(trusting authorities: [Data]) throws -> TLSConfiguration {
            let certificates = try trustRoots.withLock { roots in
                if let parsed = roots[authorities] { return parsed }
                let parsed = try authorities.map { try NIOSSLCertificate(bytes: Array($0), format: .der) }
                if roots.count < 16 { roots[authorities] = parsed }
                return parsed
            }
            var configuration = TLSConfiguration.makeClientConfiguration()
            configuration.trustRoots = .certificates(certificates)
            return configuration
        }

        private func result(
            from response: HTTPClientResponse, url: String, params: HttpRequestParams, progress: TransferProgressReporter?,
            activity: BodyActivity?
        ) async throws -> HttpOperationResult {
            let headers = HTTPHeaderFields(response.headers.map { HTTPHeader(name: $0.name, value: $0.value) })
            let status = Int(response.status.code)
            // The head is refused here, before a byte of its body is read: a broken one, or one announcing a body over
            // the call's limits; every piece is then counted against them as it arrives.
            var budget = try ResponseBodyBudget(for: params, statusCode: status, headers: headers)
            let isSuccess = (200..<300).contains(status)
            // Only 2xx bodies are reported: error and redirect bodies are not what the caller waits for.
            let counter =
                isSuccess ? progress.map { DownloadCounter(progress: $0, expected: headers["Content-Length"].flatMap { Int64($0) }) } : nil
            // The URL the response came from, when a client of the user's followed redirects itself; otherwise the one
            // requested, which RetroSwift fills in (and parses only if it is read).
            let redirectedTo = response.history.count > 1 ? response.history.last.flatMap { URL(string: $0.request.url) } : nil
            if params.responseDestination == .file && isSuccess {
                let file = try await Self.download(
                    response.body, to: temporaryDirectory, budget: budget, counter: counter, activity: activity)
                counter?.finish()
                return HttpOperationResult(statusCode: status, headers: headers, body: .file(file), url: redirectedTo)
            }
            var body = ByteBuffer()
            for try await buffer in response.body {
                activity?.touch()
                let size = buffer.readableBytes
                try budget.add(size)
                body.writeImmutableBuffer(buffer)
                counter?.add(size)
            }
            counter?.finish()
            return HttpOperationResult(statusCode: status, headers: headers, body: Data(body.readableBytesView), url: redirectedTo)
        }

        private static func download(
            _ body: HTTPClientResponse.Body, to directory: URL, budget: ResponseBodyBudget, counter: DownloadCounter?,
            activity: BodyActivity?
        ) async throws -> URL {
            let (url, handle) = try TemporaryFile.create(.download, in: directory)
            defer { try? handle.close() }
            var budget = budget
            do {
                for try await chunk in body {
                    activity?.touch()
                    try budget.add(chunk.readableBytes)
                    try handle.write(contentsOf: Data(chunk.readableBytesView))
                    counter?.add(chunk.readableBytes)
                }
            } catch {
                try? FileManager.default.removeItem(at: url)
                throw error
            }
            return url
        }

        /// ``translate(_:)``, and a response the client's parser or decompressor refused as RetroSwift's own checks would
        /// have refused it: a malformed response (a broken `Content-Length`, a bare CR in a field) or one over the limits.
        static func translate(_ error: any Error, _ params: HttpRequestParams) -> any Error {
            func refused(_ kind: RequestError.Kind, _ reason: String) -> RequestError {
                RequestError(kind, endpoint: params.endpoint, reason: "the response is refused: " + reason, underlyingError: error)
            }
            if let parserError = error as? HTTPParserError, parserError != .invalidEOFState {
                return parserError == .headerOverflow
                    ? refused(.responseTooLarge, "its head is larger than async-http-client's parser accepts (80 KiB)")
                    : refused(.malformedResponse, "it is not valid HTTP/1.1 (async-http-client's parser: \(parserError))")
            }
            if let decompressionError = error as? NIOHTTPDecompression.DecompressionError {
                return decompressionError == .limit
                    ? refused(.responseTooLarge, "its body decompresses more than 1000-fold (async-http-client's limit)")
                    : refused(.malformedResponse, "its compressed body cannot be decompressed (\(decompressionError))")
            }
            return translate(error)
        }

        /// Maps client errors onto the errors `URLSessionTransport` throws, so callers and retry policies see one set.
        private static func translate(_ error: any Error) -> any Error {
            if error is CancellationError { return error }
            if let clientError = error as? HTTPClientError {
                switch clientError {
                case .cancelled: return CancellationError()
                case .deadlineExceeded, .readTimeout, .connectTimeout, .writeTimeout: return URLError(.timedOut)
                case .remoteConnectionClosed: return URLError(.networkConnectionLost)
                default: return error
                }
            }
            // The server closed the connection before the body it announced was complete.
            if let parserError = error as? HTTPParserError, parserError == .invalidEOFState {
                return URLError(.networkConnectionLost)
            }
            // TLS: a chain that does not verify (an unknown authority, another host's certificate, expired) is
            // URLSession's `.serverCertificateUntrusted`; any other failed handshake `.secureConnectionFailed`.
            if let tlsError = error as? NIOSSLError {
                if case .handshakeFailed(let failure) = tlsError, "\(failure)".contains("CERTIFICATE_VERIFY_FAILED") {
                    return URLError(.serverCertificateUntrusted, userInfo: [NSLocalizedDescriptionKey: "\(tlsError)"])
                }
                return URLError(.secureConnectionFailed, userInfo: [NSLocalizedDescriptionKey: "\(tlsError)"])
            }
            if let hostError = error as? NIOSSLExtraError, hostError == .failedToValidateHostname {
                return URLError(.serverCertificateUntrusted, userInfo: [NSLocalizedDescriptionKey: "\(hostError)"])
            }
            if error is NIOConnectionError || error is IOError || error is ChannelError {
                return URLError(.cannotConnectToHost)
            }
            return error
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

    /// When a response body last made progress, for the transport's idle timeout.
    final class BodyActivity: Sendable {
        private let last = Locked(ContinuousClock.now)

        /// Records that a piece of the body arrived now.
        func touch() {
            last.withLock { $0 = .now }
        }

        /// When the head or the latest piece of the body arrived.
        var lastProgress: ContinuousClock.Instant { last.current }
    }
#endif
