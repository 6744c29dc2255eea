#if NIO && TransportConformance
    import Foundation
    import RetroSwift
    @testable import RetroSwiftNIO
    import RetroSwiftTestServer
    import Testing

    /// Proof that the HTTP/2 cases can fail: each mutant — NIOTransport over HTTP/2 with one rule broken — fails every
    /// case it names, run over h2c (the base that speaks HTTP/2 without TLS), and NIOTransport itself passes them.
    @Suite("HTTP/2 conformance mutants", .timeLimit(.minutes(3)), .serialized)
    struct HTTP2MutantTests {
        /// A mutant of NIOTransport over HTTP/2, and the HTTP/2 cases that must catch it.
        struct HTTP2Mutant: Sendable, CustomStringConvertible {
            let name: String
            let killers: [String]
            let make: @Sendable () -> any HttpTransport
            var description: String { name }
        }

        /// NIOTransport speaking HTTP/2 with prior knowledge to the cases' h2c servers.
        static func base() -> NIOTransport {
            NIOTransport(NIOTransport.Configuration(httpVersion: .http2PriorKnowledge))
        }

        /// The same, failing a call whose stream the server never processed instead of sending it once more: no wrapper
        /// can reach inside the transport's retry, so an internal switch does (`@testable`).
        static func failingUnprocessedStreams() -> NIOTransport {
            var configuration = NIOTransport.Configuration(httpVersion: .http2PriorKnowledge)
            configuration.resendsUnprocessedStreams = false
            return NIOTransport(configuration)
        }

        /// The same, breaking one rule of HTTP/2 that no wrapper can reach (an internal switch, `@testable`).
        static func breaking(_ fault: HTTP2Fault) -> NIOTransport {
            var configuration = NIOTransport.Configuration(httpVersion: .http2PriorKnowledge)
            configuration.http2Fault = fault
            return NIOTransport(configuration)
        }

        static let mutants: [HTTP2Mutant] = [
            HTTP2Mutant(name: "sends one call at a time", killers: ["http2/max-concurrent-streams-opens-second-connection"]) {
                SendsOneCallAtATime(base())
            },
            HTTP2Mutant(name: "drops its connections when a call fails", killers: ["http2/reset-stream-fails-only-its-call"]) {
                DropsConnectionsOnFailure(makeInner: base)
            },
            HTTP2Mutant(
                name: "closes the connection when a stream's reader leaves", killers: ["http2/stream-left-mid-body-keeps-connection"]
            ) { ClosesConnectionWhenReaderLeaves(makeInner: base) },
            HTTP2Mutant(
                name: "fails a call above a GOAWAY's last stream id", killers: ["http2/goaway-above-last-stream-sent-again-once"]
            ) { failingUnprocessedStreams() },
            HTTP2Mutant(name: "sends a failed call once more", killers: ["http2/goaway-at-processed-stream-never-sent-again"]) {
                SendsFailedCallAgain(base())
            },
            HTTP2Mutant(
                name: "closes the connection when a call is cancelled", killers: ["http2/cancelled-call-resets-only-its-stream"]
            ) { ClosesConnectionOnCancel(makeInner: base) },
            HTTP2Mutant(
                name: "makes calls wait while a stream is unread", killers: ["http2/unread-stream-holds-only-its-window"]
            ) { WaitsForUnreadStream(base()) },
            HTTP2Mutant(
                name: "spreads calls over two connections", killers: ["http2/hundred-calls-at-once-one-connection"]
            ) { SpreadsCallsOverTwoConnections(makeInner: base) },
            HTTP2Mutant(
                name: "keeps using a connection the server ended", killers: ["http2/server-ends-connection-between-streams"]
            ) { breaking(.ignoresConnectionEnd) },
            HTTP2Mutant(name: "fails an answer that ends with trailers", killers: ["http2/trailers-after-body"]) {
                breaking(.failsOnTrailers)
            },
            HTTP2Mutant(name: "takes no CONTINUATION frame", killers: ["http2/head-split-by-continuation"]) {
                breaking(.refusesContinuation)
            },
            HTTP2Mutant(name: "leaves push enabled", killers: ["http2/push-promise-refused"]) { breaking(.allowsPush) },
            HTTP2Mutant(name: "sends Connection over HTTP/2", killers: ["http2/connection-fields-never-sent"]) {
                breaking(.sendsConnectionFields)
            },
        ]

        @Test("every HTTP/2 mutant fails every case it names", arguments: mutants)
        func mutantIsKilled(mutant: HTTP2Mutant) async throws {
            for id in mutant.killers {
                // Given
                let conformanceCase = try #require(TransportConformance.http2Cases.first { $0.id == id }, "\(id) names no case")

                // When
                let outcome: Result<Void, any Error>
                do {
                    try await TestServer.$protocolUnderTest.withValue(.h2c) {
                        try await conformanceCase.run(mutant.make, timeLimit: .seconds(20))
                    }
                    outcome = .success(())
                } catch {
                    outcome = .failure(error)
                }

                // Then
                switch outcome {
                case .success: Issue.record("\(id) passed against the mutant that \(mutant)")
                case .failure(let error): #expect(error is TransportConformanceFailure, "\(id) threw \(error), not a conformance failure")
                }
            }
        }

        @Test("NIOTransport over HTTP/2, unmutated, passes every case a mutant is checked with")
        func baseSurvives() async throws {
            // Given
            let ids = Set(Self.mutants.flatMap(\.killers))

            for conformanceCase in TransportConformance.http2Cases where ids.contains(conformanceCase.id) {
                // When / Then: a failure is thrown, and fails the test
                try await TestServer.$protocolUnderTest.withValue(.h2c) {
                    try await conformanceCase.run({ Self.base() }, timeLimit: .seconds(20))
                }
            }
        }
    }

    /// Sends one call at a time, each waiting for the one before it: never more than one stream, so never a second
    /// connection.
    final class SendsOneCallAtATime: HttpTransport {
        let inner: any HttpTransport
        private let turn = AsyncTurn()
        init(_ inner: any HttpTransport) { self.inner = inner }

        func sendRequest(with params: HttpRequestParams) async throws -> HttpOperationResult {
            await turn.take()
            defer { Task { await turn.give() } }
            return try await inner.sendRequest(with: params)
        }
    }

    /// One call at a time, in the order they came.
    actor AsyncTurn {
        private var busy = false
        private var waiting: [CheckedContinuation<Void, Never>] = []

        func take() async {
            if !busy {
                busy = true
                return
            }
            await withCheckedContinuation { waiting.append($0) }
        }

        func give() {
            if waiting.isEmpty {
                busy = false
            } else {
                waiting.removeFirst().resume()
            }
        }
    }

    /// Holds the transport it sends through, which it can drop for a fresh one (shutting the old one down closes every
    /// connection it had, and fails the calls on them).
    final class Replaceable: Sendable {
        private let makeInner: @Sendable () -> NIOTransport
        private let current: Locked<NIOTransport>

        init(_ makeInner: @escaping @Sendable () -> NIOTransport) {
            self.makeInner = makeInner
            current = Locked(makeInner())
        }

        var transport: NIOTransport { current.withLock { $0 } }

        /// Sends from now on through a fresh transport, and shuts the old one down.
        func replace() {
            let old = swap()
            Task { try? await old.shutdown() }
        }

        /// The same, returning once the old transport is shut down and the calls on its connections have failed: a task
        /// for the shutdown can wait seconds for a thread under the thread sanitizer, long enough for the calls it
        /// should fail to complete (the mutant then passed its case).
        func replaceAndShutDown() async {
            try? await swap().shutdown()
        }

        private func swap() -> NIOTransport {
            current.withLock { current in
                defer { current = makeInner() }
                return current
            }
        }
    }

    /// Drops its connections when a call fails, as if one stream's failure were the connection's: the calls beside it
    /// fail too.
    final class DropsConnectionsOnFailure: HttpTransport {
        private let transports: Replaceable
        init(makeInner: @escaping @Sendable () -> NIOTransport) { transports = Replaceable(makeInner) }

        func sendRequest(with params: HttpRequestParams) async throws -> HttpOperationResult {
            do {
                return try await transports.transport.sendRequest(with: params)
            } catch {
                await transports.replaceAndShutDown()
                throw error
            }
        }
    }

    /// Closes the connection when a stream's reader leaves before its end, as HTTP/1.1 must (the rest of the body is
    /// still on its way) where HTTP/2 resets the stream alone.
    final class ClosesConnectionWhenReaderLeaves: HttpTransport {
        private let transports: Replaceable
        init(makeInner: @escaping @Sendable () -> NIOTransport) { transports = Replaceable(makeInner) }

        func sendRequest(with params: HttpRequestParams) async throws -> HttpOperationResult {
            var result = try await transports.transport.sendRequest(with: params)
            guard case .stream(let body) = result.body else { return result }
            let pump = Locked<Task<Void, Never>?>(nil)
            let transports = transports
            let (stream, writer) = HTTPBodyStream.makeStream {
                pump.withLock { $0?.cancel() }
                transports.replace()
            }
            pump.withLock { task in
                task = Task {
                    do {
                        for try await chunk in body { try await writer.write(chunk) }
                        writer.finish()
                    } catch {
                        writer.finish(throwing: error)
                    }
                }
            }
            result.body = .stream(stream)
            return result
        }
    }

    /// Sends a call that failed once more, whatever its method: a POST the server processed goes twice.
    final class SendsFailedCallAgain: HttpTransport {
        let inner: any HttpTransport
        init(_ inner: any HttpTransport) { self.inner = inner }

        func sendRequest(with params: HttpRequestParams) async throws -> HttpOperationResult {
            do {
                return try await inner.sendRequest(with: params)
            } catch {
                return try await inner.sendRequest(with: params)
            }
        }
    }

    /// Drops its connections when a call is cancelled, as if cancelling a stream needed the connection closed.
    final class ClosesConnectionOnCancel: HttpTransport {
        private let transports: Replaceable
        init(makeInner: @escaping @Sendable () -> NIOTransport) { transports = Replaceable(makeInner) }

        func sendRequest(with params: HttpRequestParams) async throws -> HttpOperationResult {
            do {
                return try await transports.transport.sendRequest(with: params)
            } catch {
                if Task.isCancelled { transports.replace() }
                throw error
            }
        }
    }

    /// Runs one call at a time, and counts a streamed answer's call as running until its stream is read to its end or
    /// left: the calls made while a stream stays unread wait for it, as if its window were the connection's.
    final class WaitsForUnreadStream: HttpTransport {
        let inner: any HttpTransport
        private let turn = AsyncTurn()
        init(_ inner: any HttpTransport) { self.inner = inner }

        func sendRequest(with params: HttpRequestParams) async throws -> HttpOperationResult {
            await turn.take()
            let turn = turn
            let given = Locked(false)
            let give: @Sendable () -> Void = {
                let first = given.withLock { given in
                    defer { given = true }
                    return !given
                }
                if first { Task { await turn.give() } }
            }
            var result: HttpOperationResult
            do {
                result = try await inner.sendRequest(with: params)
            } catch {
                give()
                throw error
            }
            guard case .stream(let body) = result.body else {
                give()
                return result
            }
            let pump = Locked<Task<Void, Never>?>(nil)
            let (stream, writer) = HTTPBodyStream.makeStream {
                pump.withLock { $0?.cancel() }
                give()
            }
            pump.withLock { task in
                task = Task {
                    do {
                        for try await chunk in body { try await writer.write(chunk) }
                        writer.finish()
                    } catch {
                        writer.finish(throwing: error)
                    }
                    give()
                }
            }
            result.body = .stream(stream)
            return result
        }
    }

    /// Sends each call through one of two transports in turn, so that two connections open where one would do.
    final class SpreadsCallsOverTwoConnections: HttpTransport {
        private let transports: [NIOTransport]
        private let next = Locked(0)
        init(makeInner: @Sendable () -> NIOTransport) { transports = [makeInner(), makeInner()] }

        func sendRequest(with params: HttpRequestParams) async throws -> HttpOperationResult {
            let index = next.withLock { next in
                defer { next += 1 }
                return next % 2
            }
            return try await transports[index].sendRequest(with: params)
        }
    }
#endif
