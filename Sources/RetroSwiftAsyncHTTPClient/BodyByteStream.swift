#if AsyncHTTPClient
    import Foundation
    import AsyncHTTPClient
    import NIOConcurrencyHelpers
    import NIOCore
    @_spi(Transport) import RetroSwift

    /// A request body as the async byte sequence async-http-client uploads: a file read from disk lazily, a stream
    /// read as it goes, so memory stays flat whatever their size.
    struct BodyByteStream: AsyncSequence, Sendable {
        typealias Element = ByteBuffer

        let body: HTTPRequestBody
        /// The body's length, when known: sent as `Content-Length`, else the body goes chunked.
        let length: Int64?

        /// How much of a file one chunk reads.
        static let fileChunkSize = 256 * 1024

        func makeAsyncIterator() -> Iterator {
            Iterator(source: Source(body))
        }

        /// Where the next chunk comes from.
        enum Source {
            case bytes(Data?)
            case file(URL, FileHandle?)
            case stream(HTTPRequestBodyStream.Iterator)

            init(_ body: HTTPRequestBody) {
                switch body {
                case .bytes(let data): self = .bytes(data)
                case .file(let url): self = .file(url, nil)
                case .stream(let stream): self = .stream(stream.makeAsyncIterator())
                }
            }

            mutating func next() async throws -> Data? {
                switch self {
                case .bytes(let data):
                    self = .bytes(nil)
                    return data.flatMap { $0.isEmpty ? nil : $0 }
                case .file(let url, let open):
                    let handle = try open ?? FileHandle(forReadingFrom: url)
                    self = .file(url, handle)
                    guard let chunk = try handle.read(upToCount: BodyByteStream.fileChunkSize), !chunk.isEmpty else {
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

        /// Hands a request body that is not in memory to async-http-client, one chunk ahead of the connection: each write
        /// is waited for (the connection's backpressure) while the next chunk is read, except the last, so the call's end
        /// never waits on the connection taking it.
        ///
        /// A server may answer with a status of 300 or more before it has read the whole body: async-http-client then
        /// pauses the body for good and ends the call only once the writer finishes. `answered` is the call's word that the
        /// whole answer arrived, upon which the writer finishes without sending the rest.
        func upload(on eventLoop: any EventLoop, answered: UploadGate) -> HTTPClient.Body {
            .stream(contentLength: length) { writer in
                let finished = eventLoop.makePromise(of: Void.self)
                finished.completeWithTask {
                    var chunks = makeAsyncIterator()
                    var next = try await chunks.next()
                    while let chunk = next {
                        let written = writer.write(.byteBuffer(chunk))
                        next = try await chunks.next()
                        guard next != nil, await answered.waitUntilTaken(written) else { return }
                    }
                }
                return finished.futureResult
            }
        }

        struct Iterator: AsyncIteratorProtocol {
            var source: Source

            mutating func next() async throws -> ByteBuffer? {
                try await source.next().map { ByteBuffer(bytes: $0) }
            }
        }
    }

    /// Tells a request body's writer that the server has answered in full, so the rest of the body is not waited for.
    final class UploadGate: Sendable {
        private struct State {
            var answered = false
            var waiter: CheckedContinuation<Bool, Never>?
        }

        private let state = NIOLockedValueBox(State())

        /// Waits until `write` is taken by the connection (true), or the server has answered or the write failed
        /// (false), whichever comes first.
        ///
        /// A write fails only once the connection is gone, which async-http-client learns first and reports itself
        /// (or, for an answer that came while the body went out, once that answer has ended). Failing the body's stream
        /// as well would make it drop an answer it read but had not yet handed over (a 413 with `Connection: close`, now
        /// and then), so the writer just stops.
        func waitUntilTaken(_ write: EventLoopFuture<Void>) async -> Bool {
            await withCheckedContinuation { continuation in
                let answered = state.withLockedValue { state in
                    if !state.answered { state.waiter = continuation }
                    return state.answered
                }
                guard !answered else { return continuation.resume(returning: false) }
                write.whenComplete { result in
                    // Whoever takes the waiter resumes it: the write here, or `answer()`.
                    let waiter = self.state.withLockedValue { state in
                        defer { state.waiter = nil }
                        return state.waiter
                    }
                    if case .success = result { waiter?.resume(returning: true) } else { waiter?.resume(returning: false) }
                }
            }
        }

        /// The server's answer arrived whole.
        func answer() {
            let waiter = state.withLockedValue { state in
                state.answered = true
                defer { state.waiter = nil }
                return state.waiter
            }
            waiter?.resume(returning: false)
        }
    }
#endif
