import ArgumentParser
import BenchmarkSupport
import Foundation

/// End-to-end throughput ratios measured in pairs: every round times a batch by hand and the same batch through
/// RetroSwift back to back (alternating which goes first), so both see the same machine state. On a shared
/// machine this is far steadier than comparing two benchmarks run seconds apart.
@main
struct E2ERatios: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "e2e-ratios",
        abstract: "Paired end-to-end throughput ratios: RetroSwift against the same client used by hand."
    )

    @Option(help: "Rounds per comparison.")
    var rounds = 300

    func run() async throws {
        let harness = try await E2EHarness.shared.value
        print(
            "| call | tasks | RetroSwift + URLSessionTransport / raw URLSession | RetroSwift + AsyncHTTPClientTransport / raw async-http-client | AsyncHTTPClientTransport / URLSessionTransport |"
        )
        print("| --- | --- | --- | --- | --- |")
        for tasks in [1, 32] {
            for operation in E2EOperation.allCases {
                let session = try await pairedTimes(harness, operation, tasks, raw: .rawURLSession, ours: .retroSwiftURLSession)
                let client = try await pairedTimes(harness, operation, tasks, raw: .rawAsyncHTTPClient, ours: .retroSwiftAsyncHTTPClient)
                let row = [
                    operation.rawValue, "\(tasks)",
                    String(format: "%.3f", session.raw / session.ours),
                    String(format: "%.3f", client.raw / client.ours),
                    String(format: "%.2f", session.ours / client.ours),
                ]
                print("| " + row.joined(separator: " | ") + " |")
            }
        }
    }

    /// Total seconds spent by each side over all rounds, after a warm-up; throughput ratio is raw / ours.
    private func pairedTimes(
        _ harness: E2EHarness, _ operation: E2EOperation, _ tasks: Int, raw: E2EClient, ours: E2EClient
    ) async throws -> (raw: Double, ours: Double) {
        for _ in 0..<20 {
            try await harness.batch(operation, with: raw, tasks: tasks)
            try await harness.batch(operation, with: ours, tasks: tasks)
        }
        let clock = ContinuousClock()
        var rawTime = Duration.zero
        var oursTime = Duration.zero
        for round in 0..<rounds {
            for side in round.isMultiple(of: 2) ? [raw, ours] : [ours, raw] {
                let start = clock.now
                try await harness.batch(operation, with: side, tasks: tasks)
                if side == raw { rawTime += clock.now - start } else { oursTime += clock.now - start }
            }
        }
        return (Self.seconds(rawTime), Self.seconds(oursTime))
    }

    private static func seconds(_ duration: Duration) -> Double {
        Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
    }
}
