import BenchmarkSupport
import Foundation
import RetroSwift

// Runs one side of a section 1 or 2 comparison in a plain loop, for profilers: `profile.sh` runs it under
// callgrind at two iteration counts and divides the difference. Usage: call-loop <mode> <iterations>, where mode
// is hand, retroswift, bare-1k, retroswift-1k, converter-1k, plist-hand, plist-retroswift, protobuf-hand,
// protobuf-retroswift, sse-hand, sse-retroswift,
// jsonl-hand, jsonl-retroswift or e2e-<client>-<get|post>
// (client: raw-urlsession, urlsession, raw-ahc, ahc or nio; see endToEnd). With ON_EVENT_LOOP=1 the e2e calls run
// inside NIOTransport.withCallsOnEventLoop, whatever the client.
//
// A synchronous main that waits for a detached task: valgrind crashes on an `async` main on Linux, where the main
// thread parks in libdispatch.

let arguments = CommandLine.arguments
guard arguments.count == 3, let iterations = Int(arguments[2]), let run = CallLoop.loop(named: arguments[1]) else {
    let modes =
        "hand|retroswift|bare-1k|retroswift-1k|converter-1k|plist-hand|plist-retroswift|protobuf-hand|protobuf-retroswift"
        + "|sse-hand|sse-retroswift|jsonl-hand"
        + "|jsonl-retroswift|e2e-<client>-<get|post>"
    FileHandle.standardError.write(Data("usage: call-loop \(modes) <iterations>\n".utf8))
    exit(2)
}
let finished = DispatchSemaphore(value: 0)
Task.detached {
    do {
        try await run(20)  // warm-up: the plan, metadata and conformance caches
        try await run(iterations)
    } catch {
        FileHandle.standardError.write(Data("call-loop: \(error)\n".utf8))
        exit(1)
    }
    finished.signal()
}
finished.wait()
exit(0)

enum CallLoop {
    static func loop(named name: String) -> (@Sendable (Int) async throws -> Void)? {
        let entry = Entry(title: "Quarterly review", priority: 2, tags: ["q3", "review"])
        let body = Catalog.json(items: 12)
        switch name {
        case "hand":
            let encoder = JSONEncoder()
            encoder.dateEncodingStrategy = .millisecondsSince1970
            return { count in
                for _ in 0..<count {
                    keep(
                        try HandWritten.updateEntry(
                            teamId: "team alpha", entryId: 42, page: 3, sort: "-created at", accountId: "acc_1", entry: entry,
                            encoder: encoder
                        ))
                }
            }
        case "retroswift":
            let api = BenchmarkApi(transport: InProcessTransport())
            return { count in
                let request = UpdateEntryRequest(
                    teamId: "team alpha", entryId: 42, page: 3, sortOrder: "-created at", accountId: "acc_1", entry: entry
                )
                for _ in 0..<count { keep(try await api.updateEntry(request)) }
            }
        case "bare-1k":
            return { count in
                for _ in 0..<count { keep(try JSONDecoder().decode(Catalog.self, from: body)) }
            }
        case "retroswift-1k":
            let api = BenchmarkApi(
                transport: CannedTransport(
                    response: HttpOperationResult(
                        statusCode: 200, headers: ["Content-Type": "application/json"], body: body
                    )))
            return { count in
                for _ in 0..<count { keep(try await api.catalog()) }
            }
        case "converter-1k":
            // The same body through a JSONConverter the domain sets, with a decoder of its own: what a domain whose
            // format is chosen costs beside bare-1k's decoder used by hand.
            let api = BenchmarkApi(
                transport: CannedTransport(
                    response: HttpOperationResult(statusCode: 200, headers: ["Content-Type": "application/json"], body: body)))
            api.converter = JSONConverter(decoder: JSONDecoder())
            return { count in
                for _ in 0..<count { keep(try await api.catalog()) }
            }
        case "plist-hand":
            let plist = Catalog.propertyList(items: 12)
            return { count in
                for _ in 0..<count { keep(try PropertyListDecoder().decode(Catalog.self, from: plist)) }
            }
        case "plist-retroswift":
            let api = BenchmarkApi(
                transport: CannedTransport(
                    response: HttpOperationResult(
                        statusCode: 200, headers: ["Content-Type": "application/x-plist"], body: Catalog.propertyList(items: 12))))
            api.converter = PropertyListConverter()
            return { count in
                for _ in 0..<count { keep(try await api.catalog()) }
            }
        case "protobuf-hand":
            return { count in
                for _ in 0..<count { try ProtobufFixture.decodeByHand() }
            }
        case "protobuf-retroswift":
            let call = ProtobufFixture.retroSwiftCall()
            return { count in
                for _ in 0..<count { try await call() }
            }
        case "sse-hand":
            // Section 6's streams without the network: one 64 KiB block a call, parsed by hand.
            return handParsed(HandWrittenEventParser.self, StreamingFixture.block)
        case "sse-retroswift":
            let context = context(template: "/events")
            return parsed(StreamingFixture.block) { ServerSentEvents<Tick>(body: HTTPBodyStream($0), context: context) }
        case "jsonl-hand":
            // The same events as JSON Lines.
            return handParsed(HandWrittenLineParser.self, StreamingFixture.lines)
        case "jsonl-retroswift":
            let context = context(template: "/lines")
            return parsed(StreamingFixture.lines) { JSONLines<Tick>(body: HTTPBodyStream($0), context: context) }
        default:
            return endToEnd(named: name)
        }
    }

    /// Parses `fixture`'s block by hand, once a call, checking the count.
    static func handParsed<Parser: HandWrittenStreamParser>(
        _: Parser.Type, _ block: (Data, Int)
    ) -> @Sendable (Int) async throws -> Void {
        let fixture = (bytes: block.0, count: block.1)
        return { count in
            for _ in 0..<count {
                var parser = Parser()
                try parser.feed(fixture.bytes)
                guard parser.elements == fixture.count else { throw CocoaError(.coderReadCorrupt) }
            }
        }
    }

    /// Reads `fixture`'s block through the sequence `read` makes of it, once a call, checking the count.
    static func parsed<Elements: AsyncSequence & Sendable>(
        _ block: (Data, Int), _ read: @escaping @Sendable (Data) -> Elements
    ) -> @Sendable (Int) async throws -> Void {
        let fixture = (bytes: block.0, count: block.1)
        return { count in
            for _ in 0..<count {
                var elements = 0
                for try await element in read(fixture.bytes) {
                    keep(element)
                    elements += 1
                }
                guard elements == fixture.count else { throw CocoaError(.coderReadCorrupt) }
            }
        }
    }

    /// The decoding context of a stream benchmarked without the network.
    static func context(template: String) -> ResponseDecodingContext {
        ResponseDecodingContext(
            decoder: JSONDecoder(), endpoint: EndpointIdentity(domain: "Bench", name: "stream", method: .get, template: template))
    }

    /// `e2e-<client>-<get|post|bytes>`, client one of raw-urlsession, urlsession, raw-ahc, ahc, nio: section 3's calls against
    /// `e2e-ratios --serve` (or nginx) at `$RETROSWIFT_BENCH_URL`, so that a profiler sees the client's side of a call.
    static func endToEnd(named name: String) -> (@Sendable (Int) async throws -> Void)? {
        let parts = name.split(separator: "-", maxSplits: 1)
        guard parts.count == 2, parts[0] == "e2e", let dash = parts[1].lastIndex(of: "-"),
            let client = E2EClient(shortName: parts[1][..<dash]),
            let operation = E2EOperation(rawValue: parts[1][parts[1].index(after: dash)...].uppercased()),
            let url = ProcessInfo.processInfo.environment["RETROSWIFT_BENCH_URL"].flatMap(URL.init(string:))
        else { return nil }
        let harness = E2EHarness(baseURL: url)
        if ProcessInfo.processInfo.environment["ON_EVENT_LOOP"] == "1" {
            // The calls one after another on NIOTransport's event loop (NIOTransport.withCallsOnEventLoop).
            return { count in
                try await harness.nioTransport.withCallsOnEventLoop {
                    for _ in 0..<count { try await harness.call(operation, with: client) }
                }
            }
        }
        return { count in
            for _ in 0..<count { try await harness.call(operation, with: client) }
        }
    }

    @inline(never)
    static func keep<T>(_ value: T) {
        withExtendedLifetime(value) {}
    }
}
