#if AsyncHTTPClient
    import AsyncHTTPClient
    import Foundation
    import NIOCore
    import NIOHTTP1
    import NIOPosix
    import RetroSwift

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
    /// Redirects are RetroSwift's to follow, by its `RedirectPolicy`, the same on every transport: the default
    /// ``failFastClient`` does not follow them itself. A client of your own must be created with
    /// `redirectConfiguration: .disallow` for that policy to apply; one that follows redirects itself applies its own
    /// rules first.
    public final class AsyncHTTPClientTransport: ConfigurableHttpTransport {
        /// The client requests go through; its lifetime is yours (the default ``failFastClient`` needs no shutdown).
        public let client: HTTPClient

        /// A process-wide client configured like `HTTPClient.shared`, except that a connection that cannot be
        /// established fails the request at once (as URLSession does) instead of being retried until the deadline, and
        /// that redirects are returned to RetroSwift instead of followed.
        public static let failFastClient: HTTPClient = {
            var configuration = HTTPClient.Configuration.singletonConfiguration
            configuration.connectionPool.retryConnectionEstablishment = false
            configuration.redirectConfiguration = .disallow
            return HTTPClient(eventLoopGroup: HTTPClient.defaultEventLoopGroup, configuration: configuration)
        }()
        /// Where the domain's configuration is kept.
        public let configuration = HttpTransportConfigurationStore()
        /// The whole-request deadline used when neither the endpoint nor the domain sets a timeout.
        public let defaultTimeout: TimeInterval
        /// The largest body kept in memory; larger ones fail (declare `DownloadedFile` to stream them to disk).
        public let maxBodySize: Int
        /// Where `DownloadedFile` bodies are written (yours once the call returns; deleted if it fails). Multipart
        /// bodies stream straight from their files and need no temporary file.
        public let temporaryDirectory: URL

        /// Creates a transport on `client`.
        ///
        /// - Parameters:
        ///   - client: The HTTP client; ``failFastClient`` by default. A client of your own should be created with
        ///     `redirectConfiguration: .disallow`, so that RetroSwift's `RedirectPolicy` applies.
        ///   - defaultTimeout: Seconds a whole request may take when no timeout is declared. Unlike URLSession's
        ///     idle timeout this is a deadline for the complete exchange.
        ///   - maxBodySize: The largest response body held in memory, in bytes.
        ///   - temporaryDirectory: Where downloaded bodies are written; the system's temporary directory by default.
        public init(
            client: HTTPClient = AsyncHTTPClientTransport.failFastClient, defaultTimeout: TimeInterval = 60,
            maxBodySize: Int = 256 * 1024 * 1024, temporaryDirectory: URL = FileManager.default.temporaryDirectory
        ) {
            self.client = client
            self.defaultTimeout = defaultTimeout
            self.maxBodySize = maxBodySize
            self.temporaryDirectory = temporaryDirectory
        }

        /// Sends the request and returns the response, whatever its status.
        ///
        /// - Parameter params: The request RetroSwift built.
        /// - Returns: The status, headers and body, and the URL requested.
        /// - Throws: `URLError` when no response arrived (`.timedOut` past the deadline, body included),
        ///   `CancellationError` when the calling task was cancelled, `RequestError` when the transport is not
        ///   configured.
        public func sendRequest(with params: HttpRequestParams) async throws -> HttpOperationResult {
            let progress = TransferProgressReporter.current
            let request = try makeRequest(params, progress: progress)
            let timeout = Self.nanoseconds(ofTimeout: params.timeout ?? defaultTimeout)
            let deadline = ContinuousClock.now + .nanoseconds(timeout)
            do {
                let response = try await client.execute(request, timeout: .nanoseconds(timeout))
                // async-http-client's timeout ends when the head arrives; the body is read under the same deadline, so
                // a body that drips past it fails with `.timedOut` instead of arriving late as a success.
                return try await Self.withDeadline(deadline) {
                    try await self.result(from: response, url: request.url, params: params, progress: progress)
                }
            } catch {
                throw Self.translate(error)
            }
        }

        /// A timeout in seconds as nanoseconds, at most a year's: `.infinity` (no timeout, for a stream that may stay
        /// silent) and absurdly long ones would overflow the `Int64` async-http-client counts in. Timeouts that are
        /// not positive numbers never get here: RetroSwift refuses them before the call.
        static func nanoseconds(ofTimeout seconds: TimeInterval) -> Int64 {
            let year: TimeInterval = 365 * 24 * 3600
            guard seconds.isFinite, seconds < year else { return Int64(year) * 1_000_000_000 }
            return Int64(max(seconds, 0) * 1_000_000_000)
        }

        /// Runs `body`, cancelling it and throwing `URLError(.timedOut)` if it has not finished by `deadline`.
        private static func withDeadline(
            _ deadline: ContinuousClock.Instant, _ body: @escaping @Sendable () async throws -> HttpOperationResult
        ) async throws -> HttpOperationResult {
            try await withThrowingTaskGroup(of: HttpOperationResult?.self) { group in
                group.addTask { try await body() }
                group.addTask {
                    try await Task.sleep(until: deadline, clock: .continuous)
                    return nil
                }
                defer { group.cancelAll() }
                guard let first = try await group.next(), let value = first else {
                    group.cancelAll()
                    // A download that finished as the deadline passed would leave its file behind unseen.
                    while let late = try? await group.next() {
                        if let file = late?.downloadedFileURL { try? FileManager.default.removeItem(at: file) }
                    }
                    throw URLError(.timedOut)
                }
                return value
            }
        }

        private func makeRequest(_ params: HttpRequestParams, progress: TransferProgressReporter?) throws -> HTTPClientRequest {
            let configuration = try configuration.configuration(for: params)
            var request = HTTPClientRequest(url: params.urlString(relativeTo: configuration.baseURL))
            request.method = HTTPMethod(rawValue: params.method.rawValue)
            for header in params.headerFields(sharedHeaders: configuration.sharedHeaders) {
                request.headers.add(name: header.name, value: header.value)
            }
            if let body = params.body {
                // Observed uploads go in chunks, so that progress moves as the connection takes them.
                if case .data(let data) = body.content, progress == nil {
                    request.body = .bytes(ByteBuffer(bytes: data))
                } else {
                    let length = try body.contentLength()
                    request.body = .stream(BodyByteStream(body: body, length: length, progress: progress), length: .known(length))
                }
            }
            return request
        }

        private func result(
            from response: HTTPClientResponse, url: String, params: HttpRequestParams, progress: TransferProgressReporter?
        ) async throws -> HttpOperationResult {
            let headers = HttpHeaderFields(response.headers.map { HttpHeader(name: $0.name, value: $0.value) })
            let status = Int(response.status.code)
            let isSuccess = (200..<300).contains(status)
            // Only 2xx bodies are reported: error and redirect bodies are not what the caller waits for.
            let counter =
                isSuccess ? progress.map { DownloadCounter(progress: $0, expected: headers["Content-Length"].flatMap { Int64($0) }) } : nil
            // The URL the response came from: the requested one, unless a client of the user's followed redirects itself.
            let requested = response.url ?? URL(string: url)
            if params.responseDestination == .stream && isSuccess {
                // The stream outlives this call: the whole-request deadline ends here, and from now on the timeout is
                // how long the body may be silent.
                let chunks = response.body.map { buffer in
                    counter?.add(buffer.readableBytes)
                    return Data(buffer.readableBytesView)
                }
                let stream = HttpBodyStream.reading(
                    chunks, idleTimeout: .nanoseconds(Self.nanoseconds(ofTimeout: params.timeout ?? defaultTimeout)),
                    translatingErrors: Self.translate,
                    onEnd: { counter?.finish() })
                return HttpOperationResult(statusCode: status, headers: headers, bodyStream: stream, url: requested)
            }
            if params.responseDestination == .file && isSuccess {
                let file = try await Self.download(response.body, to: temporaryDirectory, counter: counter)
                counter?.finish()
                return HttpOperationResult(statusCode: status, headers: headers, downloadedFileURL: file, url: requested)
            }
            guard let counter else {
                let buffer = try await response.body.collect(upTo: maxBodySize)
                return HttpOperationResult(statusCode: status, headers: headers, body: Data(buffer.readableBytesView), url: requested)
            }
            var body = Data()
            for try await buffer in response.body {
                guard body.count + buffer.readableBytes <= maxBodySize else { throw NIOTooManyBytesError(maxBytes: maxBodySize) }
                body.append(contentsOf: buffer.readableBytesView)
                counter.add(buffer.readableBytes)
            }
            counter.finish()
            return HttpOperationResult(statusCode: status, headers: headers, body: body, url: requested)
        }

        private static func download(_ body: HTTPClientResponse.Body, to directory: URL, counter: DownloadCounter?) async throws -> URL {
            let (url, handle) = try TemporaryFile.create(.download, in: directory)
            defer { try? handle.close() }
            do {
                for try await chunk in body {
                    try handle.write(contentsOf: Data(chunk.readableBytesView))
                    counter?.add(chunk.readableBytes)
                }
            } catch {
                try? FileManager.default.removeItem(at: url)
                throw error
            }
            return url
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
            // A body larger than maxBodySize: the code URLSession uses for a resource over its limit.
            if error is NIOTooManyBytesError { return URLError(.dataLengthExceedsMaximum) }
            // The server closed the connection before the body it announced was complete.
            if let parserError = error as? HTTPParserError, parserError == .invalidEOFState {
                return URLError(.networkConnectionLost)
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
#endif
