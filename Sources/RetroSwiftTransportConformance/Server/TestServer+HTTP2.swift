#if TransportConformance
    /// The protocol the scripted servers a task starts speak: the conformance suite's protocol dimension.
    public enum TestServerProtocol: String, Sendable, CaseIterable, CustomStringConvertible {
        /// HTTP/1.1, as ever.
        case http1_1 = "HTTP/1.1"
        /// HTTP/2 with prior knowledge on plain servers (h2c); a server with TLS offers `h2` by ALPN.
        case h2c
        /// HTTP/2 over TLS on every server, negotiated by ALPN: a plain server gets TLS with a certificate from
        /// ``TestServer/http2Authority``, which the suite's API trusts.
        case h2

        /// Its name, as test reports show it.
        public var description: String { rawValue }
    }

    extension TestServer {
        /// The protocol servers started in this task speak; HTTP/1.1 unless a test binds another.
        @TaskLocal public static var protocolUnderTest = TestServerProtocol.http1_1
    }
#endif

#if ConformanceHTTP2
    import Foundation
    import NIOConcurrencyHelpers
    import NIOCore
    import NIOHTTP1
    import NIOHTTP2
    import NIOSSL
    import NIOTLS

    /// A server's GOAWAY: on each connection, when the stream numbered `atStream` (1 for the first the client opens)
    /// opens, the server sends GOAWAY and drops that stream unanswered (it is never recorded). Unless `processing`, the
    /// GOAWAY's last stream id is the stream before it, telling the client that this one and any after it were never
    /// processed (RFC 9113 §6.8); when `processing`, the last stream id is that stream's own, which the server then
    /// resets: the client cannot know whether it was acted on.
    struct GoAwayScript: Sendable {
        /// Which stream of each connection the GOAWAY is sent at.
        let atStream: Int
        /// Whether that stream is the GOAWAY's last stream id, reset after it.
        var processing = false
        /// The streams the GOAWAY was sent at, by their number on their connection.
        let dropped = Collected<Int>()
    }

    extension TestServer {
        /// The certificate authority of the TLS that ``TestServerProtocol/h2`` gives plain servers, and the
        /// certificate (for 127.0.0.1, ::1 and `localhost`) they present: made once per process.
        public static let http2Authority: Result<(authority: TestCertificateAuthority, tls: TLSInstaller), any Error> = Result {
            let authority = try TestCertificateAuthority(name: "RetroSwift HTTP/2 test authority")
            let issued = try authority.issue(for: .loopback, .ipv6Loopback, .localhost)
            // Made outside any task's binding: offers h2 itself, whatever the dimension of the task that first asks.
            let tls = try TestServer.$protocolUnderTest.withValue(.h2) { try issued.serverTLS() }
            return (authority, tls)
        }

        /// Starts a server speaking HTTP/2 as ``protocolUnderTest`` says: with prior knowledge on a plain server for
        /// h2c, else over TLS (the given one, or ``http2Authority``'s for h2), negotiated by ALPN (HTTP/1.1 when the
        /// client offers no `h2`). Each stream's request is answered by the same scripted handler as over HTTP/1.1.
        static func startHTTP2(
            host: String, recordingBodies: Bool, tls: TLSInstaller?, script: HTTP2Script = HTTP2Script(), _ respond: @escaping Responder
        ) async throws -> TestServer {
            let installer = tls == nil && protocolUnderTest == .h2 ? try http2Authority.get().tls : tls
            return try await listen(host: host, scheme: installer == nil ? "http" : "https") { pipeline, log in
                guard let installer else {
                    try configureHTTP2(pipeline, log: log, recordingBodies: recordingBodies, script: script, respond)
                    return
                }
                try installer(pipeline)
                try pipeline.addHandler(
                    ApplicationProtocolNegotiationHandler { result, channel in
                        channel.eventLoop.makeCompletedFuture {
                            let pipeline = channel.pipeline.syncOperations
                            if case .negotiated("h2") = result {
                                try configureHTTP2(pipeline, log: log, recordingBodies: recordingBodies, script: script, respond)
                            } else {
                                try pipeline.configureHTTPServerPipeline()
                                try pipeline.addHandler(RecordingHandler(log: log, recordingBodies: recordingBodies, respond: respond))
                            }
                        }
                    })
            }
        }

        /// Sets up an HTTP/2 server connection: every stream the client opens gets the scripted handler behind
        /// swift-nio-http2's HTTP/1-style codec, with what `script` adds.
        static func configureHTTP2(
            _ pipeline: ChannelPipeline.SynchronousOperations, log: RequestLog, recordingBodies: Bool, script: HTTP2Script,
            _ respond: @escaping Responder
        ) throws {
            // Streams the client opened on this connection, for `goAway` (on the connection's loop only).
            let opened = NIOLockedValueBox(0)
            // In front of swift-nio-http2's handler, for the frames it would never send.
            let raw = RawFrameWriter()
            try pipeline.addHandler(raw)
            var configuration = NIOHTTP2Handler.ConnectionConfiguration()
            configuration.initialSettings = [
                HTTP2Setting(parameter: .maxConcurrentStreams, value: script.maxConcurrentStreams),
                HTTP2Setting(parameter: .maxHeaderListSize, value: 1 << 16),
            ]
            _ = try pipeline.configureHTTP2Pipeline(
                mode: .server, connectionConfiguration: configuration, streamConfiguration: .init()
            ) { stream in
                let count = opened.withLockedValue { count in
                    count += 1
                    return count
                }
                script.openStreams.withLockedValue { $0 += 1 }
                stream.closeFuture.whenComplete { _ in script.openStreams.withLockedValue { $0 -= 1 } }
                let first = script.streams.withLockedValue { streams in
                    streams += 1
                    return streams == 1
                }
                let id = (try? stream.syncOptions?.getOption(HTTP2StreamChannelOptions.streamID)) ?? HTTP2StreamID(2 * count - 1)
                if let goAway = script.goAway, count == goAway.atStream, let connection = stream.parent {
                    // Client streams are numbered 1, 3, 5…. Sent from the loop's next turn, outside swift-nio-http2's own
                    // read; this stream has no handler, so it goes unanswered.
                    let last = goAway.processing ? id : HTTP2StreamID(Int(id) - 2)
                    goAway.dropped.add(count)
                    stream.eventLoop.execute {
                        let frame = HTTP2Frame(
                            streamID: .rootStream, payload: .goAway(lastStreamID: last, errorCode: .noError, opaqueData: nil))
                        connection.writeAndFlush(frame, promise: nil)
                        // At the last stream id, it may have been acted on: reset (RST_STREAM), it must not go again.
                        if goAway.processing { stream.close(promise: nil) }
                    }
                    return stream.eventLoop.makeSucceededVoidFuture()
                }
                if script.pushesOnFirstStream, first {
                    // Written now, ahead of the answer: a push promised on this stream, to a client that may have
                    // disabled push (RFC 9113 §6.6, §8.4).
                    let block = RawFrameWriter.headerBlock([
                        (":method", "GET"), (":scheme", "https"), (":path", "/pushed"), (":authority", "127.0.0.1"),
                    ])
                    raw.send([RawFrameWriter.frame(type: 0x5, flags: 0x4, stream: Int(id), payload: [0, 0, 0, 2] + block)])
                }
                return stream.eventLoop.makeCompletedFuture {
                    let pipeline = stream.pipeline.syncOperations
                    if let bytes = script.continuedHeadBytes {
                        try pipeline.addHandler(ContinuedHeadWriter(raw: raw, stream: Int(id), extraBytes: bytes))
                    }
                    if script.endsConnectionAfterEachAnswer {
                        try pipeline.addHandler(ConnectionEndingHandler(stream: id))
                    }
                    try pipeline.addHandler(HTTP2FramePayloadToHTTP1ServerCodec())
                    if !script.trailers.isEmpty {
                        try pipeline.addHandler(TrailerAddingHandler(script.trailers))
                    }
                    try pipeline.addHandler(RecordingHandler(log: log, recordingBodies: recordingBodies, respond: respond))
                }
            }
            try pipeline.addHandler(ClientFrameRecorder(script.client))
        }
    }
#endif
