import Foundation
import RetroSwift
import Testing

/// A Swift Testing trait that runs a test against a recording: it opens a ``ReplayTransport`` on a HAR file for the
/// test's duration, as ``ReplayTransport/current``, and saves what was recorded when the test passes.
///
/// ```swift
/// @Test(.replaying("Fixtures/schedules.har", recordingThrough: { URLSessionTransport() }))
/// func listsSchedules() async throws {
///     let api = SchedulesApi(transport: try #require(ReplayTransport.current), baseURL: stagingURL)
///     #expect(try await api.getSchedules(.init()).count == 30)
/// }
/// ```
///
/// The mode comes from `RETROSWIFT_REPLAY` unless given: `RETROSWIFT_REPLAY=record swift test --filter listsSchedules`
/// records the file through the live transport, and a plain `swift test` replays it strictly, offline.
public struct ReplayTrait: TestTrait, TestScoping {
    /// The recording's file.
    public let file: URL
    /// What the transport does with calls.
    public let mode: ReplayMode
    /// What must match for the recording to answer a call.
    public let matching: ReplayMatching
    private let live: (@Sendable () -> any HttpTransport)?

    init(file: URL, mode: ReplayMode, matching: ReplayMatching, live: (@Sendable () -> any HttpTransport)?) {
        self.file = file
        self.mode = mode
        self.matching = matching
        self.live = live
    }

    /// Runs the test with ``ReplayTransport/current`` set, then saves the recording if the test passed.
    ///
    /// - Parameters:
    ///   - test: The test.
    ///   - testCase: The test case, for a parameterized test.
    ///   - function: The test's body.
    /// - Throws: ``ReplayError`` when the recording cannot be opened; what the test throws; the file system's error
    ///   when the recording cannot be saved.
    public func provideScope(
        for test: Test, testCase: Test.Case?, performing function: @Sendable () async throws -> Void
    ) async throws {
        let transport = try ReplayTransport(
            file: file, mode: mode, live: mode == .replayStrict ? nil : live?(), matching: matching)
        try await ReplayTransport.$current.withValue(transport) { try await function() }
        try transport.save()
    }
}

extension Trait where Self == ReplayTrait {
    /// Runs the test against the HAR recording at `path`, relative to the folder of the file that declares the test.
    ///
    /// - Parameters:
    ///   - path: The recording's path, relative to the test's source file (or absolute).
    ///   - mode: What to do with calls; by default what `RETROSWIFT_REPLAY` says, else ``ReplayMode/replayStrict``.
    ///   - live: Makes the live transport for recording; not called when replaying strictly.
    ///   - matching: What must match for the recording to answer a call.
    ///   - filePath: The test's source file; leave it to the default.
    /// - Returns: The trait.
    public static func replaying(
        _ path: String, mode: ReplayMode = .fromEnvironment,
        recordingThrough live: (@Sendable () -> any HttpTransport)? = nil, matching: ReplayMatching = ReplayMatching(),
        filePath: String = #filePath
    ) -> Self {
        let file =
            path.hasPrefix("/")
            ? URL(fileURLWithPath: path)
            : URL(fileURLWithPath: filePath).deletingLastPathComponent().appendingPathComponent(path)
        return ReplayTrait(file: file, mode: mode, matching: matching, live: live)
    }
}
