#if TransportConformance
    import Foundation

    /// Why a case of the transport conformance suite failed: what a conforming transport gives, and what came back.
    public struct TransportConformanceFailure: Error, CustomStringConvertible, Sendable {
        /// The ``TransportConformanceCase/id`` of the case.
        public let caseID: String
        /// What went wrong, with what was expected and what was observed.
        public let problem: String

        /// `caseID: problem`.
        public var description: String { "\(caseID): \(problem)" }
    }
#endif
