#if AsyncHTTPClient
    import Foundation
    import AsyncHTTPClient
    import NIOConcurrencyHelpers
    import NIOCore
    import NIOPosix
    import RetroSwift

    /// A request body as the async byte sequence async-http-client uploads: a file read from disk lazily, a stream
    /// read as it goes, so memory stays flat whatever their size.
    struct BodyByteStream: AsyncSequence, Sendable {
        typealias Element = ByteBuffer

        let body: HTTPRequestBody
        /// The body's length, when known: sent as `Content-Length`, else the body goes chunked.
        let length: Int64?

        /// How much of a file one chunk reads.
        static let fileChunkSize = 256 * 1024
        /// How much of a body in memory one chunk hands over: each chunk the connection takes is progress for the
        /// timeout (`didSendRequestPart`), so a chunk must go out well within one on a slow link.
        static let bytesChunkSize = 64 * 1024

        func makeAsyncIterator() -> Iterator {
            Iterator(source: Source(body))
        }

        /// Where the next chunk comes from.
        enum Source {
            /// The body, and how much of it was handed over already.
            case bytes(Data?, sent: Int)
            case file(URL, FileHandle?)
            case stream(HTTPRequestBodyStream.Iterator)

            init(_ body: HTTPRequestBody) {
                switch body {
                case .bytes(let data): self = .bytes(data, sent: 0)
                case .file(let url): self = .file(url, nil)
                case .stream(let stream): self = .stream(stream.makeAsyncIterator())
                }
            }

            mutating func next() async throws -> Data? {
                switch self {
                case .bytes(let data, let sent):
                    guard let data, sent < data.count else {
                        self = .bytes(nil, sent: 0)
                        return nil
                    }
                    let end = Swift.min(sent + BodyByteStream.bytesChunkSize, data.count)
                    self = .bytes(data, sent: end)
                    return data[(data.startIndex + sent)..<(data.startIndex + end)]
                case .file(let url, let open):
                    // Opened and read on NIOPosix's thread pool: a read may block on the disk, and a thread of the
                    // cooperative pool (one per core) must never wait for it.
                    let handle: FileHandle
                    if let open {
                        handle = open
                    } else {
                        handle = try await NIOThreadPool.singleton.runIfActive { try FileHandle(forReadingFrom: url) }
                    }
                    self = .file(url, handle)
                    let chunk = try await NIOThreadPool.singleton.runIfActive {
                        try handle.read(upToCount: BodyByteStream.fileChunkSize)
                    }
                    guard let chunk, !chunk.isEmpty else {
                        try handle.close()
                        return nil
                    }
                    return chunk
                case .stream(var iterator):
                    let chunk = try await iterator.next()
                    self = .stream(iterator)
                    return chunk
                }
            }
        }

        /// Hands a request body that is not sent whole (a file, a stream, bytes past
        /// ``AsyncHTTPClientTransport/wholeBodyLimit``) to async-http-client, one chunk ahead of the connection: each
        /// write is waited for (the connection's backpressure) while the next chunk is read.
        ///
        /// Every write, and the body's end, is handed over on `eventLoop`, the call's own (the task's) event loop, and
        /// the end in the same turn of the loop as the write that completes the announced length. async-http-client
        /// 1.37 never gives a connection back to its pool when a body's end comes after the server's whole answer to
        /// it (a server answers once it has read `Content-Length` bytes, before the client has said "end", which
        /// puts nothing on the wire): the connection stayed leased, and after eight such uploads every call to the host
        /// waited for a connection until its timeout. A body of unknown length goes chunked, and its end is the last
        /// chunk the server waits for, so it can come whenever the body's source ends.
        ///
        /// A server may answer with a status of 300 or more before it has read the whole body: async-http-client then
        /// pauses the body for good and ends the call only once the writer finishes. `gate` tells the writer that the
        /// whole answer arrived (or the call ended), upon which it ends the body without sending the rest.
        ///
        /// - Parameters:
        ///   - eventLoop: The event loop of the call's task (`HTTPClient.EventLoopPreference.delegate(on:)`).
        ///   - gate: What the call learns that stops the writer.
        /// - Returns: The body for the request.
        func upload(on eventLoop: any EventLoop, gate: UploadGate) -> HTTPClient.Body {
            .stream(contentLength: length) { writer in
                let finished = eventLoop.makePromise(of: Void.self)
                Task {
                    do {
                        try await write(to: writer, on: eventLoop, gate: gate, finishing: finished)
                    } catch {
                        // Thrown only before the end was handed over: a chunk that could not be read.
                        finished.fail(error)
                    }
                }
                return finished.futureResult
            }
        }

        /// Writes the body's chunks one ahead of the connection and ends it (succeeds `finished`) once, on `eventLoop`.
        private func write(
            to writer: HTTPClient.Body.StreamWriter, on eventLoop: any EventLoop, gate: UploadGate,
            finishing finished: EventLoopPromise<Void>
        ) async throws {
            var chunks = makeAsyncIterator()
            var next = try await chunks.next()
            var handed: Int64 = 0
            while let chunk = next {
                handed += Int64(chunk.readableBytes)
                let completesLength = length.map { handed >= $0 } ?? false
                let written = try await eventLoop.submit {
                    let written = writer.write(.byteBuffer(chunk))
                    if completesLength { finished.succeed() }
                    return written
                }.get()
                if completesLength { return }
                next = try await chunks.next()
                guard next != nil, await gate.waitUntilTaken(written) else {
                    eventLoop.execute { finished.succeed() }
                    return
                }
            }
            eventLoop.execute { finished.succeed() }
        }

        struct Iterator: AsyncIteratorProtocol {
            var source: Source

            mutating func next() async throws -> ByteBuffer? {
                try await source.next().map { ByteBuffer(bytes: $0) }
            }
        }
    }

    /// Paces a request body's writer by what the call learns: each write taken, and the end of the call (the server
    /// answered in full, or the call is over), after which nothing more is waited for.
    final class UploadGate: Sendable {
        private struct State {
            /// The server answered in full, or the call ended: the writer waits for nothing more.
            var released = false
            var takenWaiter: CheckedContinuation<Bool, Never>?
        }

        private let state = NIOLockedValueBox(State())

        /// Waits until `write` is taken by the connection (true), or the gate is released or the write failed
        /// (false), whichever comes first.
        ///
        /// A write fails only once the connection is gone, which async-http-client learns first and reports itself
        /// (or, for an answer that came while the body went out, once that answer has ended). Failing the body's stream
        /// as well would make it drop an answer it read but had not yet handed over, so the writer just stops.
        func waitUntilTaken(_ write: EventLoopFuture<Void>) async -> Bool {
            await withCheckedContinuation { continuation in
                let released = state.withLockedValue { state in
                    if !state.released { state.takenWaiter = continuation }
                    return state.released
                }
                guard !released else { return continuation.resume(returning: false) }
                write.whenComplete { result in
                    // Whoever takes the waiter resumes it: the write here, or `release()`.
                    let waiter = self.state.withLockedValue { state in
                        defer { state.takenWaiter = nil }
                        return state.takenWaiter
                    }
                    if case .success = result { waiter?.resume(returning: true) } else { waiter?.resume(returning: false) }
                }
            }
        }

        /// The server's answer arrived whole, or the call ended: the writer stops waiting, for good.
        func release() {
            let taken = state.withLockedValue { state in
                state.released = true
                defer { state.takenWaiter = nil }
                return state.takenWaiter
            }
            taken?.resume(returning: false)
        }
    }
#endif
