import ArgumentParser
import AsyncHTTPClient
import BenchmarkSupport
import Foundation
import MallocInterposerSwift
import NIOCore
import NIOSSL
import RetroSwift
import RetroSwiftAsyncHTTPClient
import RetroSwiftNIO

/// HTTP/2 calls per second and latency by concurrency against nginx over TLS (`h2-nginx.sh` starts it with `http2`):
/// async-http-client by hand over HTTP/2 (the baseline), RetroSwift on `NIOTransport` over HTTP/2, RetroSwift on
/// `AsyncHTTPClientTransport` over the baseline's own client, and `NIOTransport` held to HTTP/1.1 with its 8
/// connections per origin. Each level runs in rounds; in each round every client calls for the same window, in an
/// order that alternates between rounds, so that all of them see the same machine on average. Before measuring, each
/// client's protocol is checked from what nginx says it spoke (`X-Protocol`), so an HTTP/2 figure is one.
@main
struct HTTP2Ratios: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "h2-ratios",
        abstract: "HTTP/2 calls per second and p50/p99 latency by concurrency: async-http-client by hand against RetroSwift."
    )

    @Option(help: "The server's base URL, https://127.0.0.1:<port>; GET and POST <base>/catalog as nginx.sh serves them.")
    var baseURL: String

    @Option(help: "The PEM file of the certificate authority that issued the server's certificate.")
    var caFile: String

    @Option(help: "Concurrent tasks, comma-separated.")
    var levels = "1,32,256"

    @Option(help: "Rounds per level.")
    var rounds = 5

    @Option(help: "Seconds each client calls for, per round.")
    var seconds = 1.0

    @Option(help: "The calls, comma-separated: get, post.")
    var operations = "get,post"

    @Option(
        help: """
            Instead of measuring, make this many calls one after another with one client and exit, for a profiler \
            (profile-h2.sh): <client>-<get|post>, client one of raw, nio, ahc, nio1.
            """)
    var loop: String?

    @Option(help: "How many calls --loop makes.")
    var calls = 1_000

    @Flag(
        help: """
            Instead of measuring, count the allocations (malloc, calloc, realloc and the like, on every thread of the \
            process) of --calls calls one after another with each client, after as many unmeasured ones, and print them \
            per call.
            """)
    var allocations = false

    func run() async throws {
        guard let url = URL(string: baseURL) else { throw ValidationError("--base-url is not a URL") }
        let harness = try HTTP2Harness(baseURL: url, caFile: caFile)
        defer { harness.shutdown() }
        try await harness.checkProtocols()
        if let loop {
            let parts = loop.split(separator: "-").map(String.init)
            guard parts.count == 2, let client = HTTP2Harness.Client(shortName: parts[0]),
                let operation = HTTP2Harness.Operation(rawValue: parts[1])
            else { throw ValidationError("--loop takes <raw|nio|ahc|nio1>-<get|post>, not \(loop)") }
            for _ in 0..<calls { try await harness.call(operation, with: client) }
            return
        }
        if allocations {
            print("operation,client,allocations_per_call,ratio_to_baseline")
            for operation in operations.split(separator: ",").map(String.init) {
                guard let operation = HTTP2Harness.Operation(rawValue: operation) else { throw ValidationError("no call \(operation)") }
                var baseline = 0.0
                for client in HTTP2Harness.Client.allCases {
                    let perCall = try await allocationsPerCall(harness, client, operation)
                    if client == HTTP2Harness.Client.allCases[0] { baseline = perCall }
                    print(
                        "\(operation.rawValue.uppercased()),\(client.rawValue),\(String(format: "%.1f", perCall)),\(String(format: "%.3f", perCall / baseline))"
                    )
                }
            }
            return
        }
        print("operation,client,tasks,calls_per_second,p50_ms,p99_ms,ratio_to_baseline")
        for operation in operations.split(separator: ",").map(String.init) {
            guard let operation = HTTP2Harness.Operation(rawValue: operation) else { throw ValidationError("no call \(operation)") }
            for level in levels.split(separator: ",").compactMap({ Int($0) }) {
                try await measure(harness, operation, tasks: level)
            }
        }
    }

    /// Allocations per call of `client`, counted over `calls` calls after as many that warm its connection, pool and
    /// caches; every thread's are counted, the event loops' included, as they are the call's too.
    private func allocationsPerCall(
        _ harness: HTTP2Harness, _ client: HTTP2Harness.Client, _ operation: HTTP2Harness.Operation
    ) async throws -> Double {
        for _ in 0..<calls { try await harness.call(operation, with: client) }
        MallocInterposerSwift.initialize()
        MallocInterposerSwift.hook()
        for _ in 0..<calls { try await harness.call(operation, with: client) }
        MallocInterposerSwift.unhook()
        return Double(MallocInterposerSwift.getStatistics().mallocCount) / Double(calls)
    }

    private func measure(_ harness: HTTP2Harness, _ operation: HTTP2Harness.Operation, tasks: Int) async throws {
        let clients = HTTP2Harness.Client.allCases
        for client in clients { _ = try await window(harness, client, operation, tasks: tasks, seconds: 0.3) }
        var calls = Array(repeating: 0, count: clients.count)
        var elapsed = Array(repeating: 0.0, count: clients.count)
        var latencies = Array(repeating: [Double](), count: clients.count)
        for round in 0..<rounds {
            let order = round.isMultiple(of: 2) ? Array(clients.indices) : clients.indices.reversed()
            for index in order {
                let result = try await window(harness, clients[index], operation, tasks: tasks, seconds: seconds)
                calls[index] += result.latencies.count
                elapsed[index] += result.elapsed
                latencies[index] += result.latencies
            }
        }
        let rates = clients.indices.map { Double(calls[$0]) / elapsed[$0] }
        for index in clients.indices {
            let sorted = latencies[index].sorted()
            let row = [
                operation.rawValue.uppercased(), clients[index].rawValue, "\(tasks)", String(format: "%.0f", rates[index]),
                String(format: "%.3f", percentile(sorted, 0.50) * 1_000),
                String(format: "%.3f", percentile(sorted, 0.99) * 1_000), String(format: "%.2f", rates[index] / rates[0]),
            ]
            print(row.joined(separator: ","))
        }
    }

    private func window(
        _ harness: HTTP2Harness, _ client: HTTP2Harness.Client, _ operation: HTTP2Harness.Operation, tasks: Int, seconds: Double
    ) async throws -> (latencies: [Double], elapsed: Double) {
        try await callWindow(tasks: tasks, seconds: seconds) { try await harness.call(operation, with: client) }
    }
}

/// The clients, made once, calling nginx over TLS.
final class HTTP2Harness: Sendable {
    enum Operation: String {
        case get, post
    }

    /// Who calls, and over what. The first is the baseline the ratios are taken against.
    enum Client: String, CaseIterable {
        case rawAsyncHTTPClient = "raw async-http-client, HTTP/2 (baseline)"
        case nioHTTP2 = "RetroSwift + NIOTransport, HTTP/2"
        case asyncHTTPClientTransport = "RetroSwift + AsyncHTTPClientTransport, HTTP/2"
        case nioHTTP1 = "RetroSwift + NIOTransport, HTTP/1.1 (8 connections)"

        /// Its name on the command line (`--loop`).
        init?(shortName: String) {
            switch shortName {
            case "raw": self = .rawAsyncHTTPClient
            case "nio": self = .nioHTTP2
            case "ahc": self = .asyncHTTPClientTransport
            case "nio1": self = .nioHTTP1
            default: return nil
            }
        }

        /// What nginx must report for it.
        var expectedProtocol: String { self == .nioHTTP1 ? "HTTP/1.1" : "HTTP/2.0" }
    }

    let baseURL: URL
    /// The app's own client, as AsyncHTTPClientTransport's article makes it, trusting a private authority.
    let client: HTTPClient
    let apis: [Client: HTTP2Api]
    let payload: E2EPayload
    let payloadBytes: Data

    init(baseURL: URL, caFile: String) throws {
        self.baseURL = baseURL
        let pem = try Data(contentsOf: URL(fileURLWithPath: caFile))
        let authority = try NIOSSLCertificate(bytes: Array(pem), format: .pem)
        var tls = TLSConfiguration.makeClientConfiguration()
        tls.trustRoots = .certificates([authority])
        var configuration = AsyncHTTPClientTransport.clientConfiguration
        configuration.tlsConfiguration = tls
        client = HTTPClient(eventLoopGroup: HTTPClient.defaultEventLoopGroup, configuration: configuration)
        let trust = try ServerTrust(certificateAuthorities: [Data(try authority.toDERBytes())])
        func api(_ transport: some HttpTransport) -> HTTP2Api {
            transport.setConfiguration(baseURL: baseURL, sharedHeaders: nil)
            let api = HTTP2Api(transport: transport)
            api.serverTrust = trust
            return api
        }
        apis = [
            .nioHTTP2: api(NIOTransport(NIOTransport.Configuration(httpVersion: .automatic))),
            .asyncHTTPClientTransport: api(try AsyncHTTPClientTransport(client: client)),
            .nioHTTP1: api(NIOTransport(NIOTransport.Configuration(connectionsPerOrigin: 8, httpVersion: .http1Only))),
        ]
        payloadBytes = try E2EPayload.document
        payload = try JSONDecoder().decode(E2EPayload.self, from: payloadBytes)
    }

    func shutdown() {
        try? client.syncShutdown()
    }

    /// Fails unless every client speaks the protocol its name says.
    func checkProtocols() async throws {
        for client in Client.allCases {
            let spoken: String?
            if let api = apis[client] {
                spoken = try await api.catalogWithHeaders().headers["X-Protocol"]
            } else {
                let response = try await self.client.execute(
                    HTTPClientRequest(url: baseURL.absoluteString + "/catalog"), timeout: .seconds(10))
                spoken = response.headers.first(name: "X-Protocol")
                _ = try await response.body.collect(upTo: 1 << 20)
            }
            guard spoken == client.expectedProtocol else {
                throw ValidationError("\(client.rawValue) spoke \(spoken ?? "nothing nginx named"), not \(client.expectedProtocol)")
            }
        }
    }

    func call(_ operation: Operation, with client: Client) async throws {
        do {
            guard let api = apis[client] else { return try await raw(operation) }
            switch operation {
            case .get: consume(try await api.catalog())
            case .post: consume(try await api.post(HTTP2PostRequest(payload: payload)))
            }
        } catch {
            throw ValidationError("\(client.rawValue): \(error)")
        }
    }

    /// What careful hand-written async-http-client code does: build, send, check the status, decode.
    private func raw(_ operation: Operation) async throws {
        var request = HTTPClientRequest(url: baseURL.absoluteString + "/catalog")
        if operation == .post {
            request.method = .POST
            request.headers.add(name: "Content-Type", value: "application/json")
            request.body = .bytes(ByteBuffer(bytes: try JSONEncoder().encode(payload)))
        }
        let response = try await client.execute(request, timeout: .seconds(60))
        guard response.status.code == 200 else { throw URLError(.badServerResponse) }
        let body = Data(try await response.body.collect(upTo: 1 << 20).readableBytesView)
        if operation == .get {
            consume(try JSONDecoder().decode(E2EPayload.self, from: body))
        } else {
            consume(try JSONDecoder().decode(HTTP2Ack.self, from: body))
        }
    }
}

struct HTTP2PostRequest {
    @JsonBody var payload: E2EPayload
}

struct HTTP2Ack: Codable, Sendable {
    var ok: Bool
}

// @unchecked Sendable: endpoint wrappers only, set up in init and never reassigned.
final class HTTP2Api: Domain, @unchecked Sendable {
    @Get("/catalog") var catalog: () async throws -> E2EPayload
    @Get("/catalog") var catalogWithHeaders: () async throws -> HTTPResponse<Data>
    @Post("/catalog") var post: (HTTP2PostRequest) async throws -> HTTP2Ack
}
