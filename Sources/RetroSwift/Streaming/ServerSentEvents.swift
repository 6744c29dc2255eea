import Foundation

/// A `text/event-stream` response (Server-Sent Events), read event by event while it arrives: each event's data
/// JSON-decoded as `Value`, or the raw events when `Value` is ``ServerSentEvent``.
///
/// ```swift
/// @Post("/v1/chat/completions")
/// var chat: (ChatRequest) async throws -> ServerSentEvents<ChatDelta>
///
/// for try await delta in try await api.chat(request) { print(delta.text, terminator: "") }
/// ```
///
/// The status was checked before the call returned (a non-2xx response throws ``HTTPError`` with its body), the
/// first event comes as soon as it has arrived, and leaving the loop or cancelling the task closes the connection.
/// Parsing follows the WHATWG HTML standard; events are dispatched by their blank line, so one the body ends before
/// is dropped. An event whose data does not decode throws a ``RequestError`` naming the endpoint, the event's number
/// and its line; a dropped connection throws the transport's error. To resume, declare a `Last-Event-ID` header
/// field and send the last raw event's ``ServerSentEvent/id``.
public struct ServerSentEvents<Value: Decodable>: AsyncSequence, Sendable {
    private let body: HTTPBodyStream
    private let context: ResponseDecodingContext

    /// Reads events from `body`, for mocks and custom transports.
    ///
    /// - Parameters:
    ///   - body: The `text/event-stream` body.
    ///   - context: The decoder for the events' data, and the endpoint errors name.
    public init(body: HTTPBodyStream, context: ResponseDecodingContext) {
        self.body = body
        self.context = context
    }

    /// Starts reading the events; do this once.
    ///
    /// - Returns: An iterator over the events.
    public func makeAsyncIterator() -> Iterator {
        Iterator(
            reader: FramedReader(body, framer: ServerSentEventFramer(limit: context.responseLimits.maxStreamElementBytes)), context: context
        )
    }

    /// Reads the events of a ``ServerSentEvents`` stream.
    public struct Iterator: AsyncIteratorProtocol, Sendable {
        private var reader: FramedReader<ServerSentEventFramer>
        private let context: ResponseDecodingContext
        private var count = 0
        private static var readsRawEvents: Bool { Value.self == ServerSentEvent.self }

        fileprivate init(reader: FramedReader<ServerSentEventFramer>, context: ResponseDecodingContext) {
            self.reader = reader
            self.context = context
        }

        /// The next event.
        ///
        /// - Returns: The event's decoded data, or `nil` when the stream has ended.
        /// - Throws: ``RequestError`` when an event's data does not decode or an event is over 16 MiB; the
        ///   transport's error when the connection failed; `CancellationError` when the task was cancelled.
        public mutating func next() async throws -> Value? {
            guard let frame = try await reader.next(context) else { return nil }
            count += 1
            if Self.readsRawEvents { return Self.rawEvent(frame) }
            return try context.decodeElement(Value.self, from: frame.data, at: "event \(count) (ending on line \(frame.line))")
        }

        /// The event itself, when `Value` is ``ServerSentEvent``. Kept out of ``next()``: its cast needs the metadata of
        /// `Value?`, which this unspecialized generic code would otherwise look up for every event (about 1,200
        /// instructions each, by callgrind).
        @inline(never)
        private static func rawEvent(_ frame: ServerSentEventFramer.Frame) -> Value? {
            frame.event as? Value
        }
    }
}

extension ServerSentEvents: HTTPResponseDecodable, UnbufferedResponse {
    static var bodyDestination: ResponseDestination { .stream }

    /// Reads the events of a 2xx response while they arrive.
    ///
    /// - Parameters:
    ///   - response: The response.
    ///   - context: The decoder for the events' data, and the endpoint.
    /// - Returns: The events.
    public static func decode(from response: HttpOperationResult, context: ResponseDecodingContext) throws -> ServerSentEvents {
        ServerSentEvents(body: try HTTPBodyStream.decode(from: response, context: context), context: context)
    }
}
