#if AsyncHTTPClient
    import Foundation
    import NIOCore
    @_spi(Transport) import RetroSwift

    /// A request body as the async byte sequence async-http-client uploads: a file read from disk lazily, a stream
    /// read as it goes, so memory stays flat whatever their size.
    struct BodyByteStream: AsyncSequence, Sendable {
        typealias Element = ByteBuffer

        let body: HTTPRequestBody
        /// The body's length, when known, for progress.
        let length: Int64?
        /// Told of each chunk as the connection takes it, when someone observes the upload.
        let progress: TransferProgressReporter?

        /// How much of a file one chunk reads.
        static let fileChunkSize = 256 * 1024

        func makeAsyncIterator() -> Iterator {
            Iterator(source: Source(body), length: length, progress: progress)
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

        struct Iterator: AsyncIteratorProtocol {
            var source: Source
            let length: Int64?
            let progress: TransferProgressReporter?
            var sent: Int64 = 0

            mutating func next() async throws -> ByteBuffer? {
                // Asked for the next chunk: the connection has taken the ones before.
                progress?.reportUpload(completed: sent, expected: length)
                guard let chunk = try await source.next() else { return nil }
                sent += Int64(chunk.count)
                return ByteBuffer(bytes: chunk)
            }
        }
    }
#endif
