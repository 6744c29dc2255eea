import Foundation
import RetroSwift

extension HttpOperationResult {
    /// A response whose body arrives piece by piece, for testing code that reads `ServerSentEvents`, `JSONLines`
    /// or any other streamed response without a server.
    ///
    /// ```swift
    /// let transport = RecordingTransport { _ in
    ///     .streamed(["data: {\"text\":\"Hel\"}\n\n", "data: {\"text\":\"lo\"}\n\n"], interval: .milliseconds(50),
    ///               headers: ["Content-Type": "text/event-stream"])
    /// }
    /// ```
    ///
    /// - Parameters:
    ///   - pieces: The body's pieces, in order; each is delivered as one chunk.
    ///   - interval: The pause before each piece after the first.
    ///   - status: The status code; a non-2xx body arrives whole in `body`, as transports deliver it.
    ///   - headers: The response headers.
    ///   - failure: Thrown by the reader's loop after the last piece, as a dropped connection would be; `nil` to end
    ///     cleanly.
    /// - Returns: The response.
    public static func streamed(
        _ pieces: [String], interval: Duration = .zero, status: Int = 200, headers: [String: String] = [:],
        failure: (any Error & Sendable)? = nil
    ) -> HttpOperationResult {
        streamed(pieces.map { Data($0.utf8) }, interval: interval, status: status, headers: headers, failure: failure)
    }

    /// A response whose body arrives piece by piece, as bytes.
    ///
    /// - Parameters:
    ///   - pieces: The body's pieces, in order; each is delivered as one chunk.
    ///   - interval: The pause before each piece after the first.
    ///   - status: The status code; a non-2xx body arrives whole in `body`.
    ///   - headers: The response headers.
    ///   - failure: Thrown by the reader's loop after the last piece; `nil` to end cleanly.
    /// - Returns: The response.
    public static func streamed(
        _ pieces: [Data], interval: Duration = .zero, status: Int = 200, headers: [String: String] = [:],
        failure: (any Error & Sendable)? = nil
    ) -> HttpOperationResult {
        guard (200..<300).contains(status) else {
            return HttpOperationResult(statusCode: status, headers: HTTPHeaderFields(headers), body: pieces.reduce(Data(), +))
        }
        let chunks = ScriptedChunks(pieces: pieces, interval: interval, failure: failure)
        return HttpOperationResult(statusCode: status, headers: HTTPHeaderFields(headers), body: .stream(.reading(chunks)))
    }
}

/// Pieces of a body delivered one by one with a pause between them, then an optional failure.
private struct ScriptedChunks: AsyncSequence, Sendable {
    typealias Element = Data

    let pieces: [Data]
    let interval: Duration
    let failure: (any Error & Sendable)?

    func makeAsyncIterator() -> Iterator {
        Iterator(chunks: self)
    }

    struct Iterator: AsyncIteratorProtocol {
        let chunks: ScriptedChunks
        var next = 0

        mutating func next() async throws -> Data? {
            guard next < chunks.pieces.count else {
                if let failure = chunks.failure, next == chunks.pieces.count {
                    next += 1
                    throw failure
                }
                return nil
            }
            if next > 0, chunks.interval > .zero { try await Task.sleep(for: chunks.interval) }
            defer { next += 1 }
            return chunks.pieces[next]
        }
    }
}
