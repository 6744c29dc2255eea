import Foundation

/// A JSON Lines (NDJSON) response, read value by value while it arrives: one JSON text per line.
///
/// ```swift
/// @Get("/v1/logs")
/// var tail: (TailRequest) async throws -> JSONLines<LogEntry>
/// ```
///
/// Lines end with LF, with or without a CR before it; the last line needs no line break, and blank lines are
/// skipped. A line that does not decode throws a ``RequestError`` naming the endpoint and the line number. The status
/// was checked before the call returned, and leaving the loop or cancelling the task closes the connection.
public struct JSONLines<Value: Decodable>: AsyncSequence, Sendable {
    private let body: HTTPBodyStream
    private let context: ResponseDecodingContext

    /// Reads values from `body`, for mocks and custom transports.
    ///
    /// - Parameters:
    ///   - body: The body.
    ///   - context: The decoder for the lines, and the endpoint errors name.
    public init(body: HTTPBodyStream, context: ResponseDecodingContext) {
        self.body = body
        self.context = context
    }

    /// Starts reading the lines; do this once.
    ///
    /// - Returns: An iterator over the values.
    public func makeAsyncIterator() -> Iterator {
        Iterator(
            reader: FramedReader(
                body,
                framer: LineFramer(breaks: .lineFeed, keepsUnterminatedLine: true, limit: context.responseLimits.maxStreamElementBytes)),
            context: context)
    }

    /// Reads the values of a ``JSONLines`` stream.
    public struct Iterator: AsyncIteratorProtocol, Sendable {
        private var reader: FramedReader<LineFramer>
        private let context: ResponseDecodingContext

        fileprivate init(reader: FramedReader<LineFramer>, context: ResponseDecodingContext) {
            self.reader = reader
            self.context = context
        }

        /// The next value.
        ///
        /// - Returns: The next line's value, or `nil` when the stream has ended.
        /// - Throws: ``RequestError`` when a line does not decode or is over 16 MiB; the transport's error when the
        ///   connection failed; `CancellationError` when the task was cancelled.
        public mutating func next() async throws -> Value? {
            while let line = try await reader.next(context) {
                if line.bytes.allSatisfy({ $0 == 0x20 || $0 == 0x09 }) { continue }
                return try context.decodeElement(Value.self, from: Data(line.bytes), at: "line \(line.number)")
            }
            return nil
        }
    }
}

extension JSONLines: HTTPResponseDecodable, UnbufferedResponse {
    static var bodyDestination: ResponseDestination { .stream }

    /// Reads the values of a 2xx response while they arrive.
    ///
    /// - Parameters:
    ///   - response: The response.
    ///   - context: The decoder for the lines, and the endpoint.
    /// - Returns: The values.
    public static func decode(from response: HttpOperationResult, context: ResponseDecodingContext) throws -> JSONLines {
        JSONLines(body: try HTTPBodyStream.decode(from: response, context: context), context: context)
    }
}
