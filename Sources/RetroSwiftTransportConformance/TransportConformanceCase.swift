#if TransportConformance
    import Foundation
    import NIOConcurrencyHelpers
    import RetroSwift

    /// One case of the transport conformance suite (see ``TransportConformance``): a behaviour observed through
    /// RetroSwift against a scripted server on 127.0.0.1.
    public struct TransportConformanceCase: Sendable, CustomStringConvertible {
        /// A stable identifier such as `response-fields/repeats-combined`, to name the case in `knownLimitations`.
        public let id: String
        /// What a conforming transport does, in one sentence.
        public let summary: String
        let check: @Sendable (ConformanceContext) async throws -> Void

        init(_ id: String, _ summary: String, _ check: @escaping @Sendable (ConformanceContext) async throws -> Void) {
            self.id = id
            self.summary = summary
            self.check = check
        }

        /// `id: summary`, as test reports show a case.
        public var description: String { "\(id): \(summary)" }

        /// Runs the case against a transport made by `makeTransport`.
        ///
        /// - Parameters:
        ///   - makeTransport: Makes the fresh transport the case sends through (some cases make two).
        ///   - knownLimitation: Why the transport is known not to pass this case, or `nil` when it must pass.
        ///   - timeLimit: How long the case may take before it fails; 60 seconds by default (every case takes well
        ///     under 5 on the shipped transports).
        /// - Throws: ``TransportConformanceFailure`` when the case fails or passes its time limit, or when it passes
        ///   despite a known limitation that says it differs (remove the limitation then).
        public func run(
            _ makeTransport: @escaping @Sendable () -> any HttpTransport, knownLimitation: TransportLimitation? = nil,
            timeLimit: Duration = .seconds(60)
        ) async throws {
            let context = ConformanceContext(caseID: id, makeTransport: makeTransport)
            switch knownLimitation {
            case nil:
                try await check(context, within: timeLimit)
            case .crashes, .hangs:
                return
            case .differs(let reason):
                do {
                    try await check(context, within: timeLimit)
                } catch {
                    return
                }
                throw TransportConformanceFailure(
                    caseID: id, problem: "passes, but is listed as a known limitation (\(reason)); remove it from the list")
            }
        }

        /// Runs the check, failing it once `limit` passes: a transport that never answers is cancelled and left behind
        /// rather than waited for, so one hung case cannot stop the rest.
        private func check(_ context: ConformanceContext, within limit: Duration) async throws {
            let outcome = Outcome()
            let work = Task {
                do {
                    try await check(context)
                    outcome.settle(.success(()))
                } catch {
                    outcome.settle(.failure(error))
                }
            }
            let timer = Task {
                try await Task.sleep(for: limit)
                outcome.settle(.failure(TransportConformanceFailure(caseID: id, problem: "did not finish within \(limit)")))
            }
            let result = await withTaskCancellationHandler {
                await outcome.value
            } onCancel: {
                outcome.settle(.failure(CancellationError()))
            }
            timer.cancel()
            work.cancel()
            try result.get()
        }
    }

    /// The first result of a check or its timer; later ones are ignored.
    private final class Outcome: Sendable {
        private typealias Waiter = CheckedContinuation<Result<Void, any Error>, Never>
        private let state = NIOLockedValueBox<(result: Result<Void, any Error>?, waiter: Waiter?)>((nil, nil))

        func settle(_ result: Result<Void, any Error>) {
            let waiter: Waiter? = state.withLockedValue { state in
                guard state.result == nil else { return nil }
                state.result = result
                defer { state.waiter = nil }
                return state.waiter
            }
            waiter?.resume(returning: result)
        }

        var value: Result<Void, any Error> {
            get async {
                await withCheckedContinuation { continuation in
                    let ready: Result<Void, any Error>? = state.withLockedValue { state in
                        if let result = state.result { return result }
                        state.waiter = continuation
                        return nil
                    }
                    if let ready { continuation.resume(returning: ready) }
                }
            }
        }
    }
#endif
