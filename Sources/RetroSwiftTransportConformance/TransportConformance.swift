#if TransportConformance
    import Foundation
    import RetroSwift

    /// The transport conformance suite: every case a transport must pass for a call to give the same answer through it
    /// as through the transports RetroSwift ships, each run through RetroSwift against a scripted server on 127.0.0.1.
    ///
    /// Run every case as one Swift Testing test per case:
    ///
    /// ```swift
    /// import RetroSwiftTransportConformance
    /// import Testing
    ///
    /// @Test(arguments: TransportConformance.cases)
    /// func conformance(_ conformanceCase: TransportConformanceCase) async throws {
    ///     try await conformanceCase.run { MyTransport() }
    /// }
    /// ```
    ///
    /// or all at once with ``run(_:knownLimitations:)``. A transport that cannot pass a case says so where readers see
    /// it, as a ``TransportLimitation`` with the reason and the failure it expects: such a case must then fail that way,
    /// and the run fails the day it passes or fails otherwise, so the list never goes stale nor hides a new failure.
    public enum TransportConformance {
        /// Every case, in a stable order.
        public static let cases: [TransportConformanceCase] = {
            var all =
                responseFieldCases + statusCases + framingCases + bodyCases + streamCases + requestCases + redirectCases
                + connectionCases + connectionReuseCases + progressCases + timingCases + timeoutCases + cacheCases + urlCases
            // With SwiftNIO SSL and swift-certificates, which the trait brings: an https server and certificates made
            // for each case.
            #if ConformanceTLS
                all += tlsCases + clientCertificateCases
            #endif
            return all
        }()

        /// Runs every case against transports made by `makeTransport`, one at a time.
        ///
        /// - Parameters:
        ///   - makeTransport: Makes a fresh transport for each case.
        ///   - knownLimitations: The cases the transport is known not to pass, by ``TransportConformanceCase/id``.
        /// - Returns: The ids of the cases that passed.
        /// - Throws: ``TransportConformanceFailure`` listing every case that failed, every known limitation that passed or
        ///   failed otherwise than it says, and every id in `knownLimitations` that names no case.
        @discardableResult
        public static func run(
            _ makeTransport: @escaping @Sendable () -> any HttpTransport, knownLimitations: [String: TransportLimitation] = [:]
        ) async throws -> [String] {
            var problems: [String] = []
            var passed: [String] = []
            let ids = Set(cases.map(\.id))
            for id in knownLimitations.keys.sorted() where !ids.contains(id) {
                problems.append("\(id): a known limitation that names no case")
            }
            for conformanceCase in cases {
                do {
                    try await conformanceCase.run(makeTransport, knownLimitation: knownLimitations[conformanceCase.id])
                    if knownLimitations[conformanceCase.id] == nil { passed.append(conformanceCase.id) }
                } catch let failure as TransportConformanceFailure {
                    problems.append(failure.description)
                } catch {
                    problems.append("\(conformanceCase.id): \(error)")
                }
            }
            guard problems.isEmpty else { throw TransportConformanceFailure(caseID: "suite", problem: problems.joined(separator: "\n")) }
            return passed
        }
    }
#endif
