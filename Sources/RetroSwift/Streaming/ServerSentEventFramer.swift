import Foundation

/// The event-stream interpretation of the WHATWG HTML standard (section 9.2.6): lines ended by LF, CR or CR LF; a
/// leading byte order mark dropped; `:` comments ignored; `event`, `data`, `id` (unless it holds a NUL) and `retry`
/// (only ASCII digits) fields; an event dispatched by a blank line when it has data; an event not ended by a blank
/// line before the body ends is dropped.
struct ServerSentEventFramer: StreamFramer {
    /// An event and the number of the blank line that ended it.
    struct Frame: Sendable {
        var event: ServerSentEvent
        var line: Int
    }

    private var lines: LineFramer
    private var lineBuffer: [NumberedLine] = []
    private var isFirstLine = true
    private var eventType = ""
    private var data: [UInt8] = []
    private var hasData = false
    private var lastEventID = ""
    private var retry: Int?
    private let limit: Int

    init(limit: Int = defaultStreamFrameLimit) {
        self.limit = limit
        lines = LineFramer(breaks: .anyNewline, keepsUnterminatedLine: false, limit: limit)
    }

    mutating func append(_ chunk: Data, to frames: inout [Frame]) throws(FrameTooLarge) {
        try lines.append(chunk, to: &lineBuffer)
        for line in lineBuffer { try interpret(line, into: &frames) }
        lineBuffer.removeAll(keepingCapacity: true)
    }

    mutating func finish(to frames: inout [Frame]) throws(FrameTooLarge) {
        // An unfinished line or event is discarded.
    }

    private mutating func interpret(_ line: NumberedLine, into frames: inout [Frame]) throws(FrameTooLarge) {
        var bytes = line.bytes[...]
        if isFirstLine {
            isFirstLine = false
            if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { bytes = bytes.dropFirst(3) }
        }
        if bytes.isEmpty { return dispatch(endingOn: line.number, into: &frames) }
        if bytes.first == UInt8(ascii: ":") { return }
        let name: ArraySlice<UInt8>
        var value: ArraySlice<UInt8>
        if let colon = bytes.firstIndex(of: UInt8(ascii: ":")) {
            name = bytes[..<colon]
            value = bytes[(colon + 1)...]
            if value.first == UInt8(ascii: " ") { value = value.dropFirst() }
        } else {
            name = bytes
            value = []
        }
        switch String(decoding: name, as: UTF8.self) {
        case "event":
            eventType = String(decoding: value, as: UTF8.self)
        case "data":
            if hasData { data.append(StreamByte.lineFeed) }
            data.append(contentsOf: value)
            hasData = true
            if data.count > limit { throw FrameTooLarge(limit: limit, position: "the event whose data reaches line \(line.number)") }
        case "id":
            if !value.contains(0) { lastEventID = String(decoding: value, as: UTF8.self) }
        case "retry":
            if !value.isEmpty, value.allSatisfy({ (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }) {
                retry = Int(String(decoding: value, as: UTF8.self)) ?? Int.max
            }
        default:
            break
        }
    }

    private mutating func dispatch(endingOn line: Int, into frames: inout [Frame]) {
        defer {
            data.removeAll(keepingCapacity: true)
            hasData = false
            eventType = ""
        }
        guard hasData else { return }
        defer { retry = nil }
        let event = ServerSentEvent(
            event: eventType.isEmpty ? "message" : eventType, data: String(decoding: data, as: UTF8.self),
            id: lastEventID.isEmpty ? nil : lastEventID, retry: retry
        )
        frames.append(Frame(event: event, line: line))
    }
}
