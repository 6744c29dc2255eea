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
        /// - Throws: ``TransportConformanceFailure`` when the case fails (an error the case did not expect is reported
        ///   as one too, described) or passes its time limit; when it passes despite a known limitation that says it
        ///   differs (remove the limitation then); and when it fails otherwise than such a limitation's `failure` says.
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
            case .differs(let reason, let expected):
                // An empty expectation would be found in every failure, and so accept any.
                guard !expected.isEmpty else {
                    throw context.failure(
                        "is listed as a known limitation (\(reason)) that names no failure; give the part of its failure it expects")
                }
                do {
                    try await check(context, within: timeLimit)
                } catch let failure as TransportConformanceFailure {
                    if failure.problem.contains(expected) { return }
                    throw context.failure(
                        "fails otherwise than its known limitation says (\(reason)): expected a failure containing \"\(expected)\", got: "
                            + failure.problem)
                }
                throw context.failure("passes, but is listed as a known limitation (\(reason)); remove it from the list")
            }
        }

        /// Runs the check, failing it once `limit` passes: a transport that never answers is cancelled and left behind
        /// rather than waited for, so one hung case cannot stop the rest. Any error but a
        /// ``TransportConformanceFailure`` becomes one that describes it, so every failure names its case.
        private func check(_ context: ConformanceContext, within limit: Duration) async throws {
            let outcome = Outcome<Result<Void, any Error>>()
            let work = Task {
                do {
                    try await check(context)
                    outcome.settle(.success(()))
                } catch let failure as TransportConformanceFailure {
                    outcome.settle(.failure(failure))
                } catch {
                    outcome.settle(.failure(context.failure("threw \(context.describe(error))")))
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

    /// The first value settled, by whichever task gets there first (a check or its timer, a call or its deadline);
    /// later ones are ignored.
    final class Outcome<Value: Sendable>: Sendable {
        private typealias Waiter = CheckedContinuation<Value, Never>
        private let state = NIOLockedValueBox<(value: Value?, waiter: Waiter?)>((nil, nil))

        func settle(_ value: Value) {
            let waiter: Waiter? = state.withLockedValue { state in
                guard state.value == nil else { return nil }
                state.value = value
                defer { state.waiter = nil }
                return state.waiter
            }
            waiter?.resume(returning: value)
        }

        var value: Value {
            get async {
                await withCheckedContinuation { continuation in
                    let ready: Value? = state.withLockedValue { state in
                        if let value = state.value { return value }
                        state.waiter = continuation
                        return nil
                    }
                    if let ready { continuation.resume(returning: ready) }
                }
            }
        }
    }
#endif
