#if TransportConformance
    import Foundation
    import RetroSwift

    extension TransportConformance {
        /// How long a cancelled call may take to end: a user who cancels expects the call gone at once, and a second
        /// leaves room for sanitizers on loaded cores.
        static let cancellationBound = Duration.seconds(1)

        /// The window a timeout of one second must fire in: not before about its second (a timer that fires early
        /// cuts slow servers off), and within three (the issue asks for about two; sanitizers on two loaded cores
        /// need the third).
        static let timeoutWindow = (earliest: Duration.milliseconds(900), latest: Duration.seconds(3))

        /// Cancellation and timeouts at each stage of an exchange, each bounded in time.
        static let timingCases: [TransportConformanceCase] = [
            TransportConformanceCase(
                "cancellation/before-head", "cancelling a call that waits for its head throws CancellationError within a second"
            ) { context in
                try await context.withServer({ _ in ScriptedResponse(behavior: .silent) }) { api, server in
                    let call = Task { try await api.data() }
                    try await context.waitForRequests(1, on: server)
                    let cancelled = ContinuousClock.now
                    call.cancel()
                    let (outcome, _) = try await context.ending(of: call, within: cancellationBound, after: cancelled, "the cancelled call")
                    guard case .failure(let error) = outcome, error is CancellationError else {
                        throw context.failure("the cancelled call ended with \(outcome.map(context.describe))")
                    }
                }
            },
            TransportConformanceCase(
                "cancellation/mid-body", "cancelling a stream while its body arrives ends it with CancellationError within a second"
            ) { context in
                try await context.withServer({ _ in
                    ScriptedResponse(behavior: .chunked(pieces: [Data("first".utf8)], interval: 0, holdingOpen: true))
                }) { api, _ in
                    let firstArrived = AsyncStream<Void>.makeStream()
                    let reader = Task {
                        var received = 0
                        for try await chunk in try await api.stream() {
                            received += chunk.count
                            firstArrived.continuation.yield()
                        }
                        return received
                    }
                    for await _ in firstArrived.stream { break }
                    let cancelled = ContinuousClock.now
                    reader.cancel()
                    let (outcome, _) = try await context.ending(
                        of: reader, within: cancellationBound, after: cancelled, "the cancelled stream")
                    guard case .failure(let error) = outcome, error is CancellationError else {
                        throw context.failure("the cancelled stream ended with \(outcome)")
                    }
                }
            },
            TransportConformanceCase(
                "cancellation/during-upload", "cancelling a call while its body is being sent throws CancellationError within a second"
            ) { context in
                // The server stops reading at the head, so the 32 MiB body fills the sockets' buffers and the upload waits.
                let server = try await TestServer.startAnsweringHeads(drainingBodies: false) { _ in nil }
                try await context.run(
                    { api, server in
                        let call = Task { try await api.upload(.init(body: Data(count: 32 << 20))) }
                        try await context.waitForRequests(1, on: server)
                        try await Task.sleep(for: .milliseconds(200))
                        let cancelled = ContinuousClock.now
                        call.cancel()
                        let (outcome, _) = try await context.ending(
                            of: call, within: cancellationBound, after: cancelled, "the call cancelled during its upload")
                        guard case .failure(let error) = outcome, error is CancellationError else {
                            throw context.failure("the call cancelled during its upload ended with \(outcome.map(context.describe))")
                        }
                    }, context.api(at: server), server)
            },
            TransportConformanceCase(
                "cancellation/file-download-mid-body",
                "cancelling a call whose body is being written to a file throws CancellationError within a second"
            ) { context in
                try await context.withServer({ _ in
                    ScriptedResponse(body: patternedBytes(1 << 20), behavior: .stalled(afterBytes: 64 << 10))
                }) { api, server in
                    let call = Task { try await api.file() }
                    try await context.waitForRequests(1, on: server)
                    // Time for the head and the first 64 KiB to arrive: the body is under way when the call is cancelled.
                    try await Task.sleep(for: .milliseconds(300))
                    let cancelled = ContinuousClock.now
                    call.cancel()
                    let (outcome, _) = try await context.ending(
                        of: call, within: cancellationBound, after: cancelled, "the download cancelled mid-body")
                    if case .success(let file) = outcome { try? FileManager.default.removeItem(at: file.url) }
                    guard case .failure(let error) = outcome, error is CancellationError else {
                        throw context.failure("the download cancelled mid-body ended with \(outcome.map(\.url))")
                    }
                }
            },
            TransportConformanceCase(
                "timeout/before-head", "a server that never answers times out with URLError.timedOut between 0.9 and 3 s into a 1 s timeout"
            ) { context in
                try await context.withServer({ _ in ScriptedResponse(behavior: .silent) }) { api, _ in
                    let (outcome, elapsed) = try await context.timed(within: timeoutWindow.latest, "the call with a 1 s timeout") {
                        try await api.slow()
                    }
                    guard case .failure(let error) = outcome else {
                        throw context.failure("the call returned \(outcome.map(context.describe))")
                    }
                    try context.expectURLError(.timedOut, error)
                    try context.expect(elapsed >= timeoutWindow.earliest, "the 1 s timeout fired after \(elapsed)")
                }
            },
            TransportConformanceCase(
                "timeout/stalled-body",
                "a body that stops arriving times out with URLError.timedOut between 0.9 and 3 s after it stalled, for a 1 s timeout"
            ) { context in
                let stalled = Collected<ContinuousClock.Instant>()
                try await context.withServer({ _ in
                    // The server sends the head and the first 1,000 bytes as soon as it answers: the silence starts now.
                    stalled.add(.now)
                    return ScriptedResponse(body: patternedBytes(100_000), behavior: .stalled(afterBytes: 1_000))
                }) { api, server in
                    let call = Task { try await api.slow() }
                    try await context.waitForRequests(1, on: server)
                    while stalled.all.isEmpty { try await Task.sleep(for: .milliseconds(5)) }
                    let (outcome, silence) = try await context.ending(
                        of: call, within: timeoutWindow.latest, after: stalled.all[0], "the call whose body stalled, with a 1 s timeout,")
                    guard case .failure(let error) = outcome else {
                        throw context.failure("the call returned \(outcome.map(context.describe))")
                    }
                    try context.expectURLError(.timedOut, error)
                    try context.expect(silence >= timeoutWindow.earliest, "the 1 s timeout fired \(silence) after the body stalled")
                }
            },
            TransportConformanceCase(
                "timeout/steady-body-completes", "a body that keeps arriving completes, even when the whole takes longer than the timeout"
            ) { context in
                // 8 pieces, one every 0.25 s: about 1.75 s in all, against a timeout of 1 s between bytes.
                try await context.withServer({ _ in
                    ScriptedResponse(body: patternedBytes(8_000), behavior: .dripped(chunks: 8, interval: 0.25))
                }) {
                    api, _ in
                    let body = try await api.slow().body
                    try context.expect(body == patternedBytes(8_000), "\(body.count) bytes arrived")
                }
            },
        ]
    }
#endif
