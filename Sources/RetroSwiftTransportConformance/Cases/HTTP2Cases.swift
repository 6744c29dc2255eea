#if ConformanceHTTP2
    import Foundation
    import RetroSwift

    extension TransportConformance {
        /// The cases of HTTP/2 itself, for a transport that speaks it: run them with ``TestServer/protocolUnderTest``
        /// bound to ``TestServerProtocol/h2`` (their servers speak HTTP/2 over TLS, by ALPN) or ``TestServerProtocol/h2c``
        /// (with prior knowledge), and the transport set to speak HTTP/2 to such servers.
        public static let http2Cases: [TransportConformanceCase] = http2StreamCases + http2ConnectionCases + http2FrameCases

        /// The cases of HTTP/2's streams: max concurrent streams 1, a stream reset or left mid-body, and GOAWAY above the
        /// last stream id.
        static let http2StreamCases: [TransportConformanceCase] = [
            TransportConformanceCase(
                "http2/max-concurrent-streams-opens-second-connection",
                "with SETTINGS_MAX_CONCURRENT_STREAMS 1, a call made while another runs opens a second connection at once"
            ) { context in
                try await context.withHTTP2Server(HTTP2Script(maxConcurrentStreams: 1)) { request in
                    request.target == "/slow"
                        ? ScriptedResponse(body: Data("slow".utf8), behavior: .delayed(1)) : .json(#"{"id":2}"#)
                } _: { api, server in
                    let slow = Task { try await api.slowWithoutTimeout() }
                    try await context.waitForRequests(1, on: server)
                    let next = try await api.item()
                    try context.expect(next.body.id == 2, "the second call answered \(next.body)")
                    let first = try await slow.value
                    try context.expect(first.body == Data("slow".utf8), "the first call answered \(first.body.count) bytes")
                    try context.expect(
                        server.acceptedConnectionCount == 2,
                        "two calls at once, one stream per connection, opened \(server.acceptedConnectionCount) connections, not 2")
                }
            },
            TransportConformanceCase(
                "http2/reset-stream-fails-only-its-call",
                "a stream the server resets mid-body (RST_STREAM) fails its call with an error, and the call beside it on the connection is answered"
            ) { context in
                try await context.withHTTP2Server { request in
                    switch request.target {
                    case "/slow": ScriptedResponse(body: Data("slow".utf8), behavior: .delayed(3))
                    case "/item": .json(#"{"id":3}"#)
                    // The head announces 1,000 bytes more than the body before the stream is reset.
                    default: ScriptedResponse(body: Data(repeating: 7, count: 64 << 10), behavior: .closeMidResponse)
                    }
                } _: { api, server in
                    let slow = Task { try await api.slowWithoutTimeout() }
                    try await context.waitForRequests(1, on: server)
                    _ = try await context.error { try await api.data() }
                    // A call after the reset goes on the same connection too: what shows a transport that dropped it,
                    // however fast the call beside it was answered (a loaded machine can answer it before the reset).
                    let next = try await api.item()
                    let first = try await slow.value
                    try context.expect(first.body == Data("slow".utf8), "the call beside it answered \(first.body.count) bytes")
                    try context.expect(next.body.id == 3, "the call after the reset answered \(next.body)")
                    try context.expect(
                        server.acceptedConnectionCount == 1,
                        "the three calls took \(server.acceptedConnectionCount) connections, not one")
                }
            },
            TransportConformanceCase(
                "http2/stream-left-mid-body-keeps-connection",
                "leaving a streamed body's loop mid-body resets that stream only: the next stream goes over the same connection"
            ) { context in
                let streams = Collected<Int>()
                try await context.withHTTP2Server { _ in
                    // The first stream drips 4 MiB for seconds; the next one is small.
                    streams.add(1)
                    return streams.all.count == 1
                        ? ScriptedResponse(body: Data(repeating: 1, count: 4 << 20), behavior: .dripped(chunks: 64, interval: 0.05))
                        : ScriptedResponse(body: Data("next".utf8))
                } _: { api, server in
                    let stream = try await api.stream()
                    for try await _ in stream { break }
                    var next = Data()
                    for try await chunk in try await api.stream() { next += chunk }
                    try context.expect(next == Data("next".utf8), "the next stream gave \(next.count) bytes")
                    try context.expect(
                        server.acceptedConnectionCount == 1 && server.openConnectionCount == 1,
                        "after leaving the loop \(server.acceptedConnectionCount) connections were opened and \(server.openConnectionCount) are open, not one"
                    )
                    withExtendedLifetime(stream) {}
                }
            },
            TransportConformanceCase(
                "http2/goaway-above-last-stream-sent-again-once",
                "a POST on a stream above a GOAWAY's last stream id, never processed, is sent once more on a new connection and answered; the call below it completes"
            ) { context in
                let goAway = GoAwayScript(atStream: 2)
                try await context.withHTTP2Server(HTTP2Script(goAway: goAway)) { request in
                    request.target == "/slow"
                        ? ScriptedResponse(body: Data("slow".utf8), behavior: .delayed(1)) : .text("submitted", status: 200)
                } _: { api, server in
                    // The first stream is held, so that the POST goes on the same connection, as its second stream.
                    let slow = Task { try await api.slowWithoutTimeout() }
                    try await context.waitForRequests(1, on: server)
                    let posted = try await api.submit(.init(body: Data("pay once".utf8)))
                    try context.expect(posted.body == Data("submitted".utf8), "the POST answered \(posted.body.count) bytes")
                    let first = try await slow.value
                    try context.expect(
                        first.body == Data("slow".utf8), "the call below the last stream id answered \(first.body.count) bytes")
                    let posts = server.requests.filter { $0.method == "POST" }.count
                    try context.expect(
                        goAway.dropped.all.count == 1 && posts == 1,
                        "the server dropped \(goAway.dropped.all.count) streams and answered \(posts) POSTs, not one of each")
                    try context.expect(
                        server.acceptedConnectionCount == 2, "the calls took \(server.acceptedConnectionCount) connections, not two")
                }
            },
        ]
    }

    extension ConformanceContext {
        /// Runs `body` against a scripted server speaking HTTP/2 as ``TestServer/protocolUnderTest`` says (h2c for
        /// HTTP/1.1), doing what `script` adds, and stops it.
        func withHTTP2Server(
            _ script: HTTP2Script = HTTP2Script(), _ respond: @escaping TestServer.Responder,
            _ body: (ConformanceApi, TestServer) async throws -> Void
        ) async throws {
            let server = try await TestServer.startHTTP2(host: "127.0.0.1", recordingBodies: true, tls: nil, script: script, respond)
            return try await run(body, api(at: server), server)
        }
    }
#endif
