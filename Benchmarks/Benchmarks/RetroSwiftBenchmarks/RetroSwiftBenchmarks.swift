import Benchmark
import BenchmarkSupport
import Foundation
import RetroSwift
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// `RETROSWIFT_BENCH_QUICK=1` (CI) runs each benchmark briefly: enough to prove it still works, not to quote.
let quick = ProcessInfo.processInfo.environment["RETROSWIFT_BENCH_QUICK"] != nil

let benchmarks: @Sendable () -> Void = {
    Benchmark.defaultConfiguration = .init(
        metrics: [.wallClock, .cpuTotal, .mallocCountTotal, .throughput],
        warmupIterations: quick ? 1 : 100,
        scalingFactor: .kilo,
        maxDuration: quick ? .milliseconds(100) : .seconds(3),
        maxIterations: quick ? 2 : 1_000_000
    )
    registerRequestBuilding()
    registerResponseDecoding()
    registerEndToEnd()
}

/// 1. Request building: RetroSwift's endpoint call (build, hand to a transport that makes the URLRequest, decode
/// `Empty`) against the same URLRequest built by hand.
func registerRequestBuilding() {
    let entry = Entry(title: "Quarterly review", priority: 2, tags: ["q3", "review"])
    let encoder = JSONEncoder()
    encoder.dateEncodingStrategy = .millisecondsSince1970
    let api = BenchmarkApi(transport: InProcessTransport())
    let request = UpdateEntryRequest(teamId: "team alpha", entryId: 42, page: 3, sortOrder: "-created at", accountId: "acc_1", entry: entry)

    Benchmark("Request building: hand-written URLRequest (baseline)") { benchmark in
        for _ in benchmark.scaledIterations {
            blackHole(try HandWritten.updateEntry(teamId: "team alpha", entryId: 42, page: 3, sort: "-created at", accountId: "acc_1", entry: entry, encoder: encoder))
        }
    }
    Benchmark("Request building: RetroSwift endpoint call") { benchmark in
        for _ in benchmark.scaledIterations {
            blackHole(try await api.updateEntry(request))
        }
    }
}

/// 2. Response decoding: RetroSwift's response path (a parameterless call whose transport hands back the body
/// and does nothing else) against a bare `JSONDecoder().decode` of the same bytes.
func registerResponseDecoding() {
    // The 12-byte body (`{"items":[]}`) isolates what RetroSwift adds to every response: its difference is the
    // endpoint call itself (a parameterless GET, no-op transport, decode dispatch), which the larger rows include too.
    for (label, items) in [("12 B", 0), ("1 KB", 12), ("1 MB", 11_500)] {
        let body = Catalog.json(items: items)
        let api = BenchmarkApi(transport: CannedTransport(response: HttpOperationResult(statusCode: 200, headers: ["Content-Type": "application/json"], body: body)))
        let scaling: BenchmarkScalingFactor = items > 100 ? .one : .kilo
        let configuration = Benchmark.Configuration(scalingFactor: scaling, maxDuration: quick ? .milliseconds(100) : .seconds(3), maxIterations: quick ? 2 : 100_000)
        Benchmark("Response decoding \(label) (\(body.count) bytes): bare JSONDecoder (baseline)", configuration: configuration) { benchmark in
            for _ in benchmark.scaledIterations {
                blackHole(try JSONDecoder().decode(Catalog.self, from: body))
            }
        }
        Benchmark("Response decoding \(label) (\(body.count) bytes): RetroSwift endpoint call", configuration: configuration) { benchmark in
            for _ in benchmark.scaledIterations {
                blackHole(try await api.catalog())
            }
        }
    }
}
