#if TransportConformance

    /// A conformance case a transport is known not to pass, and why: listed where readers of the transport's tests see
    /// it, and checked, so the list never goes stale.
    public enum TransportLimitation: Sendable {
        /// The transport gives another answer. The case still runs and must fail: the day it passes, the run fails and
        /// asks for the limitation to be removed.
        case differs(String)
        /// Running the case would bring the whole process down (a trap inside a library the transport uses, which no
        /// `catch` can stop), so it is not run.
        case crashes(String)
        /// The case would not end until its time limit (the transport waits for something that never comes), so it is
        /// not run.
        case hangs(String)

        /// Why the transport does not pass the case.
        public var reason: String {
            switch self {
            case .differs(let reason), .crashes(let reason), .hangs(let reason): reason
            }
        }
    }
#endif
