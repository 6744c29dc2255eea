#if TransportConformance
    import Foundation
    import RetroSwift

    extension TransportConformance {
        /// Keep-alive connections: reused for sequential calls, dropped when the server closed them, closed when a
        /// stream is abandoned; and a request that is not idempotent is never sent twice, whatever the connection did
        /// (RFC 9110 §9.2.2: only idempotent requests may be retried automatically).
        static let connectionReuseCases: [TransportConformanceCase] = [
            TransportConformanceCase(
                "connection/post-unanswered-not-resent",
                "a POST whose connection the server closes without answering fails with URLError.networkConnectionLost, sent once"
            ) { context in
                try await context.withRawServer({ _ in RawResponse(pieces: [], ending: .close) }) { api, server in
                    try await context.urlError(.networkConnectionLost) { try await api.submit(.init(body: Data("pay once".utf8))) }
                    let posts = server.requests.filter { $0.method == "POST" }.count
                    try context.expect(posts == 1, "the server received the POST \(posts) times")
                }
            },
            TransportConformanceCase(
                "connection/reset-after-request",
                "a POST whose connection the server resets (TCP RST) after reading it whole fails with "
                    + "URLError.networkConnectionLost, not .cannotConnectToHost: the server had it; sent once"
            ) { context in
                try await context.withRawServer({ _ in RawResponse(pieces: [], ending: .reset) }) { api, server in
                    try await context.urlError(.networkConnectionLost) { try await api.submit(.init(body: Data("pay once".utf8))) }
                    let posts = server.requests.filter { $0.method == "POST" }.count
                    try context.expect(posts == 1, "the server received the POST \(posts) times")
                }
            },
            TransportConformanceCase(
                "connection/post-on-reused-connection-not-resent",
                "a POST on a kept-alive connection that the server closes without answering fails, sent once"
            ) { context in
                let calls = Counter()
                try await context.withRawServer({ _ in
                    calls.next() == 0 ? itemResponse([]) : RawResponse(pieces: [], ending: .close)
                }) { api, server in
                    _ = try await api.item()
                    // Bounded: a client that sends the POST again may also wait for an answer to it that never comes.
                    let start = ContinuousClock.now
                    let call = Task { try await api.submit(.init(body: Data("pay once".utf8))) }
                    let ended = await context.outcome(of: call, within: .seconds(3), after: start)
                    let posts = server.requests.filter { $0.method == "POST" }.count
                    guard let ended else {
                        throw context.failure(
                            "the POST had not ended within 3 s; the server received it whole \(posts) times, on "
                                + "\(server.acceptedConnectionCount) connections in all")
                    }
                    try context.expect(posts == 1, "the server received the POST \(posts) times; the call ended with \(ended.result)")
                    guard case .failure(let error) = ended.result else { throw context.failure("the unanswered POST returned") }
                    try context.expectURLError(.networkConnectionLost, error)
                }
            },
            TransportConformanceCase(
                "connection/server-ended-released",
                "a kept-alive connection the server ends (FIN) while idle is closed by the client within 5 s, not left open"
            ) { context in
                try await context.withRawServer({ _ in
                    var response = itemResponse([])
                    response.ending = .finishWhenIdle(seconds: 0.1)
                    return response
                }) { api, server in
                    _ = try await api.item()
                    // The server ends its side 0.1 s after answering and closes the connection once the client closes
                    // its own: a client that keeps it (in a cache it looks at only when it reuses it) holds a
                    // descriptor, and the server a socket, for as long as it lives.
                    let released = try await eventually(within: .seconds(5)) { server.openConnectionCount == 0 }
                    try context.expect(
                        released,
                        "the connection the server ended 0.1 s after answering was still open 5 s later "
                            + "(\(server.openConnectionCount) open)")
                }
            },
            TransportConformanceCase(
                "connection/idle-closed-get-succeeds",
                "a GET after the server closed the idle kept-alive connection goes out on a new one and succeeds"
            ) { context in
                try await context.withRawServer({ _ in idleClosingItem }) { api, server in
                    _ = try await api.item()
                    try await Task.sleep(for: .milliseconds(300))
                    let second = try await api.item()
                    try context.expect(second.body.id == 1, "the second call answered \(second.body)")
                    try context.expect(server.requests.count == 2, "the server saw \(server.requests.count) requests")
                }
            },
            TransportConformanceCase(
                "connection/idle-closed-post-sent-once",
                "a POST after the server closed the idle kept-alive connection succeeds, sent once, or fails: never sent twice"
            ) { context in
                try await context.withRawServer({ _ in idleClosingItem }) { api, server in
                    _ = try await api.item()
                    try await Task.sleep(for: .milliseconds(300))
                    let failure: (any Error)?
                    do {
                        _ = try await api.submit(.init(body: Data("pay once".utf8)))
                        failure = nil
                    } catch {
                        failure = error
                    }
                    let posts = server.requests.filter { $0.method == "POST" }.count
                    if let failure {
                        try context.expect(
                            posts <= 1, "the POST failed (\(context.describe(failure))) after reaching the server \(posts) times")
                    } else {
                        try context.expect(posts == 1, "the POST succeeded, and the server received it \(posts) times")
                    }
                }
            },
            TransportConformanceCase(
                "connection/keep-alive-reused",
                "300 sequential calls to one host, each sent the moment the previous one returns, all go over one connection"
            ) { context in
                try await context.withServer({ _ in .json(#"{"id":1}"#) }) { api, server in
                    // Each call starts as soon as the previous returns: a transport that answers the caller before
                    // its connection is free again opens a new one for the next call.
                    for _ in 0..<300 { _ = try await api.item() }
                    try context.expect(server.requests.count == 300, "the server saw \(server.requests.count) requests")
                    try context.expect(
                        server.acceptedConnectionCount == 1, "300 sequential calls opened \(server.acceptedConnectionCount) connections")
                }
            },
            TransportConformanceCase(
                "connection/keep-alive-after-uploads",
                "30 sequential 1 MiB uploads, each sent the moment the previous one returns, all complete, never over more "
                    + "than two connections at once"
            ) { context in
                try await context.withServer({ _ in .json(#"{"id":1}"#) }) { api, server in
                    // Bodies over a transport's one-write size go out in parts: the connection must be free for the
                    // next call once the answer and the body's end are through, not kept (or lost) by a race of the two.
                    let body = Data(count: 1 << 20)
                    for index in 0..<30 {
                        let (outcome, elapsed) = try await context.timed(within: .seconds(10), "upload \(index + 1)") {
                            try await api.uploadWithin2s(.init(body: body))
                        }
                        guard case .success = outcome else {
                            throw context.failure(
                                "upload \(index + 1) of 30 ended after \(elapsed) with \(outcome.map(context.describe)), on "
                                    + "\(server.acceptedConnectionCount) connections in all")
                        }
                    }
                    try context.expect(server.requests.count == 30, "the server saw \(server.requests.count) requests")
                    // Two at most: an answer may reach the caller a moment before its connection is free again (so the
                    // next upload opens another), but a transport that keeps or loses a connection per upload holds more.
                    try context.expect(
                        server.peakOpenConnectionCount <= 2,
                        "30 sequential uploads held \(server.peakOpenConnectionCount) connections open at once ("
                            + "\(server.acceptedConnectionCount) in all)")
                }
            },
            TransportConformanceCase(
                "connection/100-concurrent", "100 concurrent calls to one host all succeed"
            ) { context in
                try await context.withServer({ _ in ScriptedResponse(status: 200, body: itemJSON, behavior: .delayed(0.05)) }) {
                    api, server in
                    let answered = try await withThrowingTaskGroup(of: Int.self) { group in
                        for _ in 0..<100 { group.addTask { try await api.item().body.id } }
                        return try await group.reduce(0) { $0 + $1 }
                    }
                    try context.expect(answered == 100, "\(answered) of 100 calls were answered")
                    try context.expect(server.requests.count == 100, "the server saw \(server.requests.count) requests")
                }
            },
            TransportConformanceCase(
                "connection/abandoned-stream-closed", "a streamed response dropped without being read closes its connection"
            ) { context in
                try await context.withServer({ request in
                    request.target == "/stream"
                        ? ScriptedResponse(behavior: .chunked(pieces: [Data("first".utf8)], interval: 0, holdingOpen: true))
                        : .json(#"{"id":5}"#)
                }) { api, server in
                    do {
                        _ = try await api.stream()
                    }
                    let closed = try await context.connectionsClose(on: server, within: .seconds(3))
                    try context.expect(closed, "\(server.openConnectionCount) connections are still open 3 s after the stream was dropped")
                    let next = try await api.item()
                    try context.expect(next.body.id == 5, "the next call answered \(next.body)")
                }
            },
        ]

        /// An item answer on a kept-alive connection that the server closes once it has been idle for 100 ms.
        private static var idleClosingItem: RawResponse {
            var response = itemResponse([])
            response.ending = .closeWhenIdle(seconds: 0.1)
            return response
        }
    }
#endif
