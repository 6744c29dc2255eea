import AsyncHTTPClient
import Foundation
import NIOCore
import RetroSwift
import RetroSwiftAsyncHTTPClient
import RetroSwiftURLSession

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// One Server-Sent Event's data in the streaming benchmarks.
public struct Tick: Decodable, Sendable {
    public var n: Int
    public var text: String
}

/// The streamed body: a 64 KiB block of `data: {...}` events ending on an event boundary, served again and again.
public enum StreamingFixture {
    /// The block, and how many events it holds.
    public static let block: (bytes: Data, events: Int) = filled { "data: \($0)\n\n" }

    /// The same events as JSON Lines: each event's JSON on a line of its own, up to 64 KiB.
    public static let lines: (bytes: Data, lines: Int) = filled { "\($0)\n" }

    /// 64 KiB at most of the events' JSON, each framed by `frame`, and how many fit.
    private static func filled(framing frame: (String) -> String) -> (Data, Int) {
        var text = ""
        var count = 0
        while true {
            let element = frame("{\"n\":\(count),\"text\":\"the quick brown fox jumps over the lazy dog \(count % 97)\"}")
            guard text.utf8.count + element.utf8.count <= 65_536 else { break }
            text += element
            count += 1
        }
        return (Data(text.utf8), count)
    }
}

/// A parser written by hand for one of the stream formats, fed raw chunks.
public protocol HandWrittenStreamParser: SendableMetatype {
    init()
    /// The elements decoded so far.
    var elements: Int { get }
    mutating func feed(_ chunk: some Sequence<UInt8>) throws
}

/// JSON Lines parsed by hand: lines split at LF, each decoded with the same `JSONDecoder`.
public struct HandWrittenLineParser: HandWrittenStreamParser {
    private var pending: [UInt8] = []
    private let decoder = JSONDecoder()
    public private(set) var lines = 0
    public var elements: Int { lines }

    public init() {}

    public mutating func feed(_ chunk: some Sequence<UInt8>) throws {
        pending.append(contentsOf: chunk)
        var start = 0
        for index in pending.indices where pending[index] == 0x0A {
            consume(try decoder.decode(Tick.self, from: Data(pending[start..<index])))
            lines += 1
            start = index + 1
        }
        pending.removeFirst(start)
    }
}

/// The same stream parsed by hand, as careful code reading raw chunks would: events split at the blank line, the
/// `data: ` prefix dropped, the JSON decoded.
public struct HandWrittenEventParser: HandWrittenStreamParser {
    private var pending: [UInt8] = []
    private let decoder = JSONDecoder()
    public private(set) var events = 0
    public var elements: Int { events }

    public init() {}

    public mutating func feed(_ chunk: some Sequence<UInt8>) throws {
        pending.append(contentsOf: chunk)
        var start = 0
        var index = 0
        while index + 1 < pending.count {
            if pending[index] == 0x0A && pending[index + 1] == 0x0A {
                let event = pending[start..<index]
                if event.starts(with: Array("data: ".utf8)) {
                    consume(try decoder.decode(Tick.self, from: Data(event.dropFirst(6))))
                    events += 1
                }
                index += 2
                start = index
            } else {
                index += 1
            }
        }
        pending.removeFirst(start)
    }
}

/// Who reads the stream.
public enum StreamingClient: String, CaseIterable, Sendable {
    case rawURLSession = "raw URLSession data task + hand-written parser (baseline)"
    case retroSwiftURLSession = "ServerSentEvents on URLSessionTransport"
    case rawAsyncHTTPClient = "raw async-http-client + hand-written parser (baseline)"
    case retroSwiftAsyncHTTPClient = "ServerSentEvents on AsyncHTTPClientTransport"
    /// RetroSwift's raw chunks with the hand-written parser: how much of the gap is the body stream, how much parsing.
    case bodyStreamAsyncHTTPClient = "HTTPBodyStream on AsyncHTTPClientTransport + hand-written parser"
    case bodyStreamURLSession = "HTTPBodyStream on URLSessionTransport + hand-written parser"
    /// The same events as JSON Lines, from `/lines`.
    case rawURLSessionLines = "raw URLSession data task + hand-written line parser (baseline)"
    case retroSwiftURLSessionLines = "JSONLines on URLSessionTransport"
    case rawAsyncHTTPClientLines = "raw async-http-client + hand-written line parser (baseline)"
    case retroSwiftAsyncHTTPClientLines = "JSONLines on AsyncHTTPClientTransport"
}

final class StreamingApi: Domain, @unchecked Sendable {
    struct EventsRequest {
        @Query var count: Int = 1
    }

    @Get("/events", timeout: 600) var events: (EventsRequest) async throws -> ServerSentEvents<Tick>
    @Get("/events", timeout: 600) var chunks: (EventsRequest) async throws -> HTTPBodyStream
    @Get("/lines", timeout: 600) var lines: (EventsRequest) async throws -> JSONLines<Tick>
}

/// Streams `blocks` copies of ``StreamingFixture/block`` from the server and counts the events, each way.
public final class StreamingHarness: Sendable {
    let baseURL: URL
    let urlSessionApi: StreamingApi
    let asyncHTTPClientApi: StreamingApi
    let rawSession: RawEventSession<HandWrittenEventParser>
    let rawLineSession: RawEventSession<HandWrittenLineParser>

    public init(baseURL: URL) {
        self.baseURL = baseURL
        let urlSessionTransport = URLSessionTransport(configuration: .ephemeral)
        urlSessionTransport.setConfiguration(baseURL: baseURL, sharedHeaders: nil)
        urlSessionApi = StreamingApi(transport: urlSessionTransport)
        // Cannot throw: the client disallows redirects.
        let asyncHTTPClientTransport = try! AsyncHTTPClientTransport(client: AppHTTPClient.shared)
        asyncHTTPClientTransport.setConfiguration(baseURL: baseURL, sharedHeaders: nil)
        asyncHTTPClientApi = StreamingApi(transport: asyncHTTPClientTransport)
        rawSession = RawEventSession()
        rawLineSession = RawEventSession()
    }

    /// Reads one stream of `blocks` blocks and returns its event count.
    public func read(blocks: Int, with client: StreamingClient) async throws -> Int {
        var count = 0
        switch client {
        case .retroSwiftURLSession:
            for try await tick in try await urlSessionApi.events(.init(count: blocks)) {
                consume(tick)
                count += 1
            }
        case .retroSwiftAsyncHTTPClient:
            for try await tick in try await asyncHTTPClientApi.events(.init(count: blocks)) {
                consume(tick)
                count += 1
            }
        case .bodyStreamAsyncHTTPClient, .bodyStreamURLSession:
            let api = client == .bodyStreamURLSession ? urlSessionApi : asyncHTTPClientApi
            var parser = HandWrittenEventParser()
            for try await chunk in try await api.chunks(.init(count: blocks)) { try parser.feed(chunk) }
            count = parser.events
        case .rawAsyncHTTPClient:
            let response = try await AppHTTPClient.shared.execute(
                HTTPClientRequest(url: baseURL.absoluteString + "/events?count=\(blocks)"), timeout: .seconds(600))
            guard response.status.code == 200 else { throw URLError(.badServerResponse) }
            var parser = HandWrittenEventParser()
            for try await buffer in response.body { try parser.feed(buffer.readableBytesView) }
            count = parser.events
        case .rawURLSession:
            count = try await rawSession.read(URL(string: baseURL.absoluteString + "/events?count=\(blocks)")!)
        case .retroSwiftURLSessionLines, .retroSwiftAsyncHTTPClientLines:
            let api = client == .retroSwiftURLSessionLines ? urlSessionApi : asyncHTTPClientApi
            for try await tick in try await api.lines(.init(count: blocks)) {
                consume(tick)
                count += 1
            }
        case .rawAsyncHTTPClientLines:
            let response = try await AppHTTPClient.shared.execute(
                HTTPClientRequest(url: baseURL.absoluteString + "/lines?count=\(blocks)"), timeout: .seconds(600))
            guard response.status.code == 200 else { throw URLError(.badServerResponse) }
            var parser = HandWrittenLineParser()
            for try await buffer in response.body { try parser.feed(buffer.readableBytesView) }
            count = parser.lines
        case .rawURLSessionLines:
            count = try await rawLineSession.read(URL(string: baseURL.absoluteString + "/lines?count=\(blocks)")!)
        }
        guard count == blocks * client.elementsPerBlock else { throw URLError(.cannotParseResponse) }
        return count
    }
}

extension StreamingClient {
    /// Whether this client reads the JSON Lines stream rather than the Server-Sent Events one.
    var readsLines: Bool {
        switch self {
        case .rawURLSessionLines, .retroSwiftURLSessionLines, .rawAsyncHTTPClientLines, .retroSwiftAsyncHTTPClientLines: true
        default: false
        }
    }

    /// How many elements a block of the stream this client reads holds.
    public var elementsPerBlock: Int {
        readsLines ? StreamingFixture.lines.lines : StreamingFixture.block.events
    }

    /// How many bytes a block of the stream this client reads holds.
    public var bytesPerBlock: Int {
        readsLines ? StreamingFixture.lines.bytes.count : StreamingFixture.block.bytes.count
    }
}

/// A URLSession data task whose delegate parses each piece as it arrives, the lightest way to read a stream with
/// URLSession by hand (swift-corelibs-foundation has no `bytes(for:)`).
final class RawEventSession<Parser: HandWrittenStreamParser>: NSObject, URLSessionDataDelegate, @unchecked Sendable {
    // @unchecked Sendable: `state` is touched only from the session's serial delegate queue while one read runs, and
    // from `read` before the task starts.
    private var parser = Parser()
    private var failure: (any Error)?
    private var continuation: CheckedContinuation<Int, any Error>?
    private lazy var session = URLSession(configuration: .ephemeral, delegate: self, delegateQueue: nil)

    func read(_ url: URL) async throws -> Int {
        try await withCheckedThrowingContinuation { continuation in
            parser = Parser()
            failure = nil
            self.continuation = continuation
            session.dataTask(with: url).resume()
        }
    }

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
        do {
            try parser.feed(data)
        } catch {
            failure = error
            dataTask.cancel()
        }
    }

    func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?) {
        let continuation = self.continuation
        self.continuation = nil
        if let error = failure ?? error { continuation?.resume(throwing: error) } else { continuation?.resume(returning: parser.elements) }
    }
}
