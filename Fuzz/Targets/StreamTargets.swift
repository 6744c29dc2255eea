// Targets for the framers of streamed bodies: Server-Sent Events (`ServerSentEventFramer`), text lines and JSON Lines
// (`LineFramer`), JSON text sequences (`RecordFramer`), and their frame-size limits.
//
// Invariants, for any bytes:
// - the frames do not depend on the chunks the bytes arrive in: whole, cut in two at a point derived from the bytes,
//   cut in three with an empty chunk between, and one byte at a time all give the same frames (and the same
//   FrameTooLarge, if any);
// - the frames equal those of a plain whole-input reading of the format written here (the WHATWG event-stream
//   interpretation, line splitting, RFC 7464 record splitting);
// - with a limit, no frame is larger than the limit, and the frames are those of the unlimited reading, or a prefix
//   of them when FrameTooLarge was thrown.

import Foundation

enum FuzzStreams {
    static let lineFeed: UInt8 = 0x0A
    static let carriageReturn: UInt8 = 0x0D
    static let recordSeparator: UInt8 = 0x1E

    struct Line: Equatable {
        var bytes: [UInt8]
        var number: Int
    }

    struct Event: Equatable {
        var type: String?
        var data: [UInt8]
        var id: String?
        var retry: Int?
        var line: Int
    }

    struct Record: Equatable {
        var bytes: [UInt8]
        var number: Int
        var isComplete: Bool
    }

    // MARK: Targets

    static func serverSentEvents(_ bytes: [UInt8]) {
        let events = chunkingInvariant("sse", bytes, make: { ServerSentEventFramer() }, key: event).frames
        let expected = referenceEvents(bytes)
        fuzzCheck(events == expected, "sse: framer gives \(events), the event-stream reading gives \(expected)")
        var previousLine = 0
        for event in events {
            fuzzCheck(!event.data.contains(carriageReturn), "sse: CR inside event data \(fuzzShow(event.data))")
            for text in [event.type, event.id].compactMap({ $0 }) {
                fuzzCheck(
                    !text.utf8.contains(lineFeed) && !text.utf8.contains(carriageReturn), "sse: line break in \(text.debugDescription)")
            }
            fuzzCheck(event.id?.utf8.contains(0) != true, "sse: NUL in id")
            fuzzCheck(event.retry.map { $0 >= 0 } ?? true, "sse: negative retry")
            fuzzCheck(event.line > previousLine, "sse: event line numbers not increasing")
            previousLine = event.line
        }
    }

    static func textLines(_ bytes: [UInt8]) {
        let lines = chunkingInvariant("text-lines", bytes, make: textLineFramer(limit: defaultStreamFrameLimit), key: line).frames
        let expected = referenceLines(bytes, anyNewline: true, keepsUnterminated: true)
        fuzzCheck(lines == expected, "text-lines: framer gives \(lines), line splitting gives \(expected)")
        for line in lines {
            fuzzCheck(!line.bytes.contains(lineFeed) && !line.bytes.contains(carriageReturn), "text-lines: line break inside a line")
        }
    }

    static func jsonLines(_ bytes: [UInt8]) {
        let lines = chunkingInvariant("json-lines", bytes, make: jsonLineFramer(limit: defaultStreamFrameLimit), key: line).frames
        let expected = referenceLines(bytes, anyNewline: false, keepsUnterminated: true)
        fuzzCheck(lines == expected, "json-lines: framer gives \(lines), LF splitting gives \(expected)")
        for line in lines {
            fuzzCheck(!line.bytes.contains(lineFeed), "json-lines: LF inside a line")
        }
    }

    static func jsonTextSequence(_ bytes: [UInt8]) {
        let records = chunkingInvariant("json-seq", bytes, make: { RecordFramer() }, key: record).frames
        let expected = referenceRecords(bytes)
        fuzzCheck(records == expected, "json-seq: framer gives \(records), RS splitting gives \(expected)")
        for record in records {
            fuzzCheck(!record.bytes.contains(recordSeparator), "json-seq: RS inside a record")
        }
    }

    /// The first byte picks the framer, the second the limit (0 to 23 bytes); the rest is the stream.
    static func frameLimits(_ input: [UInt8]) {
        guard input.count >= 2 else { return }
        let limit = Int(input[1] % 24)
        let bytes = Array(input.dropFirst(2))
        switch input[0] % 4 {
        case 0:
            let (events, error) = chunkingInvariant("sse limit \(limit)", bytes, make: { ServerSentEventFramer(limit: limit) }, key: event)
            limited("sse", events, error, reference: referenceEvents(bytes), limit: limit) { $0.data.count }
        case 1:
            let (lines, error) = chunkingInvariant("text-lines limit \(limit)", bytes, make: textLineFramer(limit: limit), key: line)
            limited("text-lines", lines, error, reference: referenceLines(bytes, anyNewline: true, keepsUnterminated: true), limit: limit) {
                $0.bytes.count
            }
        case 2:
            let (lines, error) = chunkingInvariant("json-lines limit \(limit)", bytes, make: jsonLineFramer(limit: limit), key: line)
            limited("json-lines", lines, error, reference: referenceLines(bytes, anyNewline: false, keepsUnterminated: true), limit: limit)
            {
                $0.bytes.count
            }
        default:
            let (records, error) = chunkingInvariant("json-seq limit \(limit)", bytes, make: { RecordFramer(limit: limit) }, key: record)
            limited("json-seq", records, error, reference: referenceRecords(bytes), limit: limit) { $0.bytes.count }
        }
    }

    private static func limited<Frame: Equatable>(
        _ name: String, _ frames: [Frame], _ error: String?, reference: [Frame], limit: Int, size: (Frame) -> Int
    ) {
        for frame in frames {
            fuzzCheck(size(frame) <= limit, "\(name): a frame of \(size(frame)) bytes passed the limit of \(limit): \(frame)")
        }
        if error == nil {
            fuzzCheck(frames == reference, "\(name) limit \(limit): no error, but framer gives \(frames), reference \(reference)")
        } else {
            fuzzCheck(
                reference.starts(with: frames),
                "\(name) limit \(limit): frames before \(error ?? "") \(frames) are not a prefix of \(reference)")
        }
    }

    // MARK: Feeding in chunks

    private static func textLineFramer(limit: Int) -> () -> LineFramer {
        { LineFramer(breaks: .anyNewline, keepsUnterminatedLine: true, limit: limit) }
    }

    private static func jsonLineFramer(limit: Int) -> () -> LineFramer {
        { LineFramer(breaks: .lineFeed, keepsUnterminatedLine: true, limit: limit) }
    }

    private static func event(_ frame: ServerSentEventFramer.Frame) -> Event {
        Event(type: frame.type, data: [UInt8](frame.data), id: frame.id, retry: frame.retry, line: frame.line)
    }

    private static func line(_ frame: NumberedLine) -> Line {
        Line(bytes: Array(frame.bytes), number: frame.number)
    }

    private static func record(_ frame: RecordFramer.Frame) -> Record {
        Record(bytes: frame.bytes, number: frame.number, isComplete: frame.isComplete)
    }

    /// The same bytes cut in several ways derived from them.
    static func chunkings(_ bytes: [UInt8]) -> [(name: String, chunks: [Data])] {
        let hash = fuzzHash(bytes)
        let count = bytes.count
        let cut = Int(hash % UInt64(count + 1))
        let secondCut = cut + Int((hash >> 32) % UInt64(count - cut + 1))
        var result: [(name: String, chunks: [Data])] = [
            ("whole", [Data(bytes)]),
            ("cut at \(cut)", [Data(bytes[..<cut]), Data(bytes[cut...])]),
            (
                "cut at \(cut) and \(secondCut), empty chunk between",
                [Data(bytes[..<cut]), Data(), Data(bytes[cut..<secondCut]), Data(bytes[secondCut...])]
            ),
        ]
        // Every byte boundary at once; longer inputs in chunks of 2 to 9 bytes to keep executions fast.
        let step = count <= 4096 ? 1 : 2 + Int(hash >> 60) % 8
        result.append(("\(step)-byte chunks", stride(from: 0, to: count, by: step).map { Data(bytes[$0..<min($0 + step, count)]) }))
        return result
    }

    /// Feeds `chunks` as `FramedReader` does: frames until the first error, then nothing more.
    static func feed<Framer: StreamFramer>(_ framer: Framer, _ chunks: [Data]) -> (frames: [Framer.Frame], error: FrameTooLarge?) {
        var framer = framer
        var frames: [Framer.Frame] = []
        do {
            for chunk in chunks { try framer.append(chunk, to: &frames) }
            try framer.finish(to: &frames)
            return (frames, nil)
        } catch {
            return (frames, error)
        }
    }

    /// Fails unless every chunking gives the same frames and error; returns them.
    static func chunkingInvariant<Framer: StreamFramer, Key: Equatable>(
        _ name: String, _ bytes: [UInt8], make: () -> Framer, key: (Framer.Frame) -> Key
    ) -> (frames: [Key], error: String?) {
        var first: (name: String, frames: [Key], error: String?)?
        for (how, chunks) in chunkings(bytes) {
            let (frames, error) = feed(make(), chunks)
            let keys = frames.map(key)
            let described = error.map { "FrameTooLarge(limit: \($0.limit), position: \($0.position))" }
            if let first {
                fuzzCheck(
                    keys == first.frames && described == first.error,
                    "\(name): \(first.name) gives \(first.frames) \(first.error ?? "no error"); \(how) gives \(keys) "
                        + "\(described ?? "no error"); input \(fuzzShow(bytes))"
                )
            } else {
                first = (how, keys, described)
            }
        }
        return (first?.frames ?? [], first?.error)
    }

    // MARK: Whole-input readings of the formats

    /// Lines ended by LF, CR or CR LF (`anyNewline`), or by LF with one CR before it dropped; numbered from 1.
    static func referenceLines(_ bytes: [UInt8], anyNewline: Bool, keepsUnterminated: Bool) -> [Line] {
        var lines: [Line] = []
        var current: [UInt8] = []
        func end() {
            if !anyNewline, current.last == carriageReturn { current.removeLast() }
            lines.append(Line(bytes: current, number: lines.count + 1))
            current = []
        }
        var index = 0
        while index < bytes.count {
            let byte = bytes[index]
            if byte == lineFeed || (anyNewline && byte == carriageReturn) {
                end()
                if byte == carriageReturn, index + 1 < bytes.count, bytes[index + 1] == lineFeed { index += 1 }
            } else {
                current.append(byte)
            }
            index += 1
        }
        if keepsUnterminated, !current.isEmpty { end() }
        return lines
    }

    /// The event-stream interpretation (WHATWG HTML §9.2.6) over the whole input, with RetroSwift's choices: an
    /// empty `event` or `id` is nil, `retry` belongs to the next event dispatched, an overflowing `retry` is Int.max.
    static func referenceEvents(_ input: [UInt8]) -> [Event] {
        let bom: [UInt8] = [0xEF, 0xBB, 0xBF]
        let bytes = input.starts(with: bom) ? Array(input.dropFirst(3)) : input
        var events: [Event] = []
        var type: String?
        var data: [UInt8] = []
        var hasData = false
        var lastID: String?
        var retry: Int?
        for line in referenceLines(bytes, anyNewline: true, keepsUnterminated: false) {
            let text = line.bytes
            if text.isEmpty {
                if hasData {
                    events.append(Event(type: type, data: data, id: lastID, retry: retry, line: line.number))
                    retry = nil
                }
                type = nil
                data = []
                hasData = false
                continue
            }
            if text[0] == UInt8(ascii: ":") { continue }
            let colon = text.firstIndex(of: UInt8(ascii: ":"))
            let name = String(decoding: text[..<(colon ?? text.endIndex)], as: UTF8.self)
            var value = colon.map { Array(text[($0 + 1)...]) } ?? []
            if value.first == UInt8(ascii: " ") { value.removeFirst() }
            // A name with invalid UTF-8 decodes with U+FFFD, so it never equals one of these.
            switch name {
            case "data":
                if hasData { data.append(lineFeed) }
                data += value
                hasData = true
            case "event":
                type = value.isEmpty ? nil : String(decoding: value, as: UTF8.self)
            case "id":
                if !value.contains(0) { lastID = value.isEmpty ? nil : String(decoding: value, as: UTF8.self) }
            case "retry":
                if !value.isEmpty, value.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }) {
                    retry = Int(String(decoding: value, as: UTF8.self)) ?? Int.max
                }
            default:
                break
            }
        }
        return events
    }

    /// RFC 7464: records start with RS; what precedes the first RS is a record too, truncated; whitespace-only
    /// stretches are no record; a record is complete when it ends with LF and followed an RS.
    static func referenceRecords(_ bytes: [UInt8]) -> [Record] {
        var records: [Record] = []
        for (index, piece) in bytes.split(separator: recordSeparator, omittingEmptySubsequences: false).enumerated()
        where piece.contains(where: { ![0x20, 0x09, 0x0A, 0x0D].contains($0) }) {
            records.append(Record(bytes: Array(piece), number: records.count + 1, isComplete: index > 0 && piece.last == lineFeed))
        }
        return records
    }
}
