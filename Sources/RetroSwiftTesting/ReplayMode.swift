import Foundation

/// What a ``ReplayTransport`` does with a call.
public enum ReplayMode: String, Sendable, Hashable, CaseIterable {
    /// Every call goes to the live transport, and the recording is written anew with what came back.
    case record
    /// A call the recording answers is replayed; any other goes to the live transport and is added to the recording.
    case replay
    /// Only the recording answers; a call it does not answer fails with ``ReplayError``, which shows the closest
    /// recorded request and how it differs. Nothing goes to the network: what CI runs.
    case replayStrict = "strict"

    /// The mode `RETROSWIFT_REPLAY` names (`record`, `replay` or `strict`), else ``replayStrict``: tests replay
    /// unless someone asks to record, and never reach the network by accident.
    public static var fromEnvironment: ReplayMode {
        ProcessInfo.processInfo.environment["RETROSWIFT_REPLAY"].flatMap(ReplayMode.init(rawValue:)) ?? .replayStrict
    }
}
