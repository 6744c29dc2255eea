import Benchmark
import BenchmarkSupport

/// 3. End to end on loopback against a SwiftNIO server in another process (`e2e-ratios --serve`, which must be
/// built first): RetroSwift on each transport against the same client used by hand. One benchmark iteration is
/// one batch of `tasks` concurrent calls, so the ratio of times is the inverse ratio of throughput.
func registerEndToEnd() {
    let configuration = Benchmark.Configuration(
        metrics: [.wallClock, .throughput, .mallocCountTotal], warmupIterations: 20, scalingFactor: .one, maxDuration: .seconds(3),
        maxIterations: 5_000
    )
    for tasks in [1, 32] {
        for operation in E2EOperation.allCases {
            for client in E2EClient.allCases {
                Benchmark("End to end \(operation) 1 KB, \(tasks) task(s): \(client)", configuration: configuration) { benchmark in
                    let harness = try await E2EHarness.shared.value
                    for _ in benchmark.scaledIterations {
                        try await harness.batch(operation, with: client, tasks: tasks)
                    }
                }
            }
        }
    }
}
