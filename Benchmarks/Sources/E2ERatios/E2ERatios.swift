import ArgumentParser
import BenchmarkSupport
import Foundation

/// End-to-end throughput ratios measured in pairs: every round times a batch by hand and the same batch through
/// RetroSwift back to back (alternating which goes first), so both see the same machine state. On a shared
/// machine this is far steadier than comparing two benchmarks run seconds apart. The server is this executable
/// again, run with `--serve` in a process of its own.
@main
struct E2ERatios: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "e2e-ratios",
        abstract: "Paired end-to-end throughput ratios: RetroSwift against the same client used by hand."
    )

    @Option(help: "Rounds per comparison.")
    var rounds = 300

    @Flag(help: "Only serve on 127.0.0.1: print the port, run until killed or until standard input closes.")
    var serve = false

    @Flag(help: "Measure what HTTPCache saves instead: a fresh hit and a 304 revalidation against the network.")
    var cache = false

    @Option(help: "The JSON document each GET gets and each POST sends: 1k or 100k.")
    var size = "1k"

    @Flag(
        help: "Compare NIOTransport with async-http-client by hand and through AsyncHTTPClientTransport, the three in each round.")
    var nio = false

    @Flag(help: "With --nio: also GET the document as bytes, decoded by neither side (what the clients alone cost).")
    var bytes = false

    @Option(
        help:
            "Call this server instead of starting e2e-ratios --serve: nginx as e2e-nginx.sh starts it (GET and POST /catalog, 1k only).")
    var baseURL: String?

    func run() async throws {
        if serve { return try await E2EServerProcess.serve() }
        let server: E2EServerProcess?
        let harness: E2EHarness
        if let baseURL {
            guard let url = URL(string: baseURL) else { throw ValidationError("--base-url takes a URL") }
            server = nil
            harness = E2EHarness(baseURL: url)
        } else {
            let started = try E2EServerProcess.start(Bundle.main.executableURL ?? URL(fileURLWithPath: CommandLine.arguments[0]))
            server = started
            harness = E2EHarness(baseURL: started.baseURL)
        }
        defer { server?.stop() }
        if cache { return try await cacheRatios(harness) }
        guard let size = E2EDocumentSize(rawValue: size) else { throw ValidationError("--size takes 1k or 100k") }
        if nio { return try await nioRatios(harness, size) }
        print("\(size) documents, \(rounds) rounds per comparison\n")
        print(
            "| call | tasks | RetroSwift + URLSessionTransport / raw URLSession | RetroSwift + AsyncHTTPClientTransport / raw async-http-client | AsyncHTTPClientTransport / URLSessionTransport |"
        )
        print("| --- | --- | --- | --- | --- |")
        // Absolute rates only put the ratios in context: they swing with the machine's load far more than ratios.
        var rates: [String] = []
        for tasks in [1, 32] {
            for operation in E2EOperation.allCases {
                let session = try await pairedTimes(harness, operation, tasks, size, raw: .rawURLSession, ours: .retroSwiftURLSession)
                let client = try await pairedTimes(
                    harness, operation, tasks, size, raw: .rawAsyncHTTPClient, ours: .retroSwiftAsyncHTTPClient)
                let row = [
                    operation.rawValue, "\(tasks)",
                    String(format: "%.3f", session.raw / session.ours),
                    String(format: "%.3f", client.raw / client.ours),
                    String(format: "%.2f", session.ours / client.ours),
                ]
                print("| " + row.joined(separator: " | ") + " |")
                let calls = Double(rounds * tasks)
                let rate = [session.raw, session.ours, client.raw, client.ours].map { String(format: "%.0f", calls / $0) }
                rates.append("| " + ([operation.rawValue, "\(tasks)"] + rate).joined(separator: " | ") + " |")
            }
        }
        print("\nCalls per second:\n")
        print(
            "| call | tasks | raw URLSession | RetroSwift + URLSessionTransport | raw async-http-client | RetroSwift + AsyncHTTPClientTransport |"
        )
        print("| --- | --- | --- | --- | --- | --- |")
        for row in rates { print(row) }
    }

    /// Time per call of a GET from the network, a fresh hit and a 304 revalidation, paired round by round.
    private func cacheRatios(_ harness: E2EHarness) async throws {
        defer { harness.removeDiskCaches() }
        let calls = E2ECacheCall.allCases
        print(
            "| transport | " + calls.map(\.rawValue).joined(separator: " | ")
                + " | network / memory hit | network / disk hit | network / 304 |")
        print("| --- |" + String(repeating: " --- |", count: calls.count + 3))
        for (name, asyncHTTPClient) in [("URLSessionTransport", false), ("AsyncHTTPClientTransport", true)] {
            var totals: [E2ECacheCall: Duration] = [:]
            for _ in 0..<20 { for call in calls { try await harness.cacheCall(call, asyncHTTPClient: asyncHTTPClient) } }
            let clock = ContinuousClock()
            for round in 0..<rounds {
                // Each round in another order, so no call always follows the same one.
                for index in 0..<calls.count {
                    let call = calls[(index + round) % calls.count]
                    let start = clock.now
                    try await harness.cacheCall(call, asyncHTTPClient: asyncHTTPClient)
                    totals[call, default: .zero] += clock.now - start
                }
            }
            let micros = calls.map { (totals[$0] ?? .zero).inSeconds / Double(rounds) * 1e6 }
            let row =
                [name] + micros.map { String(format: "%.1f µs", $0) }
                + [micros[1], micros[2], micros[3]].map { String(format: "%.2f×", micros[0] / $0) }
            print("| " + row.joined(separator: " | ") + " |")
        }
    }

    /// NIOTransport's throughput against async-http-client's by hand and through RetroSwift: every round times one batch
    /// of each of the three, in an order that turns from round to round, so all three see the same machine state.
    private func nioRatios(_ harness: E2EHarness, _ size: E2EDocumentSize) async throws {
        let clients: [E2EClient] = [.rawAsyncHTTPClient, .retroSwiftAsyncHTTPClient, .retroSwiftNIO]
        print("\(size) documents, \(rounds) rounds per comparison, the three clients in each round\n")
        print(
            "| call | tasks | NIOTransport / raw async-http-client | NIOTransport / AsyncHTTPClientTransport | calls/s: raw async-http-client | AsyncHTTPClientTransport | NIOTransport |"
        )
        print("| --- | --- | --- | --- | --- | --- | --- |")
        for tasks in [1, 32] {
            for operation in E2EOperation.allCases + (bytes ? [.bytes] : []) {
                let times = try await roundTimes(harness, operation, tasks, size, clients)
                let calls = Double(rounds * tasks)
                let row =
                    [
                        operation.description, "\(tasks)", String(format: "%.3f", times[0] / times[2]),
                        String(format: "%.3f", times[1] / times[2]),
                    ]
                    + times.map { String(format: "%.0f", calls / $0) }
                print("| " + row.joined(separator: " | ") + " |")
            }
        }
    }

    /// Total seconds each client spent over all rounds, after a warm-up; each round runs one batch of every client, the
    /// order rotated and reversed from round to round.
    private func roundTimes(
        _ harness: E2EHarness, _ operation: E2EOperation, _ tasks: Int, _ size: E2EDocumentSize, _ clients: [E2EClient]
    ) async throws -> [Double] {
        for _ in 0..<20 {
            for client in clients { try await harness.batch(operation, with: client, tasks: tasks, size: size) }
        }
        let clock = ContinuousClock()
        var totals = Array(repeating: Duration.zero, count: clients.count)
        for round in 0..<rounds {
            var order = Array(clients.indices)
            order.rotate(by: round % clients.count)
            if (round / clients.count).isMultiple(of: 2) { order.reverse() }
            for index in order {
                let start = clock.now
                try await harness.batch(operation, with: clients[index], tasks: tasks, size: size)
                totals[index] += clock.now - start
            }
        }
        return totals.map(\.inSeconds)
    }

    /// Total seconds spent by each side over all rounds, after a warm-up; throughput ratio is raw / ours.
    private func pairedTimes(
        _ harness: E2EHarness, _ operation: E2EOperation, _ tasks: Int, _ size: E2EDocumentSize, raw: E2EClient, ours: E2EClient
    ) async throws -> (raw: Double, ours: Double) {
        for _ in 0..<20 {
            try await harness.batch(operation, with: raw, tasks: tasks, size: size)
            try await harness.batch(operation, with: ours, tasks: tasks, size: size)
        }
        let clock = ContinuousClock()
        var rawTime = Duration.zero
        var oursTime = Duration.zero
        for round in 0..<rounds {
            for side in round.isMultiple(of: 2) ? [raw, ours] : [ours, raw] {
                let start = clock.now
                try await harness.batch(operation, with: side, tasks: tasks, size: size)
                if side == raw { rawTime += clock.now - start } else { oursTime += clock.now - start }
            }
        }
        return (rawTime.inSeconds, oursTime.inSeconds)
    }

}

extension Array {
    /// Moves the first `count` elements to the end.
    fileprivate mutating func rotate(by count: Int) {
        guard !isEmpty else { return }
        let shift = count % self.count
        self = Array(self[shift...] + self[..<shift])
    }
}
