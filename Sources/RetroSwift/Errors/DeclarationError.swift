import Foundation

/// Mistakes in an API declaration, collected and reported together before anything is sent.
public struct DeclarationError: Error, Sendable, CustomStringConvertible, Equatable, LocalizedError {
    /// One mistake.
    public struct Issue: Sendable, Hashable, CustomStringConvertible {
        /// The endpoint, for example `SchedulesApi.deleteSchedule (DELETE /api/v1/schedule/{schedule_id})`.
        public let endpoint: EndpointIdentity
        /// The request field at fault, if one is.
        public let field: String?
        /// What is wrong.
        public let problem: String
        /// How to fix it.
        public let fix: String

        /// One line: where, what, and how to fix it.
        public var description: String {
            var text = "\(endpoint)"
            if let field { text += ", field '\(field)'" }
            return text + ": " + problem + ". Fix: " + fix + "."
        }
    }

    /// Every mistake found, in declaration order.
    public let issues: [Issue]

    /// A header line followed by one line per issue.
    public var description: String {
        let count = issues.count == 1 ? "1 declaration mistake" : "\(issues.count) declaration mistakes"
        return (["RetroSwift found \(count):"] + issues.map { "- \($0)" }).joined(separator: "\n")
    }

    /// ``description``, so that `localizedDescription` and an alert show every mistake rather than a generic text.
    public var errorDescription: String? { description }
}
