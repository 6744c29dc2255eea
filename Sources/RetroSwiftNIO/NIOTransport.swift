#if NIO
    import Foundation
    import NIOCore
    import NIOHTTP1
    import NIOPosix
    import RetroSwift

    /// RetroSwift's own `HttpTransport` on SwiftNIO, for servers on Linux: HTTP/1.1 with keep-alive over a pool of
    /// connections per origin, TLS by SwiftNIO SSL with the server's chain verified by swift-certificates, gzip and
    /// deflate by NIOHTTPCompression. Enabled by the package trait `NIO`.
    ///
    /// Every promise of RetroSwift's core is kept on the event loop, with no task per call: the timeout bounds
    /// connecting (waiting for a pooled connection included) and then each silence of the exchange, in either direction
    /// — every slice of the request body the connection takes and every byte of the response starts it again, so an
    /// upload or a download that keeps moving completes however long it takes, and a peer silent for the timeout fails
    /// the call with `URLError(.timedOut)`; `.infinity` means none;
    /// cancelling the calling task closes the connection at once and throws `CancellationError`; `ResponseLimits` are
    /// counted as the bytes arrive, after decompression; a streamed body is read from the socket only as fast as its
    /// reader reads it, and every part that arrived before a failure reaches the reader before the error;
    /// `DownloadedFile` bodies are written to ``temporaryDirectory`` by NIOPosix's thread pool, and file request bodies
    /// read from disk there, never on the event loop or the cooperative pool. A request body that is a stream (a
    /// multipart form, a `@RawBody` stream) is read by a task of its own, a chunk at a time as the connection takes
    /// them, and sent chunked when its length is unknown.
    ///
    /// A domain's `ServerTrust` is enforced fully on Linux: its certificate authorities replace the system's, and its
    /// public-key pins must match a certificate of the chain as verified (leaf, intermediates or root), on every kind of
    /// call and every hop of a redirect. Connection failures are the `URLError`s the other transports throw:
    /// `.cannotConnectToHost`, `.timedOut`, `.networkConnectionLost`, `.serverCertificateUntrusted`,
    /// `.secureConnectionFailed`.
    ///
    /// A request that fails on a reused connection before any byte of its answer arrived (the server closed the
    /// connection as the request went out) is sent once more on a new connection, but only when its method is
    /// idempotent: a `POST` is never sent twice. Redirects are returned to RetroSwift, which follows them by its
    /// `RedirectPolicy`. HTTP/2 is negotiated over TLS (ALPN) unless ``Configuration/httpVersion`` says otherwise, and
    /// spoken with prior knowledge to `http://` origins when it asks for that: one connection carries calls up to the
    /// server's `SETTINGS_MAX_CONCURRENT_STREAMS`, and past it another opens, up to the connections per origin. Proxies
    /// are set in ``NIOTransport/Configuration/proxies``: HTTP `CONNECT` tunnels, forward requests for `http` origins,
    /// and SOCKS5. A domain's `ClientIdentity` is presented on that domain's own connections.
    public final class NIOTransport: HttpTransport, ServerTrustEnforcing {
        /// How the transport connects: where its connections run, how many there may be, and how long they wait.
        public struct Configuration: Sendable {
            /// The event loops connections run on; SwiftNIO's process-wide `MultiThreadedEventLoopGroup.singleton` by
            /// default.
            public var eventLoopGroup: any EventLoopGroup
            /// The most connections of ordinary calls open at once to one origin (scheme, host, port and trust); calls
            /// past it wait for one, in the order they came, within their timeout. 8 by default.
            public var connectionsPerOrigin: Int
            /// The most connections of streamed responses open at once to one origin, apart from those of ordinary
            /// calls: an open stream holds its connection for as long as it is read, and must not make ordinary calls
            /// wait. 64 by default.
            public var streamConnectionsPerOrigin: Int
            /// How long a connection stays open unused before it is closed; 60 seconds by default.
            public var idleConnectionTimeout: Duration
            /// The longest a new connection may take to connect, TLS handshake included; 10 seconds by default. The
            /// call's own timeout still bounds the wait for a connection as a whole.
            public var connectTimeout: Duration
            /// Which HTTP versions connections speak: HTTP/2 where a TLS server offers it by default.
            public var httpVersion: HTTPVersion
            /// Whether a call on an HTTP/2 stream the server never processed (refused, or above a GOAWAY's last stream
            /// id) is sent again; off only in the mutant that proves the GOAWAY case can fail.
            var resendsUnprocessedStreams = true
            /// A rule of HTTP/2 broken on purpose; set only by the mutants of the `http2/` conformance cases.
            var http2Fault: HTTP2Fault?
            /// The proxies connections go through; ``ProxySettings/none`` (every origin direct) by default, and
            /// ``ProxySettings/fromEnvironment(_:proxyTrust:)`` to read `HTTPS_PROXY`, `HTTP_PROXY`, `ALL_PROXY` and `NO_PROXY`.
            public var proxies: ProxySettings = .none

            /// Creates a configuration.
            ///
            /// - Parameters:
            ///   - eventLoopGroup: The event loops connections run on.
            ///   - connectionsPerOrigin: The most connections of ordinary calls to one origin.
            ///   - streamConnectionsPerOrigin: The most connections of streamed responses to one origin.
            ///   - idleConnectionTimeout: How long an unused connection stays open.
            ///   - connectTimeout: The longest a new connection may take to connect.
            ///   - httpVersion: Which HTTP versions connections speak; ``HTTPVersion/automatic`` by default.
            ///   - proxies: The proxies connections go through; none by default.
            public init(
                eventLoopGroup: any EventLoopGroup = MultiThreadedEventLoopGroup.singleton, connectionsPerOrigin: Int = 8,
                streamConnectionsPerOrigin: Int = 64, idleConnectionTimeout: Duration = .seconds(60),
                connectTimeout: Duration = .seconds(10), httpVersion: HTTPVersion = .automatic, proxies: ProxySettings = .none
            ) {
                self.proxies = proxies
                self.eventLoopGroup = eventLoopGroup
                self.connectionsPerOrigin = connectionsPerOrigin
                self.streamConnectionsPerOrigin = streamConnectionsPerOrigin
                self.idleConnectionTimeout = idleConnectionTimeout
                self.connectTimeout = connectTimeout
                self.httpVersion = httpVersion
            }
        }

        /// How the transport connects.
        public let settings: Configuration
        /// The timeout used when neither the endpoint nor the domain sets one: the longest wait for a connection
        /// (connecting and waiting for a pooled one included), and then the longest silence of the exchange in either
        /// direction (the request body not taken, the head or the body not arriving).
        public let defaultTimeout: TimeInterval
        /// Where `DownloadedFile` bodies are written (yours once the call returns; deleted if it fails).
        public let temporaryDirectory: URL
        private let pool: ConnectionPool

        /// Creates a transport with its own pool of connections.
        ///
        /// - Parameters:
        ///   - settings: How it connects; the defaults suit most servers.
        ///   - defaultTimeout: Seconds of the timeout when none is declared: the longest wait for a connection, and then
        ///     the longest silence of the exchange in either direction; 60 by default.
        ///   - temporaryDirectory: Where downloaded bodies are written; the system's temporary directory by default.
        public init(
            _ settings: Configuration = Configuration(), defaultTimeout: TimeInterval = 60,
            temporaryDirectory: URL = FileManager.default.temporaryDirectory
        ) {
            self.settings = settings
            self.defaultTimeout = defaultTimeout
            self.temporaryDirectory = temporaryDirectory
            pool = ConnectionPool(
                settings: ConnectionPool.Settings(
                    group: settings.eventLoopGroup, connectionsPerOrigin: max(settings.connectionsPerOrigin, 1),
                    streamConnectionsPerOrigin: max(settings.streamConnectionsPerOrigin, 1),
                    idleTimeout: Self.timeAmount(settings.idleConnectionTimeout),
                    connectTimeout: Self.timeAmount(settings.connectTimeout), httpVersion: settings.httpVersion,
                    resendsUnprocessedStreams: settings.resendsUnprocessedStreams, http2Fault: settings.http2Fault),
                tls: TLSConnector())
        }

        /// Certificate authorities of the domain's own and public-key pins, both checked against the chain the
        /// transport verified; on platforms other than Linux, authorities only.
        public var serverTrustSupport: ServerTrustSupport { TLSConnector.support }

        /// Closes every connection and fails the calls waiting for one; calls made afterwards fail. A transport that
        /// lives as long as the process needs no shutdown.
        ///
        /// - Throws: Never today; declared so that a later version may report a connection that failed to close.
        public func shutdown() async throws {
            try await pool.shutdown()
        }

        /// Runs `body` on one of the transport's event loops, so that its calls are made, and their answers reach it, on
        /// the thread that reads them: a sequence of calls one after another (a worker's loop) then wakes no other thread
        /// between a call and its answer. A GET decoded from 1 KB of JSON took 17 % less time at one task against nginx
        /// (BENCHMARKS.md, "One task over HTTP/1.1, against wrk").
        ///
        /// ```swift
        /// let transport = NIOTransport()
        /// let api = CatalogApi(transport: transport, baseURL: URL(string: "http://catalog.internal")!)
        /// let items = try await transport.withCallsOnEventLoop {
        ///     var items: [Item] = []
        ///     for id in ids { items.append(try await api.item(ItemRequest(id: id))) }
        ///     return items
        /// }
        /// ```
        ///
        /// A connection the calls open is made on that event loop; one already open on another keeps its own, and its
        /// answers come back through a wake of this one. Child tasks `body` starts (a task group) run on the same event
        /// loop, one at a time: for calls side by side, make them outside.
        ///
        /// - Important: `body` runs on the event loop's thread, which also moves the bytes of every connection made on
        ///   it. Never block it (a semaphore, `EventLoopFuture.wait()`, synchronous file or network work): that stops
        ///   those connections, or deadlocks. Long work between calls (decoding megabytes) delays them; move it out of
        ///   `body`.
        ///
        /// - Parameters:
        ///   - isolation: The caller's actor, which `body` stays isolated to (code isolated to an actor runs on the
        ///     actor's executor, not the event loop; the calls it awaits still run there).
        ///   - body: The calls to make, and what is done between them.
        /// - Returns: What `body` returns.
        /// - Throws: What `body` throws, as it threw it.
        @available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, visionOS 2.0, *)
        public func withCallsOnEventLoop<Result, Failure: Error>(
            isolation: isolated (any Actor)? = #isolation, _ body: () async throws(Failure) -> Result
        ) async throws(Failure) -> Result {
            try await withTaskExecutorPreference(
                EventLoopTaskExecutor.of(settings.eventLoopGroup.any()), isolation: isolation, operation: body)
        }

        /// How many connections the transport holds open, running a call or idle; for tests.
        var openConnectionCount: Int {
            pool.openConnectionCount
        }

        /// The event loops of the open connections; for tests.
        var openConnectionEventLoops: [any EventLoop] {
            pool.openConnectionEventLoops
        }

        /// Sends the request and returns the response, whatever its status.
        ///
        /// - Parameter params: The request RetroSwift built.
        /// - Returns: The status, headers and body, and the URL requested.
        /// - Throws: `URLError` when no response arrived (`.timedOut` when no connection came in time, or the exchange
        ///   was silent in both directions for longer than the timeout), `CancellationError` when the calling task was
        ///   cancelled, `RequestError` for a response refused by RetroSwift's rules, for a request without a base URL
        ///   (a domain without one, on a transport nobody configured), and for a request body stream whose chunks do not
        ///   add up to its declared length.
        public func sendRequest(with params: HttpRequestParams) async throws -> HttpOperationResult {
            let pool = pool
            do {
                let request = try makeRequest(params)
                let call = NIOCall(
                    request: request, headDeadline: .now() + request.timeout, callersEventLoop: pool.callersEventLoop())
                let response = try await withTaskCancellationHandler {
                    try await withUnsafeThrowingContinuation { continuation in
                        if call.begin(continuation) { pool.lease(call) }
                    }
                } onCancel: {
                    call.cancel(pool: pool)
                }
                return Self.result(of: response)
            } catch {
                throw Self.translate(error, params)
            }
        }

        // MARK: RetroSwift's request, as the connection layer sends it

        private func makeRequest(_ params: HttpRequestParams) throws -> NIORequest {
            // Split by hand from the string RetroSwift made, never parsed by Foundation: the pool's key and the request
            // line come from it.
            let urlString = params.urlString
            guard let target = RequestTarget(urlString) else {
                // RetroSwift hands a relative URL (the path alone) only when nobody told it a base URL.
                if urlString.hasPrefix("/") { throw RequestError.missingBaseURL(of: params) }
                throw URLError(.unsupportedURL)
            }
            if target.isTLS, let identity = params.clientIdentity { try Self.checkLoads(identity, params) }
            let method = NIOHTTP1.HTTPMethod(rawValue: params.method.rawValue)
            let fields = params.headerFields
            var headers = HTTPHeaders()
            headers.reserveCapacity(fields.count + 3)
            headers.add(name: "Host", value: target.hostField)
            for field in fields { headers.add(name: field.name, value: field.value) }
            let proxy = settings.proxies.proxy(isTLS: target.isTLS, host: target.host, port: target.port)
            var requestTarget = target.path
            if let proxy { ProxyRoute.prepare(&headers, &requestTarget, of: target, through: proxy) }
            let body: NIORequestBody
            switch params.body {
            case nil:
                body = .none
            case .bytes(let data):
                body = .bytes(ByteBuffer(bytes: data))
            case .file(let url):
                body = .file(length: try HTTPRequestBody.file(url).length() ?? 0) {
                    let reader = FileChunkReader(url: url)
                    return BlockingChunkSource { try reader.read() }
                }
            case .stream(let stream):
                body = .stream(length: stream.length, chunks: stream)
            }
            if let length = body.length, params.body != nil || method == .POST || method == .PUT || method == .PATCH {
                // Without a length SwiftNIO's encoder would send these methods chunked, even empty.
                headers.replaceOrAdd(name: "Content-Length", value: String(length))
            } else if body.length == nil {
                // A body of unknown length goes chunked, whatever the method (SwiftNIO's encoder frames only some).
                headers.replaceOrAdd(name: "Transfer-Encoding", value: "chunked")
            }
            let destination: NIOResponseDestination
            switch params.responseDestination {
            case .memory: destination = .memory
            case .file: destination = .file(directory: temporaryDirectory)
            case .stream: destination = .stream
            }
            return NIORequest(
                method: method, isIdempotent: params.method.isIdempotent,
                origin: OriginKey(
                    isTLS: target.isTLS, host: target.host, port: target.port, trust: params.serverTrust,
                    forStreams: params.responseDestination == .stream, proxy: proxy,
                    identity: target.isTLS ? params.clientIdentity : nil),
                target: requestTarget, headers: headers, body: body,
                timeout: Self.timeAmount(seconds: params.timeout ?? defaultTimeout), progress: params.progress,
                destination: destination, decompressionRatio: params.responseLimits.maxDecompressionRatio,
                policy: RetroSwiftPolicy(params: params, forwardProxy: proxy.flatMap { ProxyRoute.forwards(target, through: $0) }))
        }

        /// Reads `identity` before anything is sent, so that one SwiftNIO SSL cannot read (a PKCS #12 archive's wrong
        /// passphrase, above all) fails the call naming its endpoint, not as a connection that could not be made.
        private static func checkLoads(_ identity: ClientIdentity, _ params: HttpRequestParams) throws {
            do {
                _ = try TLSConnector.load(identity)
            } catch {
                throw RequestError.unreadableClientIdentity(of: params, error)
            }
        }

        /// RetroSwift's checks of a response, for the connection layer.
        private struct RetroSwiftPolicy: NIOResponsePolicy {
            let params: HttpRequestParams
            /// The forward proxy the request goes to, whose `407` is its own answer, never the origin's.
            var forwardProxy: NIOTransport.Proxy? = nil

            func checkHead(_ head: HTTPResponseHead) throws -> CheckedHead {
                if let forwardProxy { try ProxyRoute.checkForwardedHead(head, from: forwardProxy) }
                let headers = HTTPHeaderFields(head.headers.map { HTTPHeader(name: $0.name, value: $0.value) })
                let budget = try ResponseBodyBudget(for: params, statusCode: Int(head.status.code), headers: headers)
                return CheckedHead(headers: headers, budget: budget)
            }

            func translate(_ failure: NIOTransportFailure) -> any Error {
                NIOTransport.translate(failure, params)
            }
        }

        // MARK: The connection layer's answer, as RetroSwift takes it

        private static func result(of response: NIOResponse) -> HttpOperationResult {
            // The URL is left to RetroSwift, which fills in the one it requested: the transport follows no redirect.
            let body: HttpOperationResult.Body
            switch response.body {
            case .bytes(let data): body = .bytes(data)
            case .file(let url): body = .file(url)
            case .stream(let stream): body = .stream(stream)
            }
            return HttpOperationResult(statusCode: response.status, headers: response.headers, body: body)
        }

        /// Maps the connection layer's failures onto the errors the other transports throw, by type.
        static func translate(_ error: any Error, _ params: HttpRequestParams) -> any Error {
            guard let failure = error as? NIOTransportFailure else { return error }
            func refused(_ kind: RequestError.Kind, _ reason: String, _ underlying: (any Error)? = nil) -> RequestError {
                RequestError(kind, endpoint: params.endpoint, reason: "the response is refused: " + reason, underlyingError: underlying)
            }
            switch failure {
            case .cannotConnect: return URLError(.cannotConnectToHost)
            case .timedOut: return URLError(.timedOut)
            case .connectionLost: return URLError(.networkConnectionLost)
            case .untrustedServer: return URLError(.serverCertificateUntrusted)
            case .secureConnectionFailed(let tlsError):
                return URLError(.secureConnectionFailed, userInfo: [NSLocalizedDescriptionKey: "\(tlsError)"])
            case .malformed(let parserError):
                return refused(.malformedResponse, "it is not valid HTTP/1.1 (SwiftNIO's parser: \(parserError))", parserError)
            case .headTooLarge:
                return refused(.responseTooLarge, "its head is larger than SwiftNIO's parser accepts (80 KiB)")
            case .decompression(let decompressionError):
                return refused(.malformedResponse, "its compressed body cannot be decompressed (\(decompressionError))", decompressionError)
            case .decompressionRatioExceeded(let ratio, let compressedBytes):
                return refused(
                    .responseTooLarge,
                    "the body passed ResponseLimits.maxDecompressionRatio: \(ratio) times its \(compressedBytes) compressed bytes so far")
            case .refused(let refusal): return refusal
            case .bodyLengthMismatch(let expected, let sent):
                return RequestError(
                    .invalidValue, endpoint: params.endpoint,
                    reason: "the request body stream declared \(expected) bytes and brought \(sent > expected ? "more" : "\(sent)")")
            case .cancelled: return CancellationError()
            case .shutDown:
                return URLError(.cancelled, userInfo: [NSLocalizedDescriptionKey: "the NIOTransport was shut down"])
            case .proxy(let proxyError): return proxyError
            }
        }

        // MARK: Time

        /// A timeout in seconds as a `TimeAmount`, at most a year's: `.infinity` means none, and would overflow.
        static func timeAmount(seconds: TimeInterval) -> TimeAmount {
            let year: TimeInterval = 365 * 24 * 3600
            guard seconds.isFinite, seconds < year else { return .seconds(Int64(year)) }
            return .nanoseconds(Int64(max(seconds, 0) * 1_000_000_000))
        }

        static func timeAmount(_ duration: Duration) -> TimeAmount {
            let (seconds, attoseconds) = duration.components
            return timeAmount(seconds: TimeInterval(seconds) + TimeInterval(attoseconds) / 1e18)
        }
    }

    /// An absolute `http` or `https` URL split into what a connection needs, without Foundation's parser: RetroSwift
    /// made the string from parts already percent-encoded, and hands it over as the user wrote it. It walks the string's
    /// UTF-8 bytes, never its `Character`s: splitting by `Character` cost 24,000 instructions a call (callgrind),
    /// grapheme breaking included.
    ///
    /// The scheme and the host compare without case (RFC 3986 §3.1, §3.2.2, §6.2.2.1): `HTTP://LOCALHOST` is
    /// `http://localhost`, on the same connections.
    struct RequestTarget {
        var isTLS: Bool
        /// The host in lower case, an IPv6 address without its brackets: what the pool's key holds, the address
        /// connected to, and the name TLS sends (SNI) and verifies, or the address it verifies.
        var host: String
        var port: Int
        /// The `Host` field: the host as written, brackets of an IPv6 address included, and the port unless it is the
        /// scheme's.
        var hostField: String
        /// The path and query, starting with `/`.
        var path: String

        init?(_ url: String) {
            var url = url
            guard let target = url.withUTF8({ Self.split($0) }) else { return nil }
            self = target
        }

        private init(isTLS: Bool, host: String, port: Int, hostField: String, path: String) {
            self.isTLS = isTLS
            self.host = host
            self.port = port
            self.hostField = hostField
            self.path = path
        }

        private static func split(_ bytes: UnsafeBufferPointer<UInt8>) -> RequestTarget? {
            func isCapital(_ byte: UInt8) -> Bool {
                (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte)
            }
            /// Whether the bytes start with `prefix`, which is in lower case, whatever the case of their letters.
            func hasPrefix(_ prefix: StaticString) -> Bool {
                let count = prefix.utf8CodeUnitCount
                guard bytes.count >= count else { return false }
                if memcmp(bytes.baseAddress!, prefix.utf8Start, count) == 0 { return true }
                for offset in 0..<count {
                    let byte = bytes[offset]
                    if (isCapital(byte) ? byte + 32 : byte) != prefix.utf8Start[offset] { return false }
                }
                return true
            }
            func string(_ range: Range<Int>) -> String {
                String(decoding: UnsafeBufferPointer(rebasing: bytes[range]), as: UTF8.self)
            }
            func lowercased(_ range: Range<Int>) -> String {
                guard bytes[range].contains(where: isCapital) else { return string(range) }
                return String(decoding: bytes[range].map { isCapital($0) ? $0 + 32 : $0 }, as: UTF8.self)
            }
            let isTLS: Bool
            let authorityStart: Int
            if hasPrefix("https://") {
                isTLS = true
                authorityStart = 8
            } else if hasPrefix("http://") {
                isTLS = false
                authorityStart = 7
            } else {
                return nil
            }
            let slash = UInt8(ascii: "/")
            let question = UInt8(ascii: "?")
            let hash = UInt8(ascii: "#")
            let colon = UInt8(ascii: ":")
            var authorityEnd = authorityStart
            while authorityEnd < bytes.count, bytes[authorityEnd] != slash, bytes[authorityEnd] != question,
                bytes[authorityEnd] != hash
            {
                authorityEnd += 1
            }
            // User information, if any, is never sent.
            var hostStart = authorityStart
            if let at = bytes[authorityStart..<authorityEnd].lastIndex(of: UInt8(ascii: "@")) { hostStart = at + 1 }
            var hostEnd = authorityEnd
            var port = isTLS ? 443 : 80
            let portSeparator: Int?
            if hostStart < authorityEnd, bytes[hostStart] == UInt8(ascii: "[") {
                // An IPv6 address: its colons are not the port's.
                portSeparator = bytes[hostStart..<authorityEnd].lastIndex(of: UInt8(ascii: "]")).flatMap {
                    bytes[$0..<authorityEnd].firstIndex(of: colon)
                }
            } else {
                portSeparator = bytes[hostStart..<authorityEnd].lastIndex(of: colon)
            }
            if let portSeparator {
                let digits = bytes[(portSeparator + 1)..<authorityEnd]
                guard (1...5).contains(digits.count), digits.allSatisfy({ (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) })
                else { return nil }
                port = digits.reduce(0) { $0 * 10 + Int($1 - UInt8(ascii: "0")) }
                guard port <= 65535 else { return nil }
                hostEnd = portSeparator
            }
            guard hostStart < hostEnd else { return nil }
            // A fragment is never sent either.
            let pathEnd = bytes[authorityEnd...].firstIndex(of: hash) ?? bytes.count
            let written = string(hostStart..<hostEnd)
            let isBracketed = bytes[hostStart] == UInt8(ascii: "[") && bytes[hostEnd - 1] == UInt8(ascii: "]")
            guard !isBracketed || hostEnd - hostStart > 2 else { return nil }
            let host =
                isBracketed
                ? lowercased((hostStart + 1)..<(hostEnd - 1))
                : bytes[hostStart..<hostEnd].contains(where: isCapital) ? lowercased(hostStart..<hostEnd) : written
            var path = string(authorityEnd..<pathEnd)
            if authorityEnd == pathEnd || bytes[authorityEnd] != slash { path = "/" + path }
            let hostField = port == (isTLS ? 443 : 80) ? written : written + ":" + String(port)
            return RequestTarget(isTLS: isTLS, host: host, port: port, hostField: hostField, path: path)
        }
    }
#endif
