import Foundation

/// A timeout is a positive number of seconds; `.infinity` means none (transports cap it at a year). The same rule
/// holds for the endpoint's declaration and the domain's setting.
struct TimeoutRule: DeclarationRule {
    func check(_ draft: inout DeclarationDraft) {
        guard let timeout = draft.declaration.timeout, let problem = Self.problem(in: timeout) else { return }
        draft.report("timeout \(problem)", fix: "give a positive number of seconds, or .infinity for no timeout")
    }

    /// Why `seconds` cannot be a timeout, or `nil` when it can: it must be a positive number (`.infinity` for none).
    static func problem(in seconds: TimeInterval) -> String? {
        if seconds.isNaN { return "is not a number (NaN)" }
        if seconds <= 0 { return "is \(seconds) seconds, which is not positive" }
        return nil
    }
}
