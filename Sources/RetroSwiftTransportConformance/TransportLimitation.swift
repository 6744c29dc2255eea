#if TransportConformance

    /// A conformance case a transport is known not to pass, and why: listed where readers of the transport's tests see
    /// it, and checked, so the list never goes stale.
    public enum TransportLimitation: Sendable {
        /// The transport gives another answer, and `failure` says which: a distinctive part of the
        /// ``TransportConformanceFailure/problem`` the case then reports, such as `"got URLError(-1)"`. The case still
        /// runs and must fail with a problem containing `failure`: a case that passes, or fails in another way, fails
        /// the run, saying what the limitation expected and what came back, so the list never hides a new failure.
        case differs(String, failure: String)
        /// Running the case would bring the whole process down (a trap inside a library the transport uses, which no
        /// `catch` can stop), so it is not run.
        case crashes(String)
        /// The case would not end until its time limit (the transport waits for something that never comes), so it is
        /// not run.
        case hangs(String)

        /// Why the transport does not pass the case.
        public var reason: String {
            switch self {
            case .differs(let reason, _), .crashes(let reason), .hangs(let reason): reason
            }
        }
    }
#endif
