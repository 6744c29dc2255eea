import Foundation

/// Cuts an RFC 7464 JSON text sequence into records: each starts with RS (0x1E) and, when whole, ends with LF.
struct RecordFramer: StreamFramer {
    /// A record's bytes without its RS, its number, and whether it ended with LF before the next RS or the end.
    struct Frame: Sendable {
        var bytes: [UInt8]
        var number: Int
        var isComplete: Bool
    }

    let limit: Int
    private var partial: [UInt8] = []
    private var started = false
    private var count = 0

    init(limit: Int = defaultStreamFrameLimit) {
        self.limit = limit
    }

    mutating func append(_ chunk: Data, to frames: inout [Frame]) throws(FrameTooLarge) {
        let bytes = [UInt8](chunk)
        var start = 0
        for index in bytes.indices where bytes[index] == StreamByte.recordSeparator {
            partial.append(contentsOf: bytes[start..<index])
            try emit(to: &frames)
            started = true
            start = index + 1
        }
        partial.append(contentsOf: bytes[start...])
        if partial.count > limit { throw FrameTooLarge(limit: limit, position: "record \(count + 1)") }
    }

    mutating func finish(to frames: inout [Frame]) throws(FrameTooLarge) {
        try emit(to: &frames)
    }

    /// Ends the record before an RS or the end; nothing but whitespace (before the first RS, or between two RSs) is
    /// no record. A record over the limit throws here too, so the answer never depends on where chunks were cut.
    private mutating func emit(to frames: inout [Frame]) throws(FrameTooLarge) {
        if partial.count > limit { throw FrameTooLarge(limit: limit, position: "record \(count + 1)") }
        defer { partial.removeAll(keepingCapacity: true) }
        guard partial.contains(where: { ![0x20, 0x09, 0x0A, 0x0D].contains($0) }) else { return }
        count += 1
        frames.append(Frame(bytes: partial, number: count, isComplete: started && partial.last == StreamByte.lineFeed))
    }
}
