import Foundation

/// A text response read line by line while it arrives, decoded as UTF-8 (invalid bytes become U+FFFD).
///
/// Lines end with LF, CR or CR LF, which are not part of the line; the last line needs no line break. The status was
/// checked before the call returned, and leaving the loop or cancelling the task closes the connection.
public struct TextLines: AsyncSequence, Sendable {
    private let body: HTTPBodyStream
    private let context: ResponseDecodingContext

    /// Reads lines from `body`, for mocks and custom transports.
    ///
    /// - Parameters:
    ///   - body: The body.
    ///   - context: The endpoint errors name.
    public init(body: HTTPBodyStream, context: ResponseDecodingContext) {
        self.body = body
        self.context = context
    }

    /// Starts reading the lines; do this once.
    ///
    /// - Returns: An iterator over the lines.
    public func makeAsyncIterator() -> Iterator {
        Iterator(
            reader: FramedReader(
                body,
                framer: LineFramer(breaks: .anyNewline, keepsUnterminatedLine: true, limit: context.responseLimits.maxStreamElementBytes)),
            context: context)
    }

    /// Reads the lines of a ``TextLines`` stream.
    public struct Iterator: AsyncIteratorProtocol, Sendable {
        private var reader: FramedReader<LineFramer>
        private let context: ResponseDecodingContext

        fileprivate init(reader: FramedReader<LineFramer>, context: ResponseDecodingContext) {
            self.reader = reader
            self.context = context
        }

        /// The next line.
        ///
        /// - Returns: The line, or `nil` when the stream has ended.
        /// - Throws: ``RequestError`` when a line is over 16 MiB; the transport's error when the connection failed;
        ///   `CancellationError` when the task was cancelled.
        public mutating func next() async throws -> String? {
            try await reader.next(context)?.text
        }
    }
}

extension TextLines: HTTPResponseDecodable, UnbufferedResponse {
    static var bodyDestination: ResponseDestination { .stream }

    /// Reads the lines of a 2xx response while they arrive.
    ///
    /// - Parameters:
    ///   - response: The response.
    ///   - context: The endpoint.
    /// - Returns: The lines.
    public static func decode(from response: HttpOperationResult, context: ResponseDecodingContext) throws -> TextLines {
        TextLines(body: try HTTPBodyStream.decode(from: response, context: context), context: context)
    }
}
