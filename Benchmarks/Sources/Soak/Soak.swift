import ArgumentParser
import AsyncHTTPClient
import Foundation
import RetroSwift
import RetroSwiftAsyncHTTPClient
import RetroSwiftNIO
import RetroSwiftURLSession

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The soak of every transport (issues 41 and 48): many calls from many tasks, bounded in time and in count, against
/// nginx closing connections under the pool (`soak.sh`) or against a fault-injecting server of its own (`--faults`)
/// that cuts, resets, stalls, dribbles, fragments and sends 103 Early Hints, call by call; some calls cancelled. It
/// checks each call ended as it must for what the server did, that no POST was received twice, and compares open
/// file descriptors and resident memory before and after. Exits non-zero on any wrong outcome or leaked descriptor.
@main
struct Soak: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "soak", abstract: "A transport under load, faults and cancellations; see soak.sh.")

    enum Transport: String, ExpressibleByArgument, CaseIterable {
        case urlsession, asynchttpclient, nio
    }

    @Option(help: "The server's base URL (nginx mode): GET /catalog answers the document, POST /catalog {\"ok\":true}.")
    var baseURL: String?

    @Flag(help: "Soak against the fault-injecting server this program starts (a process of its own) instead.")
    var faults = false

    @Flag(help: .hidden)
    var serveFaults = false

    @Option(help: "The transport: urlsession, asynchttpclient (on an HTTPClient of the soak's) or nio.")
    var transport: Transport = .nio

    @Option(help: "Calls in all, at most.")
    var calls = 300_000

    @Option(help: "Seconds, at most.")
    var seconds = 60.0

    @Option(help: "Concurrent tasks.")
    var tasks = 64

    @Option(help: "Every n-th call is cancelled after a short random delay (default 50 against nginx, 9 with --faults).")
    var cancelEvery: Int?

    @Option(help: "The calls' timeout in seconds (--faults).")
    var timeout = 1.0

    @Option(help: "Write the ids of the POSTs that succeeded to this file, one a line.")
    var postedIds: String?

    @Option(
        help: "The PEM file of the authority that issued the server's certificate, for an https --base-url (H2=1 soak.sh).")
    var caFile: String?

    @Flag(help: "Measure timeout and cancellation latency alone and beside large uploads and downloads (--tasks of them).")
    var latency = false

    @Option(help: "Probes of each kind per phase (--latency).")
    var probes = 40

    enum Load: String, ExpressibleByArgument, CaseIterable {
        case downloads, uploads, both
    }

    @Option(help: "What the load moves (--latency): downloads, uploads or both in turn.")
    var load: Load = .both

    /// A trust of the one authority in the PEM file at `path`.
    static func trust(issuedBy path: String) throws -> ServerTrust {
        let pem = try String(contentsOfFile: path, encoding: .utf8)
        let base64 = pem.split(separator: "\n").filter { !$0.hasPrefix("-----") }.joined()
        guard let der = Data(base64Encoded: base64) else { throw ValidationError("\(path) holds no PEM certificate") }
        return try ServerTrust(certificateAuthorities: [der])
    }

    func run() async throws {
        if serveFaults { try await FaultServer.serve() }
        if latency {
            try await LatencyBenchmark(transport: transport, loadTasks: tasks, probes: probes, load: load).run()
            return
        }
        let server: FaultServerProcess?
        let url: URL
        if faults {
            server = try FaultServerProcess.start()
            url = server!.baseURL
        } else {
            guard let baseURL, let given = URL(string: baseURL) else { throw ValidationError("--base-url or --faults") }
            server = nil
            url = given
        }
        // Against faults, a connection per task: a call never waits for one behind a stalled call, so a timeout is
        // the transport's, not the pool's. Against nginx, each transport's default pool, as before.
        let connections = faults ? tasks : nil
        let plan = Plan(faults: faults, cancelEvery: cancelEvery ?? (faults ? 9 : 50), timeout: timeout)
        // Warm-up on a transport of its own, shut down before the baseline: the runtime's threads, SwiftNIO's event
        // loops, libcurl and the thread pools exist from here on, and are not what the soak looks for.
        let warmUp = try OwnedTransport(transport, connections: connections)
        let warmUpApi = SoakApi(transport: warmUp.transport, baseURL: url)
        let trust = try caFile.map(Self.trust(issuedBy:))
        if let trust { warmUpApi.serverTrust = trust }
        for index in 0..<2_000 { try await warmUpApi.warmUp(index: index, faults: faults) }
        try await warmUp.shutdown()
        // The soak's sleeps (before a cancellation, after the shutdown) make libdispatch open a timerfd for the clock on
        // first use: opened here, it is not counted as a descriptor the calls left open.
        try await Task.sleep(for: .milliseconds(1))
        let before = ProcessFigures.now()
        let loadBefore = ProcessFigures.loadAverage()

        let owned = try OwnedTransport(transport, connections: connections)
        let api = SoakApi(transport: owned.transport, baseURL: url)
        api.timeout = faults ? timeout : nil
        if let trust { api.serverTrust = trust }
        let clock = ContinuousClock()
        let start = clock.now
        let deadline = start + .milliseconds(Int(seconds * 1000))
        let (tasks, calls) = (self.tasks, self.calls)
        let outcomes = try await withThrowingTaskGroup(of: Outcomes.self) { group in
            for worker in 0..<tasks {
                group.addTask {
                    var outcomes = Outcomes()
                    var call = worker
                    while call < calls && clock.now < deadline {
                        await outcomes.record(call: call, plan: plan, on: api)
                        call += tasks
                    }
                    return outcomes
                }
            }
            var all = Outcomes()
            for try await outcomes in group { all.merge(outcomes) }
            return all
        }
        let elapsed = (clock.now - start) / .seconds(1)
        let loadAfter = ProcessFigures.loadAverage()
        let busy = ProcessFigures.now()
        try await owned.shutdown()
        // Closed descriptors are given back at once; memory the allocator keeps is given back slowly, if at all.
        try await Task.sleep(for: .seconds(1))
        let after = ProcessFigures.now()

        var failed = false
        if let postedIds {
            let lines = outcomes.postedIds.sorted().map(String.init).joined(separator: "\n")
            try Data((lines + "\n").utf8).write(to: URL(fileURLWithPath: postedIds))
        }
        print(
            "\(transport.rawValue) against \(faults ? "the fault server" : "nginx"): \(outcomes.total) calls from \(tasks) tasks in "
                + "\(String(format: "%.1f", elapsed)) s (\(Int(Double(outcomes.total) / elapsed)) calls/s)")
        print("load average (1, 5, 15 min): \(loadBefore) before, \(loadAfter) at the end of the calls")
        print("cancellations asked for: \(outcomes.cancelAsked)")
        for (label, count) in outcomes.kinds.sorted(by: { $0.key < $1.key }) { print("  \(label): \(count)") }
        for (label, count) in outcomes.wrong.sorted(by: { $0.key < $1.key }) { print("WRONG \(label): \(count)") }
        for (kind, seconds) in outcomes.slowest.sorted(by: { $0.key < $1.key }) {
            print("slowest \(kind): \(String(format: "%.3f", seconds)) s")
        }
        print("open files: \(before.files) before, \(busy.files) at the end of the calls, \(after.files) after shutdown")
        print(
            "resident memory: \(before.residentMiB) MiB before, \(busy.residentMiB) MiB at the end of the calls, "
                + "\(after.residentMiB) MiB after shutdown")
        if after.files > before.files {
            let added = after.descriptors.filter { before.descriptors[$0.key] != $0.value }.map { "\($0.key) → \($0.value)" }
            print("FAIL: \(after.files - before.files) descriptors more than before: \(added.sorted().joined(separator: ", "))")
            failed = true
        }
        if !outcomes.wrong.isEmpty {
            print("FAIL: \(outcomes.wrong.values.reduce(0, +)) calls ended wrongly for what the server did")
            failed = true
        }
        if let server {
            let stats = try await server.stats()
            let missing = Set(outcomes.postedIds).subtracting(stats.ids)
            print(
                "fault server: \(stats.ids.count) POST ids of the soak received, \(stats.twice.count) received twice, "
                    + "\(missing.count) answered POSTs it never saw")
            if !stats.twice.isEmpty || !missing.isEmpty {
                print(
                    "FAIL: POST ids received twice: \(stats.twice.prefix(20)), "
                        + "answered but never received: \(missing.sorted().prefix(20))")
                failed = true
            }
            server.stop()
        }
        if failed { throw ExitCode.failure }
    }
}

/// What each call does and what it must end with.
struct Plan: Sendable {
    var faults: Bool
    var cancelEvery: Int
    var timeout: Double

    /// Call `call`'s fault: every other call is a POST with an id of its own; the kinds go round in turn for each.
    func kind(of call: Int) -> FaultKind? {
        faults ? FaultKind.allCases[(call / 2) % FaultKind.allCases.count] : nil
    }
}

/// A transport and how to shut it down, as an app would own it.
struct OwnedTransport: Sendable {
    let transport: any HttpTransport
    let shutdown: @Sendable () async throws -> Void

    /// Makes a transport of `kind`; `connections` per host when given (else the transport's default), so that calls
    /// do not wait behind stalled ones for a connection and time out for that.
    init(_ kind: Soak.Transport, connections: Int?) throws {
        switch kind {
        case .urlsession:
            // An app's own session, as configured by default.
            let configuration = URLSessionConfiguration.default
            if let connections { configuration.httpMaximumConnectionsPerHost = connections }
            let session = URLSession(configuration: configuration)
            transport = URLSessionTransport(session: session)
            shutdown = { session.invalidateAndCancel() }
        case .asynchttpclient:
            var configuration = HTTPClient.Configuration(redirectConfiguration: .disallow)
            configuration.connectionPool.retryConnectionEstablishment = false
            if let connections {
                configuration.connectionPool = .init(idleTimeout: .seconds(60), concurrentHTTP1ConnectionsPerHostSoftLimit: connections)
            }
            let client = HTTPClient(eventLoopGroup: HTTPClient.defaultEventLoopGroup, configuration: configuration)
            transport = try AsyncHTTPClientTransport(client: client)
            shutdown = { try await client.shutdown() }
        case .nio:
            let nio = connections.map { NIOTransport(.init(connectionsPerOrigin: $0)) } ?? NIOTransport()
            transport = nio
            shutdown = { try await nio.shutdown() }
        }
    }
}

/// How the calls of one task ended.
struct Outcomes: Sendable {
    var total = 0
    var cancelAsked = 0
    var postedIds: [Int] = []
    /// By "kind (method[, cancelled]): outcome".
    var kinds: [String: Int] = [:]
    /// The outcomes that are wrong for what the server did, labelled as ``kinds``.
    var wrong: [String: Int] = [:]
    /// The longest call of each kind, in seconds.
    var slowest: [String: Double] = [:]

    /// Makes call number `call` as `plan` says, cancelling it after a short random delay every `cancelEvery` calls,
    /// and records how it ended and whether that is right.
    mutating func record(call: Int, plan: Plan, on api: SoakApi) async {
        let isPost = call.isMultiple(of: 2)
        let cancels = call.isMultiple(of: plan.cancelEvery)
        let kind = plan.kind(of: call)
        let clock = ContinuousClock()
        let start = clock.now
        let work = Task<Int, any Error> {
            switch (kind, isPost) {
            case (nil, true): return try await api.post(SoakPost(id: call, note: SoakNote())).ok ? call : -1
            case (nil, false): return try await api.catalog().items.count == 12 ? call : -1  // nginx serves E2EPayload.sample
            case (let kind?, true): return try await api.faultPost(FaultPost(id: call, kind: kind.rawValue, note: SoakNote())).id
            case (let kind?, false): return try await api.fault(FaultQuery(id: call, kind: kind.rawValue)).id
            }
        }
        if cancels {
            cancelAsked += 1
            try? await Task.sleep(for: .microseconds(Int.random(in: 0...(plan.faults ? 2_000 : 400))))
            work.cancel()
        }
        let ended: String
        let right: Bool
        let mustFail = kind == .cut || kind == .reset || kind == .stall
        do {
            let id = try await work.value
            if id == call {
                ended = "answered"
                right = !mustFail
                if isPost { postedIds.append(call) }
            } else {
                ended = "answered with another call's body"
                right = false
            }
        } catch is CancellationError {
            ended = "CancellationError"
            right = cancels
        } catch let error as TransportError {
            if error.underlyingError is CancellationError {
                ended = "TransportError(CancellationError)"
                right = cancels
            } else if let code = error.code {
                ended = "URLError \(code.name)"
                switch kind {
                case .cut?, .reset?: right = code == .networkConnectionLost
                case .stall?:
                    let seconds = (clock.now - start) / .seconds(1)
                    right = code == .timedOut && seconds >= plan.timeout * 0.9 && seconds <= plan.timeout + 1
                default: right = false
                }
            } else {
                ended = "TransportError \(error.underlyingError)"
                right = false
            }
        } catch {
            ended = "\(type(of: error)) \(error)"
            right = false
        }
        let seconds = (clock.now - start) / .seconds(1)
        let label = "\(kind?.rawValue ?? "nginx") \(isPost ? "POST" : "GET")\(cancels ? " cancelled" : ""): \(ended)"
        total += 1
        kinds[label, default: 0] += 1
        if !right { wrong[label, default: 0] += 1 }
        let slowKey = "\(kind?.rawValue ?? "nginx")\(cancels ? " cancelled" : "")"
        slowest[slowKey] = max(slowest[slowKey] ?? 0, seconds)
    }

    mutating func merge(_ other: Outcomes) {
        total += other.total
        cancelAsked += other.cancelAsked
        postedIds += other.postedIds
        kinds.merge(other.kinds, uniquingKeysWith: +)
        wrong.merge(other.wrong, uniquingKeysWith: +)
        slowest.merge(other.slowest) { Swift.max($0, $1) }
    }
}

extension URLError.Code {
    /// The code's name where the soak expects to meet it, else its number.
    var name: String {
        switch self {
        case .timedOut: "timedOut"
        case .networkConnectionLost: "networkConnectionLost"
        case .cannotConnectToHost: "cannotConnectToHost"
        case .cancelled: "cancelled"
        case .badServerResponse: "badServerResponse"
        case .cannotParseResponse: "cannotParseResponse"
        case .notConnectedToInternet: "notConnectedToInternet"
        default: "\(rawValue)"
        }
    }
}

/// The fault server, in a process of its own: this program again, with `--serve-faults`.
// @unchecked Sendable: made, asked and stopped by the soak's one task.
final class FaultServerProcess: @unchecked Sendable {
    let baseURL: URL
    private let process: Process
    private let input: Pipe

    private init(baseURL: URL, process: Process, input: Pipe) {
        self.baseURL = baseURL
        self.process = process
        self.input = input
    }

    static func start() throws -> FaultServerProcess {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: CommandLine.arguments[0])
        process.arguments = ["--serve-faults"]
        let input = Pipe()
        let output = Pipe()
        process.standardInput = input
        process.standardOutput = output
        try process.run()
        var line = Data()
        while !line.contains(UInt8(ascii: "\n")) {
            let more = output.fileHandleForReading.availableData
            if more.isEmpty { throw ValidationError("the fault server did not start") }
            line += more
        }
        let text = String(decoding: line, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        let port = text.split(separator: " ").last.flatMap { Int($0) } ?? 0
        return FaultServerProcess(baseURL: URL(string: "http://127.0.0.1:\(port)")!, process: process, input: input)
    }

    /// The POST ids the server received, on a transport of its own (after the figures are taken).
    func stats() async throws -> (ids: Set<Int>, twice: [Int]) {
        let transport = NIOTransport()
        let stats: FaultStats
        do {
            stats = try await SoakApi(transport: transport, baseURL: baseURL).stats()
        } catch {
            try await transport.shutdown()
            throw error
        }
        try await transport.shutdown()
        return (Set(stats.ids.filter { $0 >= 0 }), stats.twice.filter { $0 >= 0 })
    }

    /// Closes the server's standard input, which ends it.
    func stop() {
        try? input.fileHandleForWriting.close()
        process.waitUntilExit()
    }
}

/// Open descriptors and resident memory of this process, from /proc.
struct ProcessFigures {
    var files: Int
    var residentMiB: Int
    /// What each open descriptor is (`socket:[…]`, `anon_inode:[eventfd]`, a path), by number: a leak names itself.
    var descriptors: [String: String]

    static func now() -> ProcessFigures {
        let numbers = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd")) ?? []
        var descriptors: [String: String] = [:]
        for number in numbers {
            descriptors[number] = (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/fd/" + number)) ?? "?"
        }
        let files = numbers.isEmpty ? -1 : numbers.count
        let status = (try? String(contentsOfFile: "/proc/self/status", encoding: .utf8)) ?? ""
        let resident =
            status.split(separator: "\n").first { $0.hasPrefix("VmRSS:") }
            .flatMap { $0.split(separator: " ").dropFirst().first.flatMap { Int($0) } } ?? -1
        return ProcessFigures(files: files, residentMiB: resident / 1024, descriptors: descriptors)
    }

    /// The machine's load averages over 1, 5 and 15 minutes, from /proc/loadavg.
    static func loadAverage() -> String {
        let text = (try? String(contentsOfFile: "/proc/loadavg", encoding: .utf8)) ?? "?"
        return text.split(separator: " ").prefix(3).joined(separator: " ")
    }
}

struct SoakNote: Codable, Sendable {
    var text = "a POST the server must see once"
}

struct SoakPost {
    @Query("id") var id: Int = 0
    @JsonBody var note: SoakNote

    init(id: Int, note: SoakNote) {
        self.id = id
        self.note = note
    }
}

struct FaultQuery {
    @Query("id") var id: Int = 0
    @Query("kind") var kind: String = ""

    init(id: Int, kind: String) {
        self.id = id
        self.kind = kind
    }
}

struct FaultPost {
    @Query("id") var id: Int = 0
    @Query("kind") var kind: String = ""
    @JsonBody var note: SoakNote

    init(id: Int, kind: String, note: SoakNote) {
        self.id = id
        self.kind = kind
        self.note = note
    }
}

struct SoakAck: Codable, Sendable {
    var ok: Bool
}

struct SoakDocument: Codable, Sendable {
    var items: [SoakItem]
}

/// The fault server's answer: the call's id, and the items of a GET.
struct FaultAnswer: Codable, Sendable {
    var id: Int
    var items: [SoakItem]
}

struct FaultStats: Codable, Sendable {
    var ids: [Int]
    var twice: [Int]
}

struct SoakItem: Codable, Sendable {
    var id: Int
    var name: String
}

// @unchecked Sendable: as every RetroSwift domain, its endpoints are set up once when it is made and only read after.
final class SoakApi: ApiDomain, @unchecked Sendable {
    @Get("/catalog") var catalog: () async throws -> SoakDocument
    @Post("/catalog") var post: (SoakPost) async throws -> SoakAck
    @Get("/fault") var fault: (FaultQuery) async throws -> FaultAnswer
    @Post("/fault") var faultPost: (FaultPost) async throws -> FaultAnswer
    @Get("/stats") var stats: () async throws -> FaultStats
    @Get("/large") var download: (LargeDownload) async throws -> Data
    @Post("/large") var upload: (LargeUpload) async throws -> Empty

    /// A warm-up call (negative ids, which the checks leave out): a POST to nginx, or an answered fault-server call.
    func warmUp(index: Int, faults: Bool) async throws {
        if faults {
            _ = try await faultPost(FaultPost(id: -1 - index, kind: FaultKind.ok.rawValue, note: SoakNote()))
        } else {
            _ = try await post(SoakPost(id: -1 - index, note: SoakNote()))
        }
    }
}
