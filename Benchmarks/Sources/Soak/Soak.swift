import ArgumentParser
import Foundation
import RetroSwift
import RetroSwiftNIO

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Issue 41's soak of NIOTransport: many calls from many tasks against a server that closes connections under the
/// pool (nginx with a low `keepalive_requests`, as `soak.sh` starts it), some cancelled mid-flight. It counts how each
/// call ended, prints the ids of the POSTs that succeeded (so `soak.sh` can check the server saw each exactly once),
/// and compares open file descriptors and resident memory before and after. Exits non-zero when a call ended in an
/// error nobody could act on, or when descriptors leaked.
@main
struct Soak: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "soak", abstract: "NIOTransport under load, closed connections and cancellations; see soak.sh.")

    @Option(help: "The server's base URL: GET /catalog answers the document, POST /catalog {\"ok\":true}.")
    var baseURL: String

    @Option(help: "Calls in all.")
    var calls = 300_000

    @Option(help: "Concurrent tasks.")
    var tasks = 64

    @Option(help: "Every n-th call is cancelled after a short random delay.")
    var cancelEvery = 50

    @Option(help: "Write the ids of the POSTs that succeeded to this file, one a line.")
    var postedIds: String?

    func run() async throws {
        guard let url = URL(string: baseURL) else { throw ValidationError("--base-url takes a URL") }
        // Warm-up on a transport of its own, shut down before the baseline: the runtime's threads, SwiftNIO's event
        // loops and the thread pool exist from here on, and are not what the soak looks for.
        let warmUp = NIOTransport()
        let warmUpApi = SoakApi(transport: warmUp, baseURL: url)
        for index in 0..<2_000 { _ = try await warmUpApi.post(SoakPost(id: -1 - index, note: SoakNote())) }
        try await warmUp.shutdown()
        // The soak's sleeps (before a cancellation, after the shutdown) make libdispatch open a timerfd for the clock on
        // first use: opened here, it is not counted as a descriptor the calls left open.
        try await Task.sleep(for: .milliseconds(1))
        let before = ProcessFigures.now()

        let transport = NIOTransport()
        let api = SoakApi(transport: transport, baseURL: url)
        let clock = ContinuousClock()
        let start = clock.now
        let outcomes = try await withThrowingTaskGroup(of: Outcomes.self) { group in
            for worker in 0..<tasks {
                group.addTask {
                    var outcomes = Outcomes()
                    var call = worker
                    while call < calls {
                        await outcomes.record(call: call, of: self, on: api)
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
        let busy = ProcessFigures.now()
        try await transport.shutdown()
        // Closed descriptors are given back at once; memory the allocator keeps is given back slowly, if at all.
        try await Task.sleep(for: .seconds(1))
        let after = ProcessFigures.now()

        if let postedIds {
            let lines = outcomes.postedIds.sorted().map(String.init).joined(separator: "\n")
            try Data((lines + "\n").utf8).write(to: URL(fileURLWithPath: postedIds))
        }
        print("calls: \(calls) from \(tasks) tasks in \(String(format: "%.1f", elapsed)) s (\(Int(Double(calls) / elapsed)) calls/s)")
        print("answered: \(outcomes.answered) (GET \(outcomes.answered - outcomes.postedIds.count), POST \(outcomes.postedIds.count))")
        print(
            "cancelled: \(outcomes.cancelled) (asked for: \(outcomes.cancelAsked); answered before the cancellation landed: \(outcomes.cancelAsked - outcomes.cancelled))"
        )
        for (code, count) in outcomes.transportErrors.sorted(by: { $0.key < $1.key }) { print("transport error \(code): \(count)") }
        for (error, count) in outcomes.unclear.sorted(by: { $0.key < $1.key }) { print("UNCLEAR \(error): \(count)") }
        print("open files: \(before.files) before, \(busy.files) at the end of the calls, \(after.files) after shutdown")
        print(
            "resident memory: \(before.residentMiB) MiB before, \(busy.residentMiB) MiB at the end of the calls, "
                + "\(after.residentMiB) MiB after shutdown")
        let leaked = after.files > before.files
        if leaked {
            let added = after.descriptors.filter { before.descriptors[$0.key] != $0.value }.map { "\($0.key) → \($0.value)" }
            print("FAIL: \(after.files - before.files) descriptors more than before: \(added.sorted().joined(separator: ", "))")
        }
        if !outcomes.unclear.isEmpty { print("FAIL: calls ended with errors that say nothing a caller can act on") }
        if leaked || !outcomes.unclear.isEmpty { throw ExitCode.failure }
    }
}

/// How the calls of one task ended.
struct Outcomes: Sendable {
    var answered = 0
    var cancelled = 0
    var cancelAsked = 0
    var postedIds: [Int] = []
    /// `TransportError`s by `URLError` code: the server closed a connection mid-call, a timeout.
    var transportErrors: [String: Int] = [:]
    /// Anything else, by its description: none expected.
    var unclear: [String: Int] = [:]

    /// Makes call number `call` (a POST with a unique id every other call, else a GET), cancelling it after a short
    /// random delay every `cancelEvery` calls, and records how it ended.
    mutating func record(call: Int, of soak: Soak, on api: SoakApi) async {
        let isPost = call.isMultiple(of: 2)
        let cancels = call.isMultiple(of: soak.cancelEvery)
        let work = Task<Void, any Error> {
            if isPost {
                _ = try await api.post(SoakPost(id: call, note: SoakNote()))
            } else {
                _ = try await api.catalog()
            }
        }
        if cancels {
            cancelAsked += 1
            try? await Task.sleep(for: .microseconds(Int.random(in: 0...400)))
            work.cancel()
        }
        do {
            try await work.value
            answered += 1
            if isPost { postedIds.append(call) }
        } catch is CancellationError {
            cancelled += 1
        } catch let error as TransportError {
            if error.underlyingError is CancellationError {
                cancelled += 1
            } else if let code = error.code {
                transportErrors["\(code.rawValue) (\(error.underlyingError))", default: 0] += 1
            } else {
                unclear["\(error)", default: 0] += 1
            }
        } catch {
            unclear["\(error)", default: 0] += 1
        }
    }

    mutating func merge(_ other: Outcomes) {
        answered += other.answered
        cancelled += other.cancelled
        cancelAsked += other.cancelAsked
        postedIds += other.postedIds
        transportErrors.merge(other.transportErrors, uniquingKeysWith: +)
        unclear.merge(other.unclear, uniquingKeysWith: +)
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

struct SoakAck: Codable, Sendable {
    var ok: Bool
}

struct SoakDocument: Codable, Sendable {
    var items: [SoakItem]
}

struct SoakItem: Codable, Sendable {
    var id: Int
    var name: String
}

// @unchecked Sendable: as every RetroSwift domain, its endpoints are set up once when it is made and only read after.
final class SoakApi: ApiDomain, @unchecked Sendable {
    @Get("/catalog") var catalog: () async throws -> SoakDocument
    @Post("/catalog") var post: (SoakPost) async throws -> SoakAck
}
