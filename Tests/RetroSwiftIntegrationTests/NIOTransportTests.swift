#if NIO
    import Foundation
    import NIOConcurrencyHelpers
    import NIOCore
    import NIOPosix
    import RetroSwift
    import RetroSwiftTestServer
    import Testing

    @testable import RetroSwiftNIO

    #if canImport(FoundationNetworking)
        import FoundationNetworking
    #endif

    /// What only `NIOTransport` promises, beyond the suites every transport runs: its pool (bounds, idle connections,
    /// the one retry of an idempotent request), reading a stream only as fast as its reader, and its shutdown.
    @Suite("End to end: NIOTransport's own promises", .timeLimit(.minutes(4)))
    struct NIOTransportTests {
        struct Item: Decodable, Equatable {
            var id: String
        }

        struct ItemRequest {
            @Path var id: String
        }

        // @unchecked Sendable: endpoint wrappers only, set up in init and never reassigned.
        final class Api: Domain, @unchecked Sendable {
            @Get("/items/{id}") var item: (ItemRequest) async throws -> Item
            @Get("/items/{id}") var folded: (ItemRequest) async throws -> HTTPResponse<Data>
            @Post("/items/{id}") var create: (ItemRequest) async throws -> Item
            @Get("/bytes", timeout: .infinity) var bytes: () async throws -> HTTPBodyStream
            @Post("/log") var log: (LogRequest) async throws -> Empty
        }

        struct LogRequest {
            @RawBody(contentType: "text/plain") var lines = HTTPRequestBodyStream(length: nil) { AsyncStream<Data> { $0.finish() } }
        }

        static func itemAnswer(_ request: RecordedRequest, ending: RawResponse.Ending = .keepOpen) -> RawResponse {
            let body = Data(#"{"id":"\#(request.pathSegments.last ?? "")"}"#.utf8)
            return .head(
                ["HTTP/1.1 200 OK", "Content-Type: application/json", "Content-Length: \(body.count)"], body: body, ending: ending)
        }

        /// An API on a new transport pointed at `server`.
        static func api(_ transport: NIOTransport, _ server: TestServer) -> Api {
            transport.setConfiguration(baseURL: server.baseURL, sharedHeaders: nil)
            return Api(transport: transport)
        }

        @Test("a GET whose reused connection closes before answering goes once more on a new one; a POST never does")
        func retryOnlyIdempotent() async throws {
            // Given: a server that answers the first request of each connection and closes it at the second, unanswered
            let count = NIOLockedValueBox(0)
            let server = try await TestServer.startHostile { request in
                let number = count.withLockedValue { count in
                    count += 1
                    return count
                }
                // Requests 1 and 3 open a connection; 2 and 4 reuse one.
                return number % 2 == 1 ? Self.itemAnswer(request) : RawResponse(pieces: [], ending: .close)
            }
            try await stopping(server) { _ in
                let api = Self.api(NIOTransport(), server)
                _ = try await api.item(ItemRequest(id: "first"))

                // When
                let retried = try await api.item(ItemRequest(id: "again"))
                let error = await #expect(throws: TransportError.self) { _ = try await api.create(ItemRequest(id: "once")) }

                // Then
                #expect(retried == Item(id: "again"))
                #expect(server.requests.filter { $0.target == "/items/again" }.count == 2)
                #expect(error?.code == .networkConnectionLost)
                #expect(server.requests.filter { $0.target == "/items/once" }.map(\.method) == ["POST"])
            }
        }

        @Test("a connection the server closed while idle is never handed out, so a POST after it succeeds")
        func idleCloseSeen() async throws {
            // Given: a server that closes each connection right after answering, without saying so
            let server = try await TestServer.startHostile { Self.itemAnswer($0, ending: .close) }
            try await stopping(server) { _ in
                let transport = NIOTransport()
                let api = Self.api(transport, server)
                _ = try await api.create(ItemRequest(id: "1"))
                // The close reaches the client while its connection sits idle, and the pool lets the connection go.
                let waited = try await eventually { transport.openConnectionCount == 0 }
                #expect(waited)

                // When
                let second = try await api.create(ItemRequest(id: "2"))

                // Then: a POST is never retried, so the second went out once, on a new connection
                #expect(second == Item(id: "2"))
                #expect(server.requests.map(\.target) == ["/items/1", "/items/2"])
            }
        }

        @Test("an idle connection is closed after the idle timeout")
        func idleTimeout() async throws {
            // Given
            let server = try await TestServer.start { _ in .json(#"{"id":"1"}"#) }
            try await stopping(server) { _ in
                let api = Self.api(NIOTransport(.init(idleConnectionTimeout: .milliseconds(100))), server)
                _ = try await api.item(ItemRequest(id: "1"))

                // When
                let closed = try await eventually { server.openConnectionCount == 0 }

                // Then
                #expect(closed)
            }
        }

        @Test("calls beyond connectionsPerOrigin wait for a connection and are all answered")
        func poolBound() async throws {
            // Given
            let server = try await TestServer.start { _ in
                ScriptedResponse(status: 200, body: Data(#"{"id":"1"}"#.utf8), behavior: .delayed(0.1))
            }
            try await stopping(server) { _ in
                let api = Self.api(NIOTransport(.init(connectionsPerOrigin: 2)), server)

                // When: 8 calls at once
                let answered = try await withThrowingTaskGroup(of: Int.self) { group in
                    for _ in 0..<8 { group.addTask { try await api.item(ItemRequest(id: "1")) == Item(id: "1") ? 1 : 0 } }
                    return try await group.reduce(0, +)
                }

                // Then: never more than two connections open at once, as the server counted them
                #expect(answered == 8)
                #expect(server.requests.count == 8)
                #expect(server.peakOpenConnectionCount <= 2)
            }
        }

        @Test("folded fields of heads that arrive a byte at a time, after a 100, are unfolded on both calls of one connection")
        func obsFoldDripped() async throws {
            // Given: a server answering each request with a 100 and a 200 whose fields are folded, one byte per write, and
            // a body that holds CR LF SP
            let server = try await TestServer.startHostile { request in
                let id = request.pathSegments.last ?? ""
                let body = Data("\(id)\r\n x".utf8)
                let head =
                    "HTTP/1.1 100 Continue\r\nX-Interim: a\r\n b\r\n\r\n"
                    + "HTTP/1.1 200 OK\r\nX-Folded: first\r\n second\r\n\tthird\r\nContent-Type: text/plain\r\n"
                    + "Content-Length: \(body.count)\r\n\r\n"
                let bytes = Data(head.utf8) + body
                return RawResponse(pieces: bytes.map { Data([$0]) })
            }
            try await stopping(server) { _ in
                let api = Self.api(NIOTransport(), server)

                // When
                let first = try await api.folded(ItemRequest(id: "1"))
                let second = try await api.folded(ItemRequest(id: "2"))

                // Then: every byte of each fold became a space; the body was left as it came
                #expect(first.headers["X-Folded"] == "first   second   third")
                #expect(first.body == Data("1\r\n x".utf8))
                #expect(second.headers["X-Folded"] == "first   second   third")
                #expect(second.body == Data("2\r\n x".utf8))
                #expect(server.acceptedConnectionCount == 1)
            }
        }

        @Test("a stream whose reader pauses stops the server at what the socket buffers hold, far below 64 MiB of a 1 GiB body")
        func slowReaderHoldsTheServerBack() async throws {
            // Given: a server writing 1 GiB as fast as the connection takes it, counting what the connection took
            let server = try await EndlessBodyServer.start(byteCount: 1 << 30)
            try await stopping(server) { _ in
                let transport = NIOTransport()
                transport.setConfiguration(baseURL: URL(string: "http://127.0.0.1:\(server.port)")!, sharedHeaders: nil)
                let api = Api(transport: transport)

                // When: the reader takes a first chunk, then pauses for a second
                var iterator = try await api.bytes().makeAsyncIterator()
                var received = try #require(try await iterator.next()).count
                try await Task.sleep(for: .seconds(1))
                let writtenWhilePaused = server.written
                while received < 4 << 20, let chunk = try await iterator.next() { received += chunk.count }

                // Then: without the pause reaching the socket the server would have written hundreds of megabytes
                #expect(writtenWhilePaused < 64 << 20, "the server wrote \(writtenWhilePaused) bytes while the reader paused")
                #expect(received >= 4 << 20)
            }
        }

        @Test("after shutdown, connections are closed and calls fail")
        func shutdown() async throws {
            // Given
            let server = try await TestServer.start { _ in .json(#"{"id":"1"}"#) }
            try await stopping(server) { _ in
                let transport = NIOTransport()
                let api = Self.api(transport, server)
                _ = try await api.item(ItemRequest(id: "1"))

                // When
                try await transport.shutdown()
                let error = await #expect(throws: TransportError.self) { _ = try await api.item(ItemRequest(id: "2")) }
                let closed = try await eventually { server.openConnectionCount == 0 }

                // Then
                #expect(error?.code == .cancelled)
                #expect(closed)
                #expect(server.requests.count == 1)
            }
        }

        @Test("a domain without a base URL, on a transport nobody configured, fails naming the fix and sends nothing")
        func missingBaseURL() async throws {
            // Given: neither the domain nor the transport knows where to send, so RetroSwift hands over the path alone
            let server = try await TestServer.start { _ in .json(#"{"id":"1"}"#) }
            try await stopping(server) { _ in
                let api = Api(transport: NIOTransport())

                // When
                let error = await #expect(throws: RequestError.self) { _ = try await api.item(ItemRequest(id: "1")) }

                // Then
                #expect(error?.kind == .transportNotConfigured)
                #expect(error?.description.contains("setConfiguration(baseURL:sharedHeaders:)") == true)
                #expect(server.requests.isEmpty)
            }
        }

        @Test("a request body stream that brings fewer or more bytes than its length fails the call", arguments: [3, 40])
        func streamLengthMismatch(declared: Int) async throws {
            // Given: a stream of 10 bytes that declares another length
            let server = try await TestServer.start { _ in .json(#"{"id":"1"}"#) }
            try await stopping(server) { _ in
                let api = Self.api(NIOTransport(), server)
                let lines = HTTPRequestBodyStream(length: Int64(declared)) {
                    AsyncStream<Data> { continuation in
                        continuation.yield(Data("01234".utf8))
                        continuation.yield(Data("56789".utf8))
                        continuation.finish()
                    }
                }

                // When
                let error = await #expect(throws: RequestError.self) { _ = try await api.log(LogRequest(lines: lines)) }

                // Then: refused as the caller's mistake, and no whole request reached the server
                #expect(error?.kind == .invalidValue)
                #expect(error?.description.contains("declared \(declared) bytes") == true)
                #expect(server.requests.isEmpty)
            }
        }

        @Test(
            "an absolute URL splits into scheme, host, port, Host field and target without Foundation's parser",
            arguments: [
                ("http://127.0.0.1:8080/a?b=1", false, "127.0.0.1", 8080, "127.0.0.1:8080", "/a?b=1"),
                ("https://example.com/x", true, "example.com", 443, "example.com", "/x"),
                ("https://example.com:443", true, "example.com", 443, "example.com", "/"),
                ("http://[::1]:9/p#frag", false, "::1", 9, "[::1]:9", "/p"),
                ("http://user:pw@host?q", false, "host", 80, "host", "/?q"),
                // Scheme and host compare without case (RFC 3986 §6.2.2.1); the Host field keeps the host as written.
                ("HTTP://LocalHost:8080/A?B", false, "localhost", 8080, "LocalHost:8080", "/A?B"),
                ("hTTpS://[FE80::1]", true, "fe80::1", 443, "[FE80::1]", "/"),
            ])
        func requestTarget(url: String, isTLS: Bool, host: String, port: Int, hostField: String, path: String) throws {
            // When
            let target = try #require(RequestTarget(url))

            // Then
            #expect(target.isTLS == isTLS)
            #expect(target.host == host)
            #expect(target.port == port)
            #expect(target.hostField == hostField)
            #expect(target.path == path)
        }

        @Test(
            "URLs a connection cannot take are refused",
            arguments: ["ftp://host/", "http://:80/", "http://host:99999/", "host/path", "HTTPX://host/", "http://[]:80/"])
        func unusableTarget(url: String) {
            #expect(RequestTarget(url) == nil)
        }
    }

    /// A server that answers any request with a head announcing `byteCount` bytes and then writes them as fast as the
    /// connection takes them, counting the bytes the connection took.
    final class EndlessBodyServer: StoppableServer {
        let port: Int
        private let channel: any Channel
        private let count: NIOLockedValueBox<Int>

        /// The body bytes the connections have taken so far.
        var written: Int { count.withLockedValue { $0 } }

        private init(port: Int, channel: any Channel, count: NIOLockedValueBox<Int>) {
            self.port = port
            self.channel = channel
            self.count = count
        }

        static func start(byteCount: Int) async throws -> EndlessBodyServer {
            let count = NIOLockedValueBox(0)
            let channel = try await ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton)
                .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
                .childChannelInitializer { channel in
                    channel.eventLoop.makeCompletedFuture {
                        try channel.pipeline.syncOperations.addHandler(Writer(byteCount: byteCount, count: count))
                    }
                }
                .bind(host: "127.0.0.1", port: 0).get()
            return EndlessBodyServer(port: channel.localAddress?.port ?? 0, channel: channel, count: count)
        }

        func stop() async {
            try? await channel.close()
        }

        /// Writes the answer while the connection is writable, and goes on when it is again.
        private final class Writer: ChannelInboundHandler {
            typealias InboundIn = ByteBuffer
            typealias OutboundOut = ByteBuffer

            private static let chunk = ByteBuffer(repeating: 7, count: 64 << 10)
            private let count: NIOLockedValueBox<Int>
            private var remaining: Int
            private var started = false

            init(byteCount: Int, count: NIOLockedValueBox<Int>) {
                self.remaining = byteCount
                self.count = count
            }

            func channelRead(context: ChannelHandlerContext, data: NIOAny) {
                guard !started else { return }
                started = true
                let head = "HTTP/1.1 200 OK\r\nContent-Type: application/octet-stream\r\nContent-Length: \(remaining)\r\n\r\n"
                context.write(wrapOutboundOut(ByteBuffer(string: head)), promise: nil)
                writeWhileWritable(context: context)
            }

            func channelWritabilityChanged(context: ChannelHandlerContext) {
                if started { writeWhileWritable(context: context) }
            }

            private func writeWhileWritable(context: ChannelHandlerContext) {
                while remaining > 0, context.channel.isWritable {
                    let size = min(remaining, Self.chunk.readableBytes)
                    remaining -= size
                    let count = count
                    let promise = context.eventLoop.makePromise(of: Void.self)
                    promise.futureResult.whenSuccess { count.withLockedValue { $0 += size } }
                    context.write(wrapOutboundOut(Self.chunk.getSlice(at: 0, length: size)!), promise: promise)
                }
                context.flush()
            }

            func errorCaught(context: ChannelHandlerContext, error: any Error) {
                context.close(promise: nil)
            }
        }
    }
#endif
