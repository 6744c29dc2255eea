import Foundation

/// A request body sent chunk by chunk while it is read: a multipart form RetroSwift serializes (its file parts read
/// from disk as the body goes out), or a body of your own, declared as a `@RawBody`:
///
/// ```swift
/// struct UploadLogRequest {
///     @RawBody(contentType: "text/plain") var lines: HTTPRequestBodyStream
/// }
/// let lines = HTTPRequestBodyStream(length: nil) { AsyncStream { ... } }
/// ```
///
/// Each send iterates it afresh from `makeChunks` (a retry, or a `307` that keeps the body, sends it again), so the
/// chunks must come out the same each time. With a `length` the body goes out with that `Content-Length`, and a stream
/// that ends early or runs past it fails the call; without one it goes chunked, where the transport can.
public struct HTTPRequestBodyStream: AsyncSequence, Sendable {
    /// The body's size in bytes, or `nil` when it is known only once the stream ends.
    public let length: Int64?
    private let makeChunks: @Sendable () -> AnyChunks

    /// A body of the chunks that `makeChunks` gives, afresh for each send.
    ///
    /// - Parameters:
    ///   - length: The exact number of bytes the chunks add up to, or `nil` when it is not known.
    ///   - makeChunks: Makes the chunks, in order; called once per send.
    public init<Chunks: AsyncSequence & SendableMetatype>(length: Int64?, _ makeChunks: @escaping @Sendable () -> Chunks)
    where Chunks.Element == Data {
        self.length = length
        self.makeChunks = { AnyChunks(makeChunks()) }
    }

    /// Starts reading the body from its first chunk.
    ///
    /// - Returns: An iterator over the chunks.
    public func makeAsyncIterator() -> Iterator {
        Iterator(chunks: makeChunks())
    }

    /// Reads the chunks of one send of the body.
    public struct Iterator: AsyncIteratorProtocol {
        fileprivate let chunks: AnyChunks

        /// The next chunk.
        ///
        /// - Returns: The chunk, or `nil` at the end of the body.
        /// - Throws: What reading the body throws (a file part that cannot be read, a stream of your own's error).
        public mutating func next() async throws -> Data? {
            try await chunks.next()
        }
    }
}

/// One send's chunks, whatever sequence they come from.
final class AnyChunks {
    private let nextChunk: () async throws -> Data?

    init<Chunks: AsyncSequence>(_ chunks: Chunks) where Chunks.Element == Data {
        var iterator = chunks.makeAsyncIterator()
        nextChunk = { try await iterator.next() }
    }

    func next() async throws -> Data? {
        try await nextChunk()
    }
}
