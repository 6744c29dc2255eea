#if TransportConformance
    import Foundation
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
            let transport = makeTransport()
            transport.setConfiguration(baseURL: server.baseURL, sharedHeaders: nil)
            return ConformanceApi(transport: transport)
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

        /// A value or an error as a failure message shows it: its type and description, cut at 300 characters.
        func describe(_ value: Any) -> String {
            let text: String
            switch value {
            case let response as HTTPResponse<Data>:
                text = "HTTP \(response.statusCode) with \(response.body.count) body bytes"
            case let error as URLError:
                text = "URLError(\(error.code.rawValue)): \(error.localizedDescription)"
            default:
                text = "\(type(of: value)): \(value)"
            }
            return text.count > 300 ? text.prefix(300) + "…" : text
        }
    }
#endif
