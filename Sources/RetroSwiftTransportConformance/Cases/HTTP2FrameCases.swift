#if ConformanceHTTP2
    import Foundation
    import RetroSwift

    extension TransportConformance {
        /// HTTP/2 cases of frames and fields: trailers, a head split by CONTINUATION, a push the client disabled, and
        /// HTTP/1.1's connection-specific fields.
        static let http2FrameCases: [TransportConformanceCase] = [
            TransportConformanceCase(
                "http2/trailers-after-body",
                "an answer whose stream ends with a HEADERS frame of trailer fields is read whole, as framing/trailers over HTTP/1.1"
            ) { context in
                try await context.withHTTP2Server(HTTP2Script(trailers: [("x-checksum", "abc123")])) { _ in
                    ScriptedResponse(body: Data(repeating: 5, count: 100_000))
                } _: { api, _ in
                    let response = try await api.data()
                    try context.expect(
                        response.statusCode == 200 && response.body == Data(repeating: 5, count: 100_000),
                        "the answer is \(context.describe(response))")
                }
            },
            TransportConformanceCase(
                "http2/head-split-by-continuation",
                "an answer's head of 12 KB, split into a HEADERS frame and CONTINUATION frames, is read whole"
            ) { context in
                try await context.withHTTP2Server(HTTP2Script(continuedHeadBytes: 12_000)) { _ in
                    .text("whole", status: 200)
                } _: {
                    api, _ in
                    let response = try await api.data()
                    let value = String(repeating: "c", count: 1_000)
                    let whole = (0..<12).filter { response.headers["x-continued-\($0)"] == value }.count
                    try context.expect(
                        response.body == Data("whole".utf8) && whole == 12,
                        "the answer gave \(response.body.count) body bytes and \(whole) of the 12 continued fields whole")
                }
            },
            TransportConformanceCase(
                "http2/push-promise-refused",
                "the client's SETTINGS disable push (SETTINGS_ENABLE_PUSH 0); a PUSH_PROMISE sent anyway is a connection error of type PROTOCOL_ERROR (RFC 9113 §6.6), and the next call is answered on a new connection"
            ) { context in
                let script = HTTP2Script(pushesOnFirstStream: true)
                try await context.withHTTP2Server(script) { _ in
                    .json(#"{"id":7}"#)
                } _: { api, server in
                    // The call the push was promised on may fail with its connection: only that it ends matters here
                    // (within 6 s, for a client that keeps waiting on the broken connection).
                    _ = try? await api.slowWithin6s()
                    let push = script.client.enablePush.map(String.init) ?? "unset (1)"
                    try context.expect(script.client.enablePush == 0, "the client's SETTINGS_ENABLE_PUSH is \(push), not 0")
                    guard try await eventually(within: .seconds(5), { script.client.sentProtocolError }) else {
                        throw context.failure(
                            "the client answered the push with GOAWAY codes \(script.client.goAwayCodes), not PROTOCOL_ERROR")
                    }
                    // Within 6 s: a client that keeps the broken connection may send the next call on it and wait there, and
                    // that is the same fault as answering it there.
                    let notAnswered = "the next call after the push was not answered on a new connection"
                    let next: HTTPResponse<Data>
                    do {
                        next = try await api.slowWithin6s()
                    } catch {
                        throw context.failure("\(notAnswered): it failed with \(context.describe(error))")
                    }
                    try context.expect(next.body == Data(#"{"id":7}"#.utf8), "the next call answered \(context.describe(next))")
                    try context.expect(
                        server.acceptedConnectionCount == 2,
                        "\(notAnswered): the calls took \(server.acceptedConnectionCount) connections, not two")
                }
            },
            TransportConformanceCase(
                "http2/connection-fields-never-sent",
                "a body of unknown length, chunked over HTTP/1.1, goes over HTTP/2 with none of HTTP/1.1's connection-specific fields (Connection, Keep-Alive, Proxy-Connection, Transfer-Encoding, Upgrade; RFC 9113 §8.2.2), and is answered"
            ) { context in
                // The app cannot declare these fields at all (the core refuses them as a declaration mistake): what is
                // tested is that the transport adds none of its own. The server's swift-nio-http2 resets a stream whose
                // HEADERS carry one, so the answer itself shows none went.
                try await context.withHTTP2Server { _ in
                    .text("stored", status: 200)
                } _: { api, server in
                    var upload = ConformanceApi.StreamUpload()
                    upload.body = HTTPRequestBodyStream(length: nil) {
                        AsyncStream<Data> { continuation in
                            for line in 0..<3 { continuation.yield(Data("line \(line)\n".utf8)) }
                            continuation.finish()
                        }
                    }
                    let response = try await api.uploadStream(upload)
                    try context.expect(response.body == Data("stored".utf8), "the upload answered \(context.describe(response))")
                    let request = server.requests.first
                    try context.expect(
                        request?.body == Data("line 0\nline 1\nline 2\n".utf8), "the server received \(request?.bodyByteCount ?? 0) bytes")
                    // The server's HTTP/1-style codec adds `transfer-encoding: chunked` to the head it records for a body of
                    // unknown length itself, so that name is not looked for in the record.
                    let names = Set((request?.headers ?? []).map { $0.name.lowercased() })
                    let sent = names.intersection(["connection", "keep-alive", "proxy-connection", "upgrade"])
                    try context.expect(sent.isEmpty, "the request carried \(sent.sorted())")
                }
            },
        ]
    }
#endif
