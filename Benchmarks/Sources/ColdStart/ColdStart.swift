import ArgumentParser
import BenchmarkSupport
import Foundation
import RetroSwift

/// BENCHMARKS.md section 4: what an endpoint's first call costs beyond a warm call, in APIs of 1, 50 and 200
/// endpoints, and how long `validateEndpoints()` takes on the 200-endpoint API.
///
/// Each endpoint is paired with itself: its first call, then the median of `--warm-calls` further calls, so both
/// sides see the same machine state. Every endpoint has its own request type (see generate-cold-start.py).
@main
struct ColdStart: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "cold-start",
        abstract: "First-call cost per endpoint against a warm call, by API size; validateEndpoints() time."
    )

    @Option(help: "Warm calls timed per endpoint after its first call.")
    var warmCalls = 25

    @Flag(help: "Time validateEndpoints() on a fresh 200-endpoint API instead (run it in its own process: it must come first).")
    var validate = false

    func run() async throws {
        let clock = ContinuousClock()
        let entry = Entry(title: "Quarterly review", priority: 2, tags: ["q3", "review"])
        if validate {
            for attempt in 1...3 {
                let (domain, _) = ColdApis.make(size: 200, transport: InProcessTransport())
                let start = clock.now
                try domain.validateEndpoints()
                print(
                    "validateEndpoints() of 200 endpoints, \(attempt == 1 ? "first in the process" : "again"): \(Self.format(clock.now - start))"
                )
            }
            return
        }
        // One-time costs of the process (first JSON encoding, first URLRequest), not of an endpoint.
        let warmup = BenchmarkApi(transport: InProcessTransport())
        for _ in 0..<50 {
            _ = try await warmup.updateEntry(
                UpdateEntryRequest(
                    teamId: "t", entryId: 1, page: 1, sortOrder: "s", accountId: "a", entry: entry
                ))
        }
        print("| API size | warm call (median) | first call minus warm: median | p90 | max |")
        print("| --- | --- | --- | --- | --- |")
        for size in ColdApis.sizes {
            let (_, call) = ColdApis.make(size: size, transport: InProcessTransport())
            var extra: [Duration] = []
            var warm: [Duration] = []
            for index in 0..<size {
                let start = clock.now
                try await call(index, entry)
                let first = clock.now - start
                var warmTimes: [Duration] = []
                for _ in 0..<warmCalls {
                    let start = clock.now
                    try await call(index, entry)
                    warmTimes.append(clock.now - start)
                }
                let warmMedian = Self.percentile(warmTimes, 0.5)
                warm.append(warmMedian)
                extra.append(first - warmMedian)
            }
            print(
                "| \(size) | \(Self.format(Self.percentile(warm, 0.5))) | \(Self.format(Self.percentile(extra, 0.5))) "
                    + "| \(Self.format(Self.percentile(extra, 0.9))) | \(Self.format(extra.max() ?? .zero)) |"
            )
        }
    }

    static func percentile(_ values: [Duration], _ fraction: Double) -> Duration {
        let sorted = values.sorted()
        guard !sorted.isEmpty else { return .zero }
        return sorted[min(sorted.count - 1, Int(Double(sorted.count - 1) * fraction + 0.5))]
    }

    static func format(_ duration: Duration) -> String {
        let microseconds = Double(duration.components.seconds) * 1e6 + Double(duration.components.attoseconds) / 1e12
        return microseconds >= 1000 ? String(format: "%.1f ms", microseconds / 1000) : String(format: "%.1f µs", microseconds)
    }
}
