#if TransportConformance
    import Foundation
    import RetroSwift

    extension TransportConformance {
        /// Cancellation and timeouts at each stage of an exchange.
        static let timingCases: [TransportConformanceCase] = [
            TransportConformanceCase(
                "cancellation/before-head", "cancelling a call that waits for its head throws CancellationError at once"
            ) { context in
                try await context.withServer({ _ in ScriptedResponse(behavior: .silent) }) { api, _ in
                    let call = Task { try await api.data() }
                    try await Task.sleep(for: .milliseconds(200))
                    let start = ContinuousClock.now
                    call.cancel()
                    let outcome = await call.result
                    let elapsed = ContinuousClock.now - start
                    guard case .failure(let error) = outcome, error is CancellationError else {
                        throw context.failure("the cancelled call ended with \(outcome)")
                    }
                    try context.expect(elapsed < .seconds(5), "the cancelled call took \(elapsed) to end")
                }
            },
            TransportConformanceCase(
                "cancellation/mid-body", "cancelling a stream while its body arrives ends it with CancellationError"
            ) { context in
                try await context.withServer({ _ in
                    ScriptedResponse(behavior: .chunked(pieces: [Data("first".utf8)], interval: 0, holdingOpen: true))
                }) { api, _ in
                    let reader = Task {
                        var received = 0
                        for try await chunk in try await api.stream() { received += chunk.count }
                        return received
                    }
                    try await Task.sleep(for: .milliseconds(300))
                    reader.cancel()
                    let outcome = await reader.result
                    guard case .failure(let error) = outcome, error is CancellationError else {
                        throw context.failure("the cancelled stream ended with \(outcome)")
                    }
                }
            },
            TransportConformanceCase(
                "timeout/before-head", "a server that never answers times out with URLError.timedOut"
            ) { context in
                try await context.withServer({ _ in ScriptedResponse(behavior: .silent) }) { api, _ in
                    try await context.urlError(.timedOut) { try await api.slow() }
                }
            },
            TransportConformanceCase(
                "timeout/stalled-body", "a body that stops arriving times out with URLError.timedOut"
            ) { context in
                try await context.withServer({ _ in ScriptedResponse(body: patternedBytes(100_000), behavior: .stalled(afterBytes: 1_000)) }
                ) {
                    api, _ in
                    try await context.urlError(.timedOut) { try await api.slow() }
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
