import Foundation

/// One event of a `text/event-stream` body, as the WHATWG HTML standard's event-stream parser dispatches it.
///
/// Declare ``ServerSentEvents``<`ServerSentEvent`> to read the raw events, with their names and ids.
public struct ServerSentEvent: Sendable, Hashable, Codable {
    /// The event type: the last `event:` field of the event, or `message` when it had none.
    public var event: String
    /// The `data:` fields of the event, joined with line feeds.
    public var data: String
    /// The last event id in effect: set by an `id:` field in this event or an earlier one, `nil` when none was set or
    /// the last was empty. Send it back in `Last-Event-ID` to resume the stream.
    public var id: String?
    /// The reconnection time in milliseconds set by a `retry:` field since the previous event, if any.
    public var retry: Int?

    /// Creates an event, for mocks.
    ///
    /// - Parameters:
    ///   - event: The event type.
    ///   - data: The data.
    ///   - id: The last event id.
    ///   - retry: The reconnection time in milliseconds.
    public init(event: String = "message", data: String, id: String? = nil, retry: Int? = nil) {
        self.event = event
        self.data = data
        self.id = id
        self.retry = retry
    }

    /// JSON-decodes ``data``, for events whose data is JSON only sometimes (a closing `[DONE]`, say).
    ///
    /// - Parameters:
    ///   - type: The type to decode.
    ///   - decoder: The decoder to use.
    /// - Returns: The value.
    /// - Throws: The decoder's `DecodingError`.
    public func decodeData<T: Decodable>(as type: T.Type, using decoder: JSONDecoder = JSONDecoder()) throws -> T {
        try decoder.decode(T.self, from: Data(data.utf8))
    }
}
