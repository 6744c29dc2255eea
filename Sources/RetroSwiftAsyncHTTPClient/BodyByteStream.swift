#if AsyncHTTPClient
    import Foundation
    import NIOCore
    import RetroSwift

    /// A request body as the async byte sequence async-http-client uploads, reading files (multipart file parts, or
    /// a `@RawBody` file) from disk lazily, so memory stays flat whatever their size.
    struct BodyByteStream: AsyncSequence, Sendable {
        typealias Element = ByteBuffer

        let body: HttpRequestBody

        func makeAsyncIterator() -> Iterator {
            Iterator(reader: body.makeReader())
        }

        struct Iterator: AsyncIteratorProtocol {
            let reader: MultipartFormBody.Reader

            mutating func next() async throws -> ByteBuffer? {
                try reader.read().map { ByteBuffer(bytes: $0) }
            }
        }
    }
#endif
