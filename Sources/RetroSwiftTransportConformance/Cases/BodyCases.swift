#if TransportConformance
    import Foundation
    import RetroSwift

    /// `count` bytes of a pattern whose period (251, a prime) is not a power of two, so a dropped, repeated or shifted
    /// chunk changes the content.
    func patternedBytes(_ count: Int) -> Data {
        // Whole periods appended, not a byte at a time: cases make several megabytes of it, in debug builds.
        let period = Data((0..<251).map { UInt8($0) })
        var bytes = Data(capacity: count + period.count)
        while bytes.count < count { bytes.append(period) }
        return bytes.prefix(count)
    }

    /// `body` in chunked transfer coding, in pieces of `size` bytes.
    func chunked(_ body: Data, size: Int) -> Data {
        var out = Data()
        var start = body.startIndex
        while start < body.endIndex {
            let end = min(start + size, body.endIndex)
            out.append(Data(String(end - start, radix: 16).utf8) + Data("\r\n".utf8) + body[start..<end] + Data("\r\n".utf8))
            start = end
        }
        return out + Data("0\r\n\r\n".utf8)
    }

    extension TransportConformance {
        /// Bodies as they arrive: decoded, limited, whole and in order, in memory, in a file and as a stream.
        static let bodyCases: [TransportConformanceCase] = [
            TransportConformanceCase("body/exact-bytes", "a 1 MiB body arrives byte for byte") { context in
                let body = patternedBytes(1 << 20)
                try await context.withRawServer({ _ in .head(["HTTP/1.1 200 OK", "Content-Length: \(body.count)"], body: body) }) {
                    api, _ in
                    let received = try await api.data().body
                    try context.expect(received == body, "\(received.count) bytes arrived, not the \(body.count) sent, or not the same")
                }
            },
            TransportConformanceCase("body/chunked-exact-bytes", "a chunked 1 MiB body arrives byte for byte") { context in
                let body = patternedBytes(1 << 20)
                try await context.withRawServer({ _ in
                    .head(["HTTP/1.1 200 OK", "Transfer-Encoding: chunked"], body: chunked(body, size: 10_000))
                }) {
                    api, _ in
                    let received = try await api.data().body
                    try context.expect(received == body, "\(received.count) bytes arrived, not the \(body.count) sent, or not the same")
                }
            },
            TransportConformanceCase("body/empty", "a 200 with Content-Length: 0 has an empty body") { context in
                try await context.withRawServer({ _ in .head(["HTTP/1.1 200 OK", "Content-Length: 0"]) }) { api, _ in
                    let received = try await api.data().body
                    try context.expect(received.isEmpty, "\(received.count) bytes arrived")
                }
            },
            TransportConformanceCase("body/to-file", "a body asked for as a file is written there byte for byte") { context in
                let body = patternedBytes(3 << 20)
                try await context.withRawServer({ _ in .head(["HTTP/1.1 200 OK", "Content-Length: \(body.count)"], body: body) }) {
                    api, _ in
                    let file = try await api.file()
                    defer { try? FileManager.default.removeItem(at: file.url) }
                    let received = try Data(contentsOf: file.url)
                    try context.expect(
                        received == body, "the file holds \(received.count) bytes, not the \(body.count) sent, or not the same")
                }
            },
            TransportConformanceCase("body/stream-in-order", "a streamed body arrives whole and in order") { context in
                let body = patternedBytes(1 << 20)
                try await context.withRawServer({ _ in
                    .head(["HTTP/1.1 200 OK", "Transfer-Encoding: chunked"], body: chunked(body, size: 4_096))
                }) {
                    api, _ in
                    var received = Data()
                    for try await chunk in try await api.stream() { received.append(chunk) }
                    try context.expect(received == body, "\(received.count) bytes arrived, not the \(body.count) sent, or not the same")
                }
            },
            TransportConformanceCase("body/gzip", "a gzip-coded body is decoded") { context in
                let coded = CompressedBody.gzip(itemJSON)
                try await context.withRawServer({ _ in
                    .head(["HTTP/1.1 200 OK", "Content-Encoding: gzip", "Content-Length: \(coded.count)"], body: coded)
                }) { api, _ in
                    let item = try await api.item().body
                    try context.expect(item.id == 1, "the item is \(item)")
                }
            },
            TransportConformanceCase("body/deflate", "a deflate-coded (zlib) body is decoded") { context in
                let coded = CompressedBody.zlib(itemJSON)
                try await context.withRawServer({ _ in
                    .head(["HTTP/1.1 200 OK", "Content-Encoding: deflate", "Content-Length: \(coded.count)"], body: coded)
                }) { api, _ in
                    let item = try await api.item().body
                    try context.expect(item.id == 1, "the item is \(item)")
                }
            },
            TransportConformanceCase("body/gzip-bomb", "a gzip bomb stops at the memory limit") { context in
                // 32 MiB of zeros in 210 kB against a 4 MiB limit: the limit on memory stops it, not the ratio.
                let bomb = CompressedBody.gzipOfZeros(32 << 20)
                try await context.withRawServer({ _ in
                    .head(["HTTP/1.1 200 OK", "Content-Encoding: gzip", "Content-Length: \(bomb.count)"], body: bomb)
                }) { api, _ in
                    api.responseLimits.maxBodyBytes = 4 << 20
                    let error = try await context.requestError(.responseTooLarge) { try await api.data() }
                    try context.expect(
                        error.reason == "the response is refused: the body passed 4194304 bytes (ResponseLimits.maxBodyBytes)",
                        "the reason is \(error.reason)")
                }
            },
            TransportConformanceCase(
                "body/decompression-ratio", "a compressed body past the decompression ratio stops there, in memory and to a file"
            ) { context in
                let bomb = CompressedBody.gzipOfZeros(4 << 20)
                try await context.withRawServer({ _ in
                    .head(["HTTP/1.1 200 OK", "Content-Encoding: gzip", "Content-Length: \(bomb.count)"], body: bomb)
                }) { api, _ in
                    api.responseLimits.maxDecompressionRatio = 10
                    for error in [
                        try await context.requestError(.responseTooLarge) { try await api.data() },
                        try await context.requestError(.responseTooLarge) { try await api.file() },
                    ] {
                        try context.expect(
                            error.reason.contains("ResponseLimits.maxDecompressionRatio: 10 times its \(bomb.count) compressed bytes"),
                            "the reason is \(error.reason)")
                    }
                }
            },
            TransportConformanceCase(
                "body/announced-over-limit", "a Content-Length over the memory limit is refused before the body is read, within 3 s"
            ) { context in
                try await context.withRawServer({ _ in
                    .head(["HTTP/1.1 200 OK", "Content-Length: 1073741824"], body: Data(count: 1_024), ending: .hold)
                }) { api, _ in
                    // Bounded: the server sends 1 KiB of the body and holds the rest, so a transport that reads on waits.
                    let (outcome, _) = try await context.timed(within: .seconds(3), "the call announcing 1 GiB") { try await api.item() }
                    guard case .failure(let thrown) = outcome, let error = thrown as? RequestError, error.kind == .responseTooLarge else {
                        throw context.failure("expected a RequestError of kind .responseTooLarge, got \(outcome.map(context.describe))")
                    }
                    let expected =
                        "ConformanceApi.item (GET /item): the response is refused: its Content-Length is 1073741824 bytes, more "
                        + "than the 67108864 allowed in memory (ResponseLimits.maxBodyBytes)"
                    try context.expect(error.description == expected, "the message is \(error.description)")
                }
            },
            TransportConformanceCase("body/chunked-over-limit", "a chunked body past the memory limit stops at the limit") { context in
                let body = chunked(Data(repeating: UInt8(ascii: "a"), count: 2 << 20), size: 65_536)
                try await context.withRawServer({ _ in .head(["HTTP/1.1 200 OK", "Transfer-Encoding: chunked"], body: body) }) { api, _ in
                    api.responseLimits.maxBodyBytes = 1_000_000
                    let error = try await context.requestError(.responseTooLarge) { try await api.data() }
                    try context.expect(
                        error.reason.hasPrefix("the response is refused: the body passed 1000000 bytes"), "the reason is \(error.reason)")
                }
            },
            TransportConformanceCase(
                "body/gzip-bomb-default-limits",
                "a gzip body inflating to 1 GiB, asked for in memory, is refused as too large within 3 s (7.5 under the thread sanitizer)"
            ) { context in
                // 6.8 MB on the wire; the default limits stop it at 64 MiB in memory, long before the gigabyte. Inflating
                // those 64 MiB is work, which the thread sanitizer slows (see sanitizerSlowdown).
                let bomb = CompressedBody.gzipOfZeros(1 << 30)
                try await context.withRawServer({ _ in
                    .head(["HTTP/1.1 200 OK", "Content-Encoding: gzip", "Content-Length: \(bomb.count)"], body: bomb)
                }) { api, _ in
                    let (outcome, _) = try await context.timed(within: .seconds(3) * sanitizerSlowdown, "the call for the gzip bomb") {
                        try await api.data()
                    }
                    guard case .failure(let thrown) = outcome, let error = thrown as? RequestError, error.kind == .responseTooLarge else {
                        throw context.failure("expected a RequestError of kind .responseTooLarge, got \(outcome.map(context.describe))")
                    }
                }
            },
            TransportConformanceCase(
                "body/stream-left-early",
                "leaving a streamed body's loop after its first chunk closes that connection, and the next call works"
            ) { context in
                try await context.withServer({ request in
                    request.target == "/stream"
                        ? ScriptedResponse(body: patternedBytes(4 << 20), behavior: .dripped(chunks: 64, interval: 0.05))
                        : .json(#"{"id":3}"#)
                }) { api, server in
                    let stream = try await api.stream()
                    for try await _ in stream { break }
                    let closed = try await context.connectionsClose(on: server, within: .seconds(3))
                    try context.expect(closed, "\(server.openConnectionCount) connections are still open 3 s after leaving the loop")
                    let next = try await api.item()
                    try context.expect(next.body.id == 3, "the next call answered \(next.body)")
                    withExtendedLifetime(stream) {}
                }
            },
            TransportConformanceCase(
                "body/stream-read-slowly", "a 4 MiB streamed body read slowly arrives whole and in order"
            ) { context in
                let body = patternedBytes(4 << 20)
                try await context.withRawServer({ _ in
                    .head(["HTTP/1.1 200 OK", "Transfer-Encoding: chunked"], body: chunked(body, size: 16_384))
                }) { api, _ in
                    var received = Data()
                    var sinceLastPause = 0
                    for try await chunk in try await api.stream() {
                        received.append(chunk)
                        sinceLastPause += chunk.count
                        // A reader slower than the network: 20 ms after every 256 KiB, 16 pauses in all.
                        if sinceLastPause >= 256 << 10 {
                            sinceLastPause = 0
                            try await Task.sleep(for: .milliseconds(20))
                        }
                    }
                    try context.expect(received == body, "\(received.count) bytes arrived, not the \(body.count) sent, or not the same")
                }
            },
        ]
    }
#endif
