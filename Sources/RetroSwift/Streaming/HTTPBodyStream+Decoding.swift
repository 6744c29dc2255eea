import Foundation

extension HTTPBodyStream: HTTPResponseDecodable, UnbufferedResponse {
    static var bodyDestination: ResponseDestination { .stream }

    /// The body of a 2xx response as it arrives; a transport that kept it in memory gives it as one chunk.
    ///
    /// - Parameters:
    ///   - response: The response.
    ///   - context: The decoder and endpoint (unused).
    /// - Returns: The stream.
    public static func decode(from response: HttpOperationResult, context: ResponseDecodingContext) throws -> HTTPBodyStream {
        response.bodyStream ?? HTTPBodyStream(response.data)
    }
}

extension ResponseDecodingContext {
    /// Decodes one element of a stream, naming where it was in the errors it throws (worded only then: this runs for
    /// every element).
    func decodeElement<T: Decodable>(_ type: T.Type, from bytes: Data, at position: @autoclosure () -> String) throws -> T {
        do {
            return try decoder.decode(T.self, from: bytes)
        } catch {
            throw RequestError(
                .undecodableResponse, endpoint: endpoint,
                reason: "\(position()) of the stream does not decode as \(T.self): \(Self.describe(error))", underlyingError: error
            )
        }
    }

    /// The error for a line, event or record past the limit.
    func tooLarge(_ error: FrameTooLarge) -> RequestError {
        RequestError(
            .undecodableResponse, endpoint: endpoint,
            reason: "\(error.position) of the stream is longer than \(error.limit) bytes"
        )
    }
}

extension FramedReader {
    /// The next frame, with an overlong one reported as a ``RequestError`` naming `context`'s endpoint.
    @inline(__always)  // Into each element's `next()`, as `next()` itself.
    mutating func next(_ context: ResponseDecodingContext) async throws -> Framer.Frame? {
        do {
            return try await next()
        } catch let error as FrameTooLarge {
            throw context.tooLarge(error)
        }
    }
}
