#if AsyncHTTPClient
    import Foundation
    import NIOCore
    import RetroSwift

    /// A request body as the async byte sequence async-http-client uploads, reading files (multipart file parts, or
    /// a `@RawBody` file) from disk lazily, so memory stays flat whatever their size.
    struct BodyByteStream: AsyncSequence, Sendable {
        typealias Element = ByteBuffer

        let body: HTTPRequestBody
        let length: Int64
        /// Told of each chunk as the connection takes it, when someone observes the upload.
        let progress: TransferProgressReporter?

        func makeAsyncIterator() -> Iterator {
            Iterator(reader: body.makeReader(), length: length, progress: progress)
        }

        struct Iterator: AsyncIteratorProtocol {
            let reader: MultipartFormBody.Reader
            let length: Int64
            let progress: TransferProgressReporter?
            var sent: Int64 = 0

            mutating func next() async throws -> ByteBuffer? {
                // Asked for the next chunk: the connection has taken the ones before.
                progress?.reportUpload(completed: sent, expected: length)
                guard let chunk = try reader.read() else { return nil }
                sent += Int64(chunk.count)
                return ByteBuffer(bytes: chunk)
            }
        }
    }
#endif
