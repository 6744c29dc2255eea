import Foundation

/// The event-stream interpretation of the WHATWG HTML standard (section 9.2.6): lines ended by LF, CR or CR LF; a
/// leading byte order mark dropped; `:` comments ignored; `event`, `data`, `id` (unless it holds a NUL) and `retry`
/// (only ASCII digits) fields; an event dispatched by a blank line when it has data; an event not ended by a blank
/// line before the body ends is dropped.
struct ServerSentEventFramer: StreamFramer {
    /// An event, its data still bytes (a typed stream decodes them as they are), and the number of the blank line
    /// that ended it.
    struct Frame: Sendable {
        var type: String?
        var data: Data
        var id: String?
        var retry: Int?
        var line: Int

        var event: ServerSentEvent {
            ServerSentEvent(event: type ?? "message", data: String(decoding: data, as: UTF8.self), id: id, retry: retry)
        }
    }

    private var lines: LineFramer
    private var isFirstLine = true
    private var eventType: String?
    private var data = Data()
    private var hasData = false
    private var lastEventID: String?
    private var retry: Int?
    private let limit: Int

    init(limit: Int = defaultStreamFrameLimit) {
        self.limit = limit
        lines = LineFramer(breaks: .anyNewline, keepsUnterminatedLine: false, limit: limit)
    }

    mutating func append(_ chunk: Data, to frames: inout [Frame]) throws(FrameTooLarge) {
        // Moved out while it calls back into `self`; the placeholder holds no buffer, so `partial` is never copied.
        var lines = self.lines
        self.lines = Self.placeholder
        defer { self.lines = lines }
        try lines.scan(chunk) { line, number throws(FrameTooLarge) in try interpret(line, number, into: &frames) }
    }

    mutating func finish(to frames: inout [Frame]) throws(FrameTooLarge) {
        // An unfinished line or event is discarded.
    }

    private mutating func interpret(_ line: ArraySlice<UInt8>, _ number: Int, into frames: inout [Frame]) throws(FrameTooLarge) {
        var bytes = line
        if isFirstLine {
            isFirstLine = false
            if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { bytes = bytes.dropFirst(3) }
        }
        guard let first = bytes.first else { return dispatch(endingOn: number, into: &frames) }
        if first == UInt8(ascii: ":") { return }
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
        if name == Self.data {
            if hasData { data.append(StreamByte.lineFeed) }
            data.append(contentsOf: value)
            hasData = true
            if data.count > limit { throw FrameTooLarge(limit: limit, position: "the event whose data reaches line \(number)") }
        } else if name == Self.event {
            eventType = value.isEmpty ? nil : String(decoding: value, as: UTF8.self)
        } else if name == Self.id {
            if !value.contains(0) { lastEventID = value.isEmpty ? nil : String(decoding: value, as: UTF8.self) }
        } else if name == Self.retry {
            if !value.isEmpty, value.allSatisfy({ (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }) {
                retry = Int(String(decoding: value, as: UTF8.self)) ?? Int.max
            }
        }
    }

    private static let placeholder = LineFramer(breaks: .anyNewline, keepsUnterminatedLine: false, limit: 0)
    // Slices, so that a field name compares with `==`: its count first, then its bytes (`elementsEqual` on two
    // sequences walked both byte by byte).
    private static let data = ArraySlice("data".utf8)
    private static let event = ArraySlice("event".utf8)
    private static let id = ArraySlice("id".utf8)
    private static let retry = ArraySlice("retry".utf8)

    private mutating func dispatch(endingOn line: Int, into frames: inout [Frame]) {
        defer {
            // A new value rather than `removeAll`: the frame keeps the bytes, so clearing in place would copy them.
            data = Data()
            hasData = false
            eventType = nil
        }
        guard hasData else { return }
        defer { retry = nil }
        frames.append(Frame(type: eventType, data: data, id: lastEventID, retry: retry, line: line))
    }
}
