import Foundation

/// What makes a timeout unusable, for the endpoint's declaration and the domain's setting alike.
enum TimeoutRule {
    /// Why `seconds` cannot be a timeout, or `nil` when it can: it must be a positive number (`.infinity` for none).
    static func problem(in seconds: TimeInterval) -> String? {
        if seconds.isNaN { return "is not a number (NaN)" }
        if seconds <= 0 { return "is \(seconds) seconds, which is not positive" }
        return nil
    }
}
