#if AsyncHTTPClient
    import Foundation
    import NIOCore
    import RetroSwift

    /// A multipart body as the async byte sequence async-http-client uploads, reading file parts from disk lazily.
    struct MultipartByteStream: AsyncSequence, Sendable {
        typealias Element = ByteBuffer

        let form: MultipartFormBody

        func makeAsyncIterator() -> Iterator {
            Iterator(reader: form.makeReader())
        }

        struct Iterator: AsyncIteratorProtocol {
            let reader: MultipartFormBody.Reader

            mutating func next() async throws -> ByteBuffer? {
                try reader.read().map { ByteBuffer(bytes: $0) }
            }
        }
    }
#endif
