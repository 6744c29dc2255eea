import Foundation

/// A response body delivered while it arrives, as chunks of bytes: declare it as an endpoint's response type to read
/// the raw body as it streams, or read it from ``HttpOperationResult/Body/stream(_:)`` in an interceptor.
///
/// ```swift
/// @Get("/download/{id}")
/// var download: (DownloadRequest) async throws -> HTTPBodyStream
///
/// for try await chunk in try await api.download(request) { hash.update(data: chunk) }
/// ```
///
/// The status was checked before the call returned: a non-2xx response throws ``HTTPError`` with its body, as for any
/// other response type. The chunks come as the transport receives them, at most about a megabyte is held for a reader
/// that falls behind (the transport stops reading meanwhile, where it can: see the transport's documentation), and
/// leaving the loop early, dropping the stream or cancelling the task closes the connection. The sequence can be
/// iterated once; a failure of the connection (a dropped connection, a timeout while the server is silent) throws
/// from the loop. ``ServerSentEvents``, ``JSONLines``, ``JSONTextSequence`` and ``TextLines`` read their elements
/// from one of these.
public struct HTTPBodyStream: AsyncSequence, Sendable {
    private enum Source: Sendable {
        case whole(Data)
        case buffered(StreamReader)
    }

    private let source: Source
    /// Wraps what reading throws, so that a failure mid-body names the call as a failed call does: the call pipeline
    /// sets it to make a ``TransportError``.
    private var wrapFailure: (@Sendable (any Error) -> any Error)?

    /// A body that is already in memory, delivered as one chunk (none when it is empty): for transports that cannot
    /// stream, and for mocks.
    ///
    /// - Parameter data: The whole body.
    public init(_ data: Data) {
        source = .whole(data)
    }

    /// A body read through `buffer`.
    init(buffer: StreamBuffer) {
        source = .buffered(StreamReader(buffer))
    }

    /// Starts reading the body; do this once. A body still arriving can be read once: a later iterator (another task's
    /// loop, or a second loop) throws a ``RequestError`` from its first `next()`, and leaves the first one be.
    ///
    /// - Returns: An iterator over the chunks.
    public func makeAsyncIterator() -> Iterator {
        switch source {
        case .whole(let data): Iterator(pending: data.isEmpty ? nil : data, iteration: nil, refused: false, wrapFailure: nil)
        case .buffered(let reader):
            reader.claim()
                ? Iterator(pending: nil, iteration: StreamIteration(reader), refused: false, wrapFailure: wrapFailure)
                : Iterator(pending: nil, iteration: nil, refused: true, wrapFailure: nil)
        }
    }

    /// The same body, its read failures passed through `wrap`.
    func wrappingFailures(_ wrap: @escaping @Sendable (any Error) -> any Error) -> HTTPBodyStream {
        var stream = self
        stream.wrapFailure = wrap
        return stream
    }

    /// Closes a body nobody will read: an iterator made and dropped at once cancels it, as leaving a loop does.
    func discard() {
        _ = makeAsyncIterator()
    }

    /// Reads the chunks of an ``HTTPBodyStream``.
    public struct Iterator: AsyncIteratorProtocol, Sendable {
        fileprivate var pending: Data?
        fileprivate let iteration: StreamIteration?
        /// Made after the body's one iterator: reading it would take chunks from that one.
        fileprivate let refused: Bool
        fileprivate let wrapFailure: (@Sendable (any Error) -> any Error)?

        /// The next chunk.
        ///
        /// - Returns: The chunk, or `nil` when the body has ended.
        /// - Throws: The transport's error when the connection failed before the end (a call's stream wraps it in a
        ///   ``TransportError`` naming the endpoint), `CancellationError` when the task was cancelled, ``RequestError``
        ///   when the body already has an iterator.
        public mutating func next() async throws -> Data? {
            if refused { throw StreamBuffer.alreadyRead }
            if let chunk = pending {
                pending = nil
                return chunk
            }
            do {
                return try await iteration?.reader.buffer.next()
            } catch {
                throw wrapFailure?(error) ?? error
            }
        }
    }

    /// Reads the rest of the body into memory.
    ///
    /// - Parameter limit: The most bytes to accept.
    /// - Returns: The body.
    /// - Throws: `URLError(.dataLengthExceedsMaximum)` past `limit`, or what reading the body throws.
    public func collect(upTo limit: Int) async throws -> Data {
        var body = Data()
        for try await chunk in self {
            guard body.count + chunk.count <= limit else { throw URLError(.dataLengthExceedsMaximum) }
            body.append(chunk)
        }
        return body
    }
}

/// The reading end of a ``StreamBuffer``, shared by a stream's copies and its iterations: when the last of them goes,
/// nobody can read on, so the buffer is cancelled and the transport closes the connection.
private final class StreamReader: Sendable {
    let buffer: StreamBuffer
    private let claimed = Locked(false)

    init(_ buffer: StreamBuffer) {
        self.buffer = buffer
    }

    /// Whether the caller is the body's first iterator, the one that may read it.
    func claim() -> Bool {
        claimed.withLock { claimed in
            defer { claimed = true }
            return !claimed
        }
    }

    deinit {
        buffer.cancel()
    }
}

/// One iteration of a stream, shared by an iterator's copies. A stream can be iterated once, so when its iterator goes
/// (the loop was left, by `break`, a throw or the end) the buffer is cancelled at once, even while the sequence itself
/// is still held; it keeps the reader, so dropping the sequence while its iterator runs changes nothing.
private final class StreamIteration: Sendable {
    let reader: StreamReader

    init(_ reader: StreamReader) {
        self.reader = reader
    }

    deinit {
        reader.buffer.cancel()
    }
}
