import Foundation

/// An RFC 7464 JSON text sequence (`application/json-seq`), read value by value while it arrives: each JSON text
/// starts with RS (0x1E) and ends with LF.
///
/// A record that does not decode, or that was cut short (no LF before the next RS or the end, or bytes before the
/// first RS), throws a ``RequestError`` naming the endpoint and the record's number: a truncated `123` would otherwise
/// decode as a wrong number. The status was checked before the call returned, and leaving the loop or cancelling the
/// task closes the connection.
public struct JSONTextSequence<Value: Decodable>: AsyncSequence, Sendable {
    private let body: HTTPBodyStream
    private let context: ResponseDecodingContext

    /// Reads values from `body`, for mocks and custom transports.
    ///
    /// - Parameters:
    ///   - body: The body.
    ///   - context: The decoder for the records, and the endpoint errors name.
    public init(body: HTTPBodyStream, context: ResponseDecodingContext) {
        self.body = body
        self.context = context
    }

    /// Starts reading the records; do this once.
    ///
    /// - Returns: An iterator over the values.
    public func makeAsyncIterator() -> Iterator {
        Iterator(reader: FramedReader(body, framer: RecordFramer(limit: context.responseLimits.maxStreamElementBytes)), context: context)
    }

    /// Reads the values of a ``JSONTextSequence``.
    public struct Iterator: AsyncIteratorProtocol, Sendable {
        private var reader: FramedReader<RecordFramer>
        private let context: ResponseDecodingContext

        fileprivate init(reader: FramedReader<RecordFramer>, context: ResponseDecodingContext) {
            self.reader = reader
            self.context = context
        }

        /// The next value.
        ///
        /// - Returns: The next record's value, or `nil` when the stream has ended.
        /// - Throws: ``RequestError`` when a record does not decode, is truncated or is over 16 MiB; the transport's
        ///   error when the connection failed; `CancellationError` when the task was cancelled.
        public mutating func next() async throws -> Value? {
            guard let record = try await reader.next(context) else { return nil }
            guard record.isComplete else {
                throw RequestError(
                    .undecodableResponse, endpoint: context.endpoint,
                    reason: "record \(record.number) of the stream is truncated: it does not start with RS (0x1E) and end "
                        + "with LF (0x0A) before the next RS or the end"
                )
            }
            return try context.decodeElement(Value.self, from: Data(record.bytes), at: "record \(record.number)")
        }
    }
}

extension JSONTextSequence: HTTPResponseDecodable, UnbufferedResponse {
    static var bodyDestination: ResponseDestination { .stream }

    /// Reads the values of a 2xx response while they arrive.
    ///
    /// - Parameters:
    ///   - response: The response.
    ///   - context: The decoder for the records, and the endpoint.
    /// - Returns: The values.
    public static func decode(from response: HttpOperationResult, context: ResponseDecodingContext) throws -> JSONTextSequence {
        JSONTextSequence(body: try HTTPBodyStream.decode(from: response, context: context), context: context)
    }
}
