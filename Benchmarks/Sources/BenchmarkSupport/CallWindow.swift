/// What the scale benchmarks (`scale-curve`, `h2-ratios`) measure in a round: `tasks` tasks, each making one `call`
/// after another until `seconds` have passed. Returns the latency of every call and the window's length, in seconds.
public func callWindow(
    tasks: Int, seconds: Double, _ call: @escaping @Sendable () async throws -> Void
) async throws -> (latencies: [Double], elapsed: Double) {
    let clock = ContinuousClock()
    let start = clock.now
    let end = start + .milliseconds(Int(seconds * 1_000))
    let latencies = try await withThrowingTaskGroup(of: [Double].self) { group in
        for _ in 0..<tasks {
            group.addTask {
                var own: [Double] = []
                while clock.now < end {
                    let begin = clock.now
                    try await call()
                    own.append((clock.now - begin).inSeconds)
                }
                return own
            }
        }
        var all: [Double] = []
        for try await own in group { all += own }
        return all
    }
    return (latencies, (clock.now - start).inSeconds)
}

/// The value at `fraction` (0.5 for the median) of `sorted`, ascending; 0 when it is empty.
public func percentile(_ sorted: [Double], _ fraction: Double) -> Double {
    guard !sorted.isEmpty else { return 0 }
    return sorted[min(sorted.count - 1, Int((Double(sorted.count) * fraction).rounded(.down)))]
}
