import Foundation
import NIOConcurrencyHelpers
import NIOCore
import NIOHTTP1
import NIOPosix

/// What the fault server does to one call, chosen by the call (`?kind=`), so that the soak knows what it must see.
enum FaultKind: String, CaseIterable, Sendable {
    /// Answers at once.
    case ok
    /// Sends the head and half the body it announced, then closes: the call must fail, never succeed truncated.
    case cut
    /// Reads the whole request, then resets the connection (SO_LINGER 0): the call must fail, and a POST not be resent.
    case reset
    /// Reads the request and never answers: the call must time out, within its timeout + 1 s.
    case stall
    /// Answers with the body in 64-byte pieces 1 ms apart.
    case dribble
    /// Answers with the head in 5-byte pieces 1 ms apart.
    case fragmentedHead = "fragmented-head"
    /// Sends a 103 Early Hints first, then the answer 1 ms later.
    case earlyHints = "early-hints"
}

/// The POST ids the fault server received, so that the soak can check none was sent twice.
final class PostLedger: Sendable {
    private let state = NIOLockedValueBox<(seen: Set<Int>, twice: [Int])>((seen: [], twice: []))

    func record(_ id: Int) {
        state.withLockedValue { state in
            if !state.seen.insert(id).inserted { state.twice.append(id) }
        }
    }

    /// `{"ids": [...], "twice": [...]}`: every id received, and those received more than once.
    var report: Data {
        let (seen, twice) = state.withLockedValue { ($0.seen.sorted(), $0.twice.sorted()) }
        return (try? JSONSerialization.data(withJSONObject: ["ids": seen, "twice": twice])) ?? Data()
    }
}

/// The soak's fault-injecting server on 127.0.0.1, run in a process of its own (`soak --serve-faults`) so that its
/// sockets and memory are not counted as the client's: it prints `port N`, serves until its standard input closes
/// (the soak ended, or died), and answers `GET /stats` with the POST ids it received.
enum FaultServer {
    static func serve() async throws -> Never {
        let ledger = PostLedger()
        let channel = try await ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .serverChannelOption(.backlog, value: 512)
            .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
            .childChannelOption(.socketOption(.tcp_nodelay), value: 1)
            .childChannelInitializer { channel in
                channel.eventLoop.makeCompletedFuture {
                    try channel.pipeline.syncOperations.addHandler(ByteToMessageHandler(HTTPRequestDecoder()))
                    try channel.pipeline.syncOperations.addHandler(FaultHandler(ledger: ledger))
                }
            }
            .bind(host: "127.0.0.1", port: 0).get()
        FileHandle.standardOutput.write(Data("port \(channel.localAddress?.port ?? 0)\n".utf8))
        // Blocks this thread, not the event loops that serve.
        while !FileHandle.standardInput.availableData.isEmpty {}
        exit(0)
    }

    /// The body of the answer to call `id`: about 1 KB for a GET, as nginx's document, and the id, so that the soak
    /// sees an answer was meant for its call.
    static func body(id: Int, isPost: Bool) -> Data {
        Data(#"{"id":\#(id),"items":\#(isPost ? "[]" : items)}"#.utf8)
    }

    private static let items =
        "[" + (0..<24).map { #"{"id":\#($0),"name":"item number \#($0) of the soak"}"# }.joined(separator: ",") + "]"
}

/// Answers each request as its kind says.
private final class FaultHandler: ChannelInboundHandler {
    typealias InboundIn = HTTPServerRequestPart
    typealias OutboundOut = ByteBuffer

    private let ledger: PostLedger
    private var head: HTTPRequestHead?

    init(ledger: PostLedger) { self.ledger = ledger }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        switch unwrapInboundIn(data) {
        case .head(let head): self.head = head
        case .body: break
        case .end:
            guard let head else { return }
            self.head = nil
            answer(head, context: context)
        }
    }

    private func answer(_ head: HTTPRequestHead, context: ChannelHandlerContext) {
        let parts = head.uri.split(separator: "?", maxSplits: 1)
        var query: [Substring: Substring] = [:]
        for item in parts.dropFirst().first?.split(separator: "&") ?? [] {
            let pair = item.split(separator: "=", maxSplits: 1)
            if pair.count == 2 { query[pair[0]] = pair[1] }
        }
        if parts.first == "/stats" {
            let body = ledger.report
            send([Self.statusLine(length: body.count) + body], gap: 0, close: false, context: context)
            return
        }
        if parts.first == "/large" {
            // The latency benchmark's load: a GET answers `bytes` bytes, a POST (whose body was read and dropped) `{}`.
            let body = head.method == .GET ? Data(repeating: 0x61, count: query["bytes"].flatMap { Int($0) } ?? 0) : Data("{}".utf8)
            send([Self.statusLine(length: body.count) + body], gap: 0, close: false, context: context)
            return
        }
        let id = query["id"].flatMap { Int($0) } ?? -1
        let kind = query["kind"].flatMap { FaultKind(rawValue: String($0)) } ?? .ok
        if head.method == .POST { ledger.record(id) }
        let body = FaultServer.body(id: id, isPost: head.method == .POST)
        let responseHead = Self.statusLine(length: body.count)
        switch kind {
        case .ok:
            send([responseHead + body], gap: 0, close: false, context: context)
        case .cut:
            send([responseHead + body.prefix(body.count / 2)], gap: 0, close: true, context: context)
        case .reset:
            // SO_LINGER 0: the close sends RST instead of FIN, and drops what was not yet sent.
            let bound = NIOLoopBound(context, eventLoop: context.eventLoop)
            if let provider = context.channel as? any SocketOptionProvider {
                provider.setSoLinger(linger(l_onoff: 1, l_linger: 0)).whenComplete { _ in bound.value.close(promise: nil) }
            } else {
                context.close(promise: nil)
            }
        case .stall:
            break
        case .dribble:
            let pieces = stride(from: 0, to: body.count, by: 64).map { body[$0..<min($0 + 64, body.count)] }
            send([responseHead] + pieces, gap: 1, close: false, context: context)
        case .fragmentedHead:
            let pieces = stride(from: 0, to: responseHead.count, by: 5).map {
                responseHead[$0..<min($0 + 5, responseHead.count)]
            }
            send(pieces + [body], gap: 1, close: false, context: context)
        case .earlyHints:
            let hints = Data("HTTP/1.1 103 Early Hints\r\nLink: </style.css>; rel=preload; as=style\r\n\r\n".utf8)
            send([hints, responseHead + body], gap: 1, close: false, context: context)
        }
    }

    private static func statusLine(length: Int) -> Data {
        Data("HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: \(length)\r\n\r\n".utf8)
    }

    /// Writes `pieces` in order, each flushed on its own `gap` ms after the one before, then closes if asked.
    private func send(_ pieces: [Data], gap: Int64, close: Bool, context: ChannelHandlerContext) {
        guard let first = pieces.first else { return }
        let written = context.writeAndFlush(wrapOutboundOut(ByteBuffer(bytes: first)))
        let rest = Array(pieces.dropFirst())
        let bound = NIOLoopBound((self, context), eventLoop: context.eventLoop)
        guard !rest.isEmpty else {
            if close { written.whenComplete { _ in bound.value.1.close(promise: nil) } }
            return
        }
        context.eventLoop.scheduleTask(in: .milliseconds(gap)) {
            let (handler, context) = bound.value
            guard context.channel.isActive else { return }
            handler.send(rest, gap: gap, close: close, context: context)
        }
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        context.close(promise: nil)
    }
}
