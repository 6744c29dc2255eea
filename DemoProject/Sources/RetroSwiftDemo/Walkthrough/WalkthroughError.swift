/// A walkthrough step that did not behave as the demo shows it: the demo stops and exits non-zero, so CI (which runs
/// it) fails instead of printing a walkthrough that is no longer true.
struct WalkthroughError: Error, CustomStringConvertible {
    let description: String

    init(_ description: String) {
        self.description = "the demo step did not behave as shown: " + description
    }
}
