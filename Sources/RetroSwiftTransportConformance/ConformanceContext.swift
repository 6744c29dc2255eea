#if TransportConformance
    import Foundation
    import NIOConcurrencyHelpers
    import RetroSwift

    /// What a case runs with: transports to send through, servers to send to, and checks that throw a
    /// ``TransportConformanceFailure`` naming the case.
    struct ConformanceContext: Sendable {
        let caseID: String
        let makeTransport: @Sendable () -> any HttpTransport

        /// Fails the case with `problem`.
        func failure(_ problem: String) -> TransportConformanceFailure {
            TransportConformanceFailure(caseID: caseID, problem: problem)
        }

        /// Fails the case with `problem` unless `condition` holds.
        func expect(_ condition: Bool, _ problem: @autoclosure () -> String) throws {
            if !condition { throw failure(problem()) }
        }

        /// An API on a fresh transport, pointed at `server` the way the original README configures a transport.
        func api(at server: TestServer) -> ConformanceApi {
            api(baseURL: server.baseURL)
        }

        /// An API on a fresh transport configured with `baseURL`: a server's address spelled otherwise than its
        /// ``TestServer/baseURL``, as a user may write it.
        func api(baseURL: URL) -> ConformanceApi {
            let transport = makeTransport()
            transport.setConfiguration(baseURL: baseURL, sharedHeaders: nil)
            let api = ConformanceApi(transport: transport)
            #if ConformanceHTTP2
                // Under the h2 dimension every server has TLS from this authority (TestServer+HTTP2.swift).
                if TestServer.protocolUnderTest == .h2, let authority = try? TestServer.http2Authority.get().authority,
                    let trust = try? ServerTrust(certificateAuthorities: [authority.der])
                {
                    api.serverTrust = trust
                }
            #endif
            return api
        }

        /// Runs `body` against a server that answers every request with the raw bytes `respond` gives, and stops it.
        func withRawServer(
            _ respond: @escaping @Sendable (RecordedRequest) -> RawResponse,
            _ body: (ConformanceApi, TestServer) async throws -> Void
        ) async throws {
            let server = try await TestServer.startHostile(respond)
            return try await run(body, api(at: server), server)
        }

        /// Runs `body` against a scripted server answering with `respond`, and stops it.
        func withServer(
            _ respond: @escaping TestServer.Responder, _ body: (ConformanceApi, TestServer) async throws -> Void
        ) async throws {
            let server = try await TestServer.start(respond)
            return try await run(body, api(at: server), server)
        }

        /// Runs `body` with `api` against `server`, and stops the server whatever happens.
        func run(
            _ body: (ConformanceApi, TestServer) async throws -> Void, _ api: ConformanceApi, _ server: TestServer
        ) async throws {
            do {
                try await body(api, server)
                await server.stop()
            } catch {
                await server.stop()
                throw error
            }
        }

        /// The error `call` throws; fails the case when it returns instead, describing what came back.
        func error(of call: () async throws -> Any) async throws -> any Error {
            let value: Any
            do {
                value = try await call()
            } catch {
                return error
            }
            throw failure("expected an error, but the call returned \(describe(value))")
        }

        /// The ``RequestError`` of `kind` that `call` throws; fails the case on anything else.
        @discardableResult
        func requestError(_ kind: RequestError.Kind, of call: () async throws -> Any) async throws -> RequestError {
            let thrown = try await error(of: call)
            guard let error = thrown as? RequestError, error.kind == kind else {
                throw failure("expected a RequestError of kind .\(kind), got \(describe(thrown))")
            }
            return error
        }

        /// The `URLError` with `code` that `call` fails with: a call throws it wrapped in a `TransportError` naming
        /// the endpoint, a stream's iteration as it is; fails the case on anything else.
        func urlError(_ code: URLError.Code, of call: () async throws -> Any) async throws {
            let thrown = try await error(of: call)
            let failed = (thrown as? TransportError)?.underlyingError ?? thrown
            guard let error = failed as? URLError, error.code == code else {
                throw failure("expected URLError(\(code.rawValue)), got \(describe(thrown))")
            }
        }

        /// The ``HTTPError`` `call` throws; fails the case on anything else.
        func httpError(of call: () async throws -> Any) async throws -> HTTPError {
            let thrown = try await error(of: call)
            guard let error = thrown as? HTTPError else { throw failure("expected an HTTPError, got \(describe(thrown))") }
            return error
        }

        /// How `task` ended and when, counted from `start`, or `nil` when it has not ended `limit` after `start`. A task
        /// still running then is left behind, to end when the case's server stops.
        ///
        /// - Parameters:
        ///   - task: The call, or the loop reading a stream.
        ///   - limit: How long after `start` it must have ended.
        ///   - start: When the wait began: when the call started, or was cancelled.
        /// - Returns: The task's result and the time from `start` to its end, or `nil`.
        func outcome<T: Sendable>(
            of task: Task<T, any Error>, within limit: Duration, after start: ContinuousClock.Instant
        ) async -> (result: Result<T, any Error>, elapsed: Duration)? {
            let first = Outcome<(result: Result<T, any Error>, end: ContinuousClock.Instant)?>()
            // Not cancelled after the deadline: cancelling it would not end `task`, whose result it waits for.
            Task {
                let result = await task.result
                first.settle((result, .now))
            }
            let timer = Task {
                try? await Task.sleep(until: start + limit, clock: .continuous)
                first.settle(nil)
            }
            let ended = await first.value
            timer.cancel()
            return ended.map { ($0.result, $0.end - start) }
        }

        /// ``outcome(of:within:after:)``, failing the case when `task` has not ended in time.
        ///
        /// - Parameters:
        ///   - task: The call, or the loop reading a stream.
        ///   - limit: How long after `start` it must have ended.
        ///   - start: When the wait began: when the call started, or was cancelled.
        ///   - what: What the task is, for the failure message.
        /// - Returns: The task's result, and the time from `start` to its end.
        func ending<T: Sendable>(
            of task: Task<T, any Error>, within limit: Duration, after start: ContinuousClock.Instant, _ what: String
        ) async throws -> (result: Result<T, any Error>, elapsed: Duration) {
            guard let ended = await outcome(of: task, within: limit, after: start) else {
                throw failure("\(what) had not ended within \(limit)")
            }
            return ended
        }

        /// Runs `call` and returns how it ended and how long it took; fails the case when it has not ended within
        /// `limit`, without waiting for it longer.
        func timed<T: Sendable>(
            within limit: Duration, _ what: String, _ call: @escaping @Sendable () async throws -> T
        ) async throws -> (result: Result<T, any Error>, elapsed: Duration) {
            let start = ContinuousClock.now
            return try await ending(of: Task { try await call() }, within: limit, after: start, what)
        }

        /// Fails the case unless `error` is a `URLError` with `code`, as a call throws it (wrapped in a
        /// `TransportError`) or a stream's loop does (as it is).
        func expectURLError(_ code: URLError.Code, _ error: any Error) throws {
            let failed = (error as? TransportError)?.underlyingError ?? error
            guard let urlError = failed as? URLError, urlError.code == code else {
                throw failure("expected URLError(\(code.rawValue)), got \(describe(error))")
            }
        }

        /// Waits until `server` has received `count` requests, for at most five seconds.
        func waitForRequests(_ count: Int, on server: TestServer) async throws {
            guard try await eventually(within: .seconds(5), { server.requests.count >= count }) else {
                throw failure("the server received \(server.requests.count) requests, not \(count)")
            }
        }

        /// Waits until `server` has no open connection, for at most `limit`; returns whether it got there.
        func connectionsClose(on server: TestServer, within limit: Duration) async throws -> Bool {
            try await eventually(within: limit) { server.openConnectionCount == 0 }
        }

        /// A value or an error as a failure message shows it: its type and description, cut at 300 characters.
        func describe(_ value: Any) -> String {
            let text: String
            switch value {
            case let response as HTTPResponse<Data>:
                text = "HTTP \(response.statusCode) with \(response.body.count) body bytes"
            case let error as URLError:
                text = "URLError(\(error.code.rawValue)): \(error.localizedDescription)"
            case let error as HTTPError:
                text = "HTTPError \(error.statusCode) with \(error.body.count) body bytes"
            case let error as TransportError:
                // The URLError's own message says what the library underneath saw (libcurl's, on Linux).
                let message = (error.underlyingError as? URLError).map { " [\($0.localizedDescription)]" } ?? ""
                text = "TransportError: \(error)\(message)"
            default:
                text = "\(type(of: value)): \(value)"
            }
            return text.count > 300 ? text.prefix(300) + "…" : text
        }
    }

    /// How many times longer a bound on work (not on waiting) is in a process built with the thread sanitizer, which
    /// slows such work several times over: 2.5, or 1 without it. Bounds on waiting — cancellations, timeouts — stay as
    /// they are. (Inflating a gzip bomb's first 64 MiB takes async-http-client about a second in a debug build and 3.6
    /// to 5.4 s under the thread sanitizer on two loaded cores; the address sanitizer slows it far less.)
    let sanitizerSlowdown: Double = {
        // The thread sanitizer's runtime, found among the symbols the process has loaded.
        dlsym(dlopen(nil, RTLD_NOW), "__tsan_init") != nil ? 2.5 : 1
    }()

    /// Values the server's threads and the case's tasks add to, in order: progress reports, moments.
    final class Collected<Element: Sendable>: Sendable {
        private let storage = NIOLockedValueBox<[Element]>([])

        /// Everything added so far.
        var all: [Element] {
            storage.withLockedValue { $0 }
        }

        /// Adds `element` at the end.
        func add(_ element: Element) {
            storage.withLockedValue { $0.append(element) }
        }
    }
#endif
