#if NIO
    import Foundation
    import NIOCore
    import NIOHTTP1
    import RetroSwift

    /// One call as the connection layer sends it: everything the pool, the connection and its handlers need, and nothing
    /// of RetroSwift's request type, which only `NIOTransport.swift` reads (so a change of that type touches one file).
    struct NIORequest: Sendable {
        /// The request line's method.
        var method: NIOHTTP1.HTTPMethod
        /// Whether the request may be sent again after a reused connection failed before any byte of its answer (RFC
        /// 9110 §9.2.2): a `POST` is never sent twice.
        var isIdempotent: Bool
        /// The connections it may go through: scheme, host, port, trust, and whether it is a stream.
        var origin: OriginKey
        /// The request target: the percent-encoded path and query, starting with `/`.
        var target: String
        /// Every header field in order, `Host` and the body's framing included.
        var headers: HTTPHeaders
        /// The body, if any.
        var body: NIORequestBody
        /// The longest wait for a connection (a pooled one, or connecting), and then the longest silence of the exchange
        /// in either direction: no slice of the request body taken, no byte of the response arrived.
        var timeout: TimeAmount
        /// Where progress goes, when someone observes it.
        var progress: TransferProgressReporter?
        /// Where a 2xx body goes.
        var destination: NIOResponseDestination
        /// How many times its compressed size a body may become, for a compressed body without a `Content-Length`
        /// (RetroSwift's budget holds those with one).
        var decompressionRatio: Int
        /// RetroSwift's rules for the response: its head, and the errors a stream's reader sees.
        var policy: any NIOResponsePolicy
    }

    /// RetroSwift's side of a response, as the connection layer needs it: made by `NIOTransport` for each call.
    protocol NIOResponsePolicy: Sendable {
        /// Checks a response head and returns its fields and the budget its body is counted against; throws to refuse
        /// the response before a byte of its body is read.
        func checkHead(_ head: HTTPResponseHead) throws -> CheckedHead
        /// The error a stream's reader sees for a failure after the call returned.
        func translate(_ failure: NIOTransportFailure) -> any Error
    }

    /// A response head RetroSwift accepted.
    struct CheckedHead: Sendable {
        /// The fields, in the order received.
        var headers: HTTPHeaderFields
        /// What the body may bring, counted after decompression.
        var budget: ResponseBodyBudget
    }

    /// A request body as the connection writes it.
    enum NIORequestBody: Sendable {
        /// No body.
        case none
        /// Bytes in memory, written with the head in one flush.
        case bytes(ByteBuffer)
        /// A file on disk, read in chunks by blocking reads on NIOPosix's thread pool, never on the event loop, and sent
        /// with its size as `Content-Length`. `makeSource` is called once per attempt, so a retried request reads the
        /// file again from the start.
        case file(length: Int64, makeSource: @Sendable () -> BlockingChunkSource)
        /// Chunks of an asynchronous sequence (a multipart form, a `@RawBody` stream), iterated afresh for each attempt
        /// and written as the connection takes them; sent chunked when `length` is `nil`.
        case stream(length: Int64?, chunks: HTTPRequestBodyStream)

        /// The body's size, when known.
        var length: Int64? {
            switch self {
            case .none: 0
            case .bytes(let buffer): Int64(buffer.readableBytes)
            case .file(let length, _): length
            case .stream(let length, _): length
            }
        }
    }

    /// Hands out a body's chunks with blocking reads; one job at a time reads it.
    // @unchecked Sendable: `read` is only ever called from one thread-pool job at a time, each started after the
    // previous one completed (the handler's pump sequences them through event-loop futures), so its state is never
    // touched concurrently.
    final class BlockingChunkSource: @unchecked Sendable {
        private let read: () throws -> Data?

        init(_ read: @escaping () throws -> Data?) {
            self.read = read
        }

        /// The next chunk, `nil` at the end.
        func next() throws -> Data? {
            try read()
        }
    }

    /// Reads a request body's file in chunks, opening it at the first read and closing it at the end (or when dropped).
    final class FileChunkReader {
        /// How much one read takes: large enough that a big file needs few thread-pool jobs, small enough to stay light.
        static let chunkSize = 256 * 1024
        private let url: URL
        private var handle: FileHandle?
        private var isAtEnd = false

        init(url: URL) {
            self.url = url
        }

        /// The next chunk, `nil` at the end of the file.
        func read() throws -> Data? {
            guard !isAtEnd else { return nil }
            let handle = try handle ?? FileHandle(forReadingFrom: url)
            self.handle = handle
            guard let chunk = try handle.read(upToCount: Self.chunkSize), !chunk.isEmpty else {
                isAtEnd = true
                self.handle = nil
                try handle.close()
                return nil
            }
            return chunk
        }
    }

    /// Where the body of a 2xx response goes (any other status's body is kept in memory).
    enum NIOResponseDestination: Sendable {
        /// Kept in memory.
        case memory
        /// Written to a new file in this directory, off the event loop.
        case file(directory: URL)
        /// Handed to the caller as it arrives, read from the socket only as the caller reads.
        case stream
    }

    /// What the connection layer returns for a call.
    struct NIOResponse: Sendable {
        var status: Int
        var headers: HTTPHeaderFields
        var body: NIOResponseBody
    }

    /// A response body as the connection layer delivers it.
    enum NIOResponseBody: Sendable {
        case bytes(Data)
        case file(URL)
        case stream(HTTPBodyStream)
    }

    /// The connections a request may use: one pool per scheme, host, port, trust and client identity (and proxy), and one
    /// more for streams, so that
    /// streams held open never take the connections ordinary calls wait for.
    struct OriginKey: Hashable, Sendable {
        var isTLS: Bool
        var host: String
        var port: Int
        /// The domain's trust when not the system's (`nil`): connections verified against other roots or pins are never
        /// shared with it.
        var trust: ServerTrust?
        var forStreams: Bool
        /// The proxy the connection goes through, if any: connections through another proxy, or none, are never shared.
        var proxy: NIOTransport.Proxy? = nil
        /// The client certificate the connection's handshake presents (`https` only): a connection made with one is
        /// never given to a call without it or with another, and the reverse.
        var identity: ClientIdentity? = nil
    }
#endif
