import Foundation

/// Cuts a byte stream into frames (lines, events, records), whatever the chunks it arrives in: feeding the same bytes
/// split anywhere gives the same frames.
protocol StreamFramer: Sendable {
    associatedtype Frame: Sendable

    /// Adds the frames `chunk` completes to `frames`.
    mutating func append(_ chunk: Data, to frames: inout [Frame]) throws(FrameTooLarge)
    /// Adds what the end of the stream completes.
    mutating func finish(to frames: inout [Frame]) throws(FrameTooLarge)
}

/// A line, event or record grew past the limit before it ended: a server that never ends one would otherwise make the
/// client buffer without bound.
struct FrameTooLarge: Error {
    let limit: Int
    /// Where the frame began, such as `line 12` or `record 3`.
    let position: String
}

/// The byte values framers look for.
enum StreamByte {
    static let lineFeed: UInt8 = 0x0A
    static let carriageReturn: UInt8 = 0x0D
    static let recordSeparator: UInt8 = 0x1E
}

/// Reads an ``HTTPBodyStream`` frame by frame.
struct FramedReader<Framer: StreamFramer>: Sendable {
    private var chunks: HTTPBodyStream.Iterator
    private var framer: Framer
    private var frames: [Framer.Frame] = []
    private var nextFrame = 0
    private var ended = false
    private var pendingError: (any Error)?

    init(_ body: HTTPBodyStream, framer: Framer) {
        chunks = body.makeAsyncIterator()
        self.framer = framer
    }

    /// The next frame, or `nil` at the end of the body. An error comes after the frames completed before it, once;
    /// then `nil`.
    @inline(__always)  // Into each element's `next()`: with `next(_:)`, two async calls an element were 750 instructions.
    mutating func next() async throws -> Framer.Frame? {
        while nextFrame == frames.count {
            if let error = pendingError {
                pendingError = nil
                throw error
            }
            guard !ended else { return nil }
            frames.removeAll(keepingCapacity: true)
            nextFrame = 0
            do {
                if let chunk = try await chunks.next() {
                    try framer.append(chunk, to: &frames)
                } else {
                    ended = true
                    try framer.finish(to: &frames)
                }
            } catch {
                ended = true
                pendingError = error
            }
        }
        defer { nextFrame += 1 }
        return frames[nextFrame]
    }
}

/// One line of a body and its 1-based number.
struct NumberedLine: Sendable {
    var bytes: ArraySlice<UInt8>
    var number: Int

    var text: String {
        String(decoding: bytes, as: UTF8.self)
    }
}

/// Cuts a body into lines.
struct LineFramer: StreamFramer {
    /// What ends a line.
    enum Breaks: Sendable {
        /// LF, CR, or CR LF (Server-Sent Events, text).
        case anyNewline
        /// LF, with a CR before it dropped (JSON Lines).
        case lineFeed
    }

    let breaks: Breaks
    /// Whether a last line without a line break counts (it does not for Server-Sent Events).
    let keepsUnterminatedLine: Bool
    let limit: Int
    private var partial: [UInt8] = []
    private var afterCarriageReturn = false
    private var lineNumber = 0

    init(breaks: Breaks, keepsUnterminatedLine: Bool, limit: Int) {
        self.breaks = breaks
        self.keepsUnterminatedLine = keepsUnterminatedLine
        self.limit = limit
    }

    mutating func append(_ chunk: Data, to lines: inout [NumberedLine]) throws(FrameTooLarge) {
        try scan(chunk) { line, number throws(FrameTooLarge) in lines.append(NumberedLine(bytes: line, number: number)) }
    }

    mutating func finish(to lines: inout [NumberedLine]) throws(FrameTooLarge) {
        try scanEnd { line, number throws(FrameTooLarge) in lines.append(NumberedLine(bytes: line, number: number)) }
    }

    /// Calls `onLine` with each line `chunk` completes, without its line break, and its number. A line within one
    /// chunk is a slice of that chunk's bytes, not a copy.
    mutating func scan(
        _ chunk: Data, _ onLine: (ArraySlice<UInt8>, Int) throws(FrameTooLarge) -> Void
    ) throws(FrameTooLarge) {
        let bytes = [UInt8](chunk)
        var start = 0
        var index = 0
        if afterCarriageReturn, let first = bytes.first {
            afterCarriageReturn = false
            if first == StreamByte.lineFeed {
                start = 1
                index = 1
            }
        }
        let carriageReturnBreaks = breaks == .anyNewline
        while let found = UTF8Bytes.firstLineBreak(in: bytes, from: index, carriageReturnBreaks: carriageReturnBreaks) {
            index = found
            let byte = bytes[index]
            try emit(bytes[start..<index], onLine)
            if byte == StreamByte.carriageReturn {
                if index + 1 < bytes.count {
                    if bytes[index + 1] == StreamByte.lineFeed { index += 1 }
                } else {
                    afterCarriageReturn = true
                }
            }
            start = index + 1
            index += 1
        }
        partial.append(contentsOf: bytes[start...])
        // A CR just before the LF is not part of a `.lineFeed` line (``emit`` drops it), so it does not count here
        // either: a line at the limit passes whether or not a chunk ends between its CR and LF.
        let trailingCarriageReturn = breaks == .lineFeed && partial.last == StreamByte.carriageReturn ? 1 : 0
        if partial.count - trailingCarriageReturn > limit { throw FrameTooLarge(limit: limit, position: "line \(lineNumber + 1)") }
    }

    /// Calls `onLine` with the last line when it has no line break and counts.
    mutating func scanEnd(_ onLine: (ArraySlice<UInt8>, Int) throws(FrameTooLarge) -> Void) throws(FrameTooLarge) {
        guard keepsUnterminatedLine, !partial.isEmpty else { return }
        try emit([], onLine)
    }

    private mutating func emit(
        _ tail: ArraySlice<UInt8>, _ onLine: (ArraySlice<UInt8>, Int) throws(FrameTooLarge) -> Void
    ) throws(FrameTooLarge) {
        lineNumber += 1
        var line: ArraySlice<UInt8>
        if partial.isEmpty {
            line = tail
        } else {
            var joined = partial
            joined.append(contentsOf: tail)
            partial.removeAll(keepingCapacity: true)
            line = joined[...]
        }
        if breaks == .lineFeed, line.last == StreamByte.carriageReturn { line.removeLast() }
        guard line.count <= limit else { throw FrameTooLarge(limit: limit, position: "line \(lineNumber)") }
        try onLine(line, lineNumber)
    }
}

/// The largest line, event or record a stream accepts by default: 16 MiB (``ResponseLimits/maxStreamElementBytes``).
let defaultStreamFrameLimit = ResponseLimits.default.maxStreamElementBytes
