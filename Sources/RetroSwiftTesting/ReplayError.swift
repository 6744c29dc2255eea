/// Why a ``ReplayTransport`` could not answer: a call its recording does not hold (with the closest recorded
/// request and how it differs), a recording that cannot be read, or a mode that needs a live transport without one.
public struct ReplayError: Error, CustomStringConvertible, Sendable {
    /// What went wrong and what to do about it.
    public let description: String

    init(_ description: String) {
        self.description = description
    }
}
