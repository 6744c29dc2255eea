import ArgumentParser
import BenchmarkSupport
import Foundation

/// Calls per second and latency by the number of concurrent tasks, for each transport by hand and through
/// RetroSwift, against a server that is not ours (nginx serving the 1 KB JSON document; `scale-curve.sh` starts it).
///
/// Each level runs in rounds; in each round every client keeps its tasks calling for the same window, one client
/// after another in an order that alternates between rounds, so that all of them see the same machine state on
/// average. The output is CSV, one line per client and level, which `scale-curve.sh` turns into a plot.
@main
struct ScaleCurve: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "scale-curve",
        abstract: "Calls per second and p50/p99 latency by concurrency, by hand and through RetroSwift, on each transport."
    )

    @Option(help: "The server's base URL; GET <base>/catalog must return the document --write-document writes.")
    var baseURL: String?

    @Option(help: "Write the JSON document the server must serve at /catalog to this path, and exit.")
    var writeDocument: String?

    @Option(help: "Concurrent tasks, comma-separated.")
    var levels = "1,4,16,64,256"

    @Option(help: "Rounds per level.")
    var rounds = 3

    @Option(help: "Seconds each client calls for, per round.")
    var seconds = 1.0

    @Option(help: "The clients, comma-separated: raw-urlsession, urlsession, raw-ahc, ahc, nio.")
    var clients = "raw-urlsession,urlsession,raw-ahc,ahc,nio"

    func run() async throws {
        if let writeDocument {
            try E2EPayload.document.write(to: URL(fileURLWithPath: writeDocument))
            return
        }
        guard let baseURL, let url = URL(string: baseURL) else { throw ValidationError("--base-url is required") }
        let harness = E2EHarness(baseURL: url)
        let clients = try self.clients.split(separator: ",").map { name in
            guard let client = E2EClient(shortName: name) else { throw ValidationError("no client named \(name)") }
            return client
        }
        print("client,tasks,calls_per_second,p50_ms,p99_ms")
        for level in levels.split(separator: ",").compactMap({ Int($0) }) {
            for client in clients { _ = try await window(harness, client, tasks: level, seconds: 0.3) }
            var calls = Array(repeating: 0, count: clients.count)
            var elapsed = Array(repeating: 0.0, count: clients.count)
            var latencies = Array(repeating: [Double](), count: clients.count)
            for round in 0..<rounds {
                let order = round.isMultiple(of: 2) ? Array(clients.indices) : clients.indices.reversed()
                for index in order {
                    let result = try await window(harness, clients[index], tasks: level, seconds: seconds)
                    calls[index] += result.latencies.count
                    elapsed[index] += result.elapsed
                    latencies[index] += result.latencies
                }
            }
            for index in clients.indices {
                let sorted = latencies[index].sorted()
                let row = [
                    Self.name(clients[index]), "\(level)", String(format: "%.0f", Double(calls[index]) / elapsed[index]),
                    String(format: "%.3f", percentile(sorted, 0.50) * 1_000),
                    String(format: "%.3f", percentile(sorted, 0.99) * 1_000),
                ]
                print(row.joined(separator: ","))
            }
        }
    }

    private func window(_ harness: E2EHarness, _ client: E2EClient, tasks: Int, seconds: Double) async throws
        -> (latencies: [Double], elapsed: Double)
    {
        try await callWindow(tasks: tasks, seconds: seconds) { try await harness.call(.get, with: client) }
    }

    private static func name(_ client: E2EClient) -> String {
        switch client {
        case .rawURLSession: "raw URLSession"
        case .retroSwiftURLSession: "RetroSwift + URLSessionTransport"
        case .rawAsyncHTTPClient: "raw async-http-client"
        case .retroSwiftAsyncHTTPClient: "RetroSwift + AsyncHTTPClientTransport"
        case .retroSwiftNIO: "RetroSwift + NIOTransport"
        }
    }

}
