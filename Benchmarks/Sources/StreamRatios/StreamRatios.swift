import ArgumentParser
import BenchmarkSupport
import Foundation

/// Streaming throughput measured in pairs: every round reads the same Server-Sent Events stream with
/// `ServerSentEvents` on a RetroSwift transport and with the same client by hand (raw chunks, a hand-written
/// parser, the same JSON decoding), back to back, alternating which goes first; then the same events as JSON Lines
/// with `JSONLines`. The server is `e2e-ratios --serve` in a process of its own.
@main
struct StreamRatios: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "stream-ratios",
        abstract: "Paired streaming throughput: ServerSentEvents and JSONLines against the same streams parsed by hand."
    )

    @Option(help: "Rounds per comparison.")
    var rounds = 30

    @Option(help: "64 KiB blocks per stream (128 is 8 MiB).")
    var blocks = 128

    func run() async throws {
        let running = Bundle.main.executableURL ?? URL(fileURLWithPath: CommandLine.arguments[0])
        let server = try E2EServerProcess.start(running.deletingLastPathComponent().appendingPathComponent("e2e-ratios"))
        defer { server.stop() }
        let harness = StreamingHarness(baseURL: server.baseURL)
        print(
            "Streams of \(blocks) blocks (\(blocks * StreamingFixture.block.events) events, or \(blocks * StreamingFixture.lines.lines) "
                + "JSON Lines, \(blocks / 16) MiB), \(rounds) rounds.\n")
        print("| transport | RetroSwift / by hand | events/s by hand | events/s RetroSwift | MB/s by hand | MB/s RetroSwift |")
        print("| --- | --- | --- | --- | --- | --- |")
        for (name, raw, ours) in [
            ("URLSession", StreamingClient.rawURLSession, StreamingClient.retroSwiftURLSession),
            ("async-http-client", .rawAsyncHTTPClient, .retroSwiftAsyncHTTPClient),
            ("URLSession, raw chunks (HTTPBodyStream + the hand-written parser)", .rawURLSession, .bodyStreamURLSession),
            ("async-http-client, raw chunks (HTTPBodyStream + the hand-written parser)", .rawAsyncHTTPClient, .bodyStreamAsyncHTTPClient),
            ("URLSession, JSON Lines", .rawURLSessionLines, .retroSwiftURLSessionLines),
            ("async-http-client, JSON Lines", .rawAsyncHTTPClientLines, .retroSwiftAsyncHTTPClientLines),
        ] {
            let (rawTime, oursTime) = try await pairedTimes(harness, raw: raw, ours: ours)
            let events = Double(blocks * ours.elementsPerBlock) * Double(rounds)
            let megabytes = Double(blocks * ours.bytesPerBlock) * Double(rounds) / 1_048_576
            let row = [
                name, String(format: "%.3f", rawTime / oursTime),
                String(format: "%.0f", events / rawTime), String(format: "%.0f", events / oursTime),
                String(format: "%.1f", megabytes / rawTime), String(format: "%.1f", megabytes / oursTime),
            ]
            print("| " + row.joined(separator: " | ") + " |")
        }
    }

    private func pairedTimes(_ harness: StreamingHarness, raw: StreamingClient, ours: StreamingClient) async throws -> (Double, Double) {
        for _ in 0..<3 {
            _ = try await harness.read(blocks: blocks, with: raw)
            _ = try await harness.read(blocks: blocks, with: ours)
        }
        let clock = ContinuousClock()
        var rawTime = Duration.zero
        var oursTime = Duration.zero
        for round in 0..<rounds {
            for side in round.isMultiple(of: 2) ? [raw, ours] : [ours, raw] {
                let start = clock.now
                _ = try await harness.read(blocks: blocks, with: side)
                if side == raw { rawTime += clock.now - start } else { oursTime += clock.now - start }
            }
        }
        return (rawTime.inSeconds, oursTime.inSeconds)
    }

}
