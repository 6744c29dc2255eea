// Plain Swift, no SwiftNIO and no trait: Fuzz/build.sh compiles this file alone into the fuzz binary.

/// Unfolds obs-fold in the response heads of one connection's inbound bytes, before SwiftNIO's parser (llhttp), which
/// refuses it, sees them.
///
/// RFC 9112 §5.2: a user agent that receives an obs-fold (a line break followed by spaces or tabs, inside a field)
/// MUST replace it with one or more SP before interpreting the field value. Each byte of the fold (CR, LF, and every
/// SP or HTAB after the line break) becomes one SP, so the output is exactly as long as the input, and the state is a
/// few bytes whatever the head's size.
///
/// Only a response head is touched, and in it only the field lines: never the status line (its own line end
/// included), the empty line that ends the head, or anything after the head. A 1xx head but `101` is followed by
/// another head; `101` and every final head switch to passing bytes through until ``expectHead()`` says a request
/// head went out. A line break that ends a chunk is decided by the next byte, so up to two bytes are held back and
/// passed on with the next chunk (or by ``flush()`` when the connection closes).
struct ObsFoldUnfolder {
    /// The bytes to pass on for a chunk.
    enum Output: Equatable {
        /// The chunk, as it came: the fast path, no copy.
        case unchanged
        /// These bytes instead of the chunk: a fold unfolded, or bytes held back (from before, or now). Empty when the
        /// whole chunk is held back.
        case replaced([UInt8])
    }

    /// Where in the byte stream the unfolder stands.
    private enum State: Equatable {
        /// Outside a head (a body, or before the first request): bytes pass untouched.
        case passThrough
        /// At the start of a status line, or in its version, before the space.
        case statusVersion
        /// In the status code, its digits read into ``status``.
        case statusCode
        /// In the rest of the status line, after the code.
        case statusRest
        /// After a CR in the status line. Never held: the status line is never changed.
        case statusCR
        /// At the start of a line after the status line: a field line, or the empty line that ends the head.
        case lineStart
        /// After a CR that starts a line: with LF it is the empty line. Never held: the head's end is never changed.
        case emptyLineCR
        /// Inside a field line.
        case field
        /// After a CR in a field line, held back: with LF and then SP or HTAB it is part of a fold.
        case fieldCR
        /// After a field line's line break (CR LF, or a bare LF when `bare`), held back until the next byte says
        /// whether it is a fold.
        case fieldBreak(bare: Bool)
        /// In the spaces and tabs after a fold's line break: each becomes SP.
        case foldWhitespace
    }

    private static let cr: UInt8 = 0x0D
    private static let lf: UInt8 = 0x0A
    private static let sp: UInt8 = 0x20
    private static let htab: UInt8 = 0x09

    /// Nothing is expected until a request head goes out.
    private var state = State.passThrough
    /// The status code of the head being read, as far as its digits went (capped, so that it cannot overflow).
    private var status = 0

    /// How many bytes the state holds back: they are the last bytes seen, not yet passed on.
    private var heldCount: Int {
        switch state {
        case .fieldCR, .fieldBreak(bare: true): 1
        case .fieldBreak(bare: false): 2
        default: 0
        }
    }

    /// The bytes held back, as they came.
    private var heldBytes: [UInt8] {
        switch state {
        case .fieldCR: [Self.cr]
        case .fieldBreak(bare: true): [Self.lf]
        case .fieldBreak(bare: false): [Self.cr, Self.lf]
        default: []
        }
    }

    /// A request head was written: the next bytes are a response head. While a head is still being read (the bytes are
    /// late) it goes on: a head stays a head.
    mutating func expectHead() {
        guard state == .passThrough else { return }
        state = .statusVersion
        status = 0
    }

    /// The bytes to pass on for `chunk`, the next bytes the connection read.
    ///
    /// A `Span`, read byte by byte with nothing but a bounds check, and skipped through inside a line: every response's
    /// head passes here, so the common head, with no fold, costs little more than a look at each byte.
    mutating func unfold(_ chunk: Span<UInt8>) -> Output {
        // Nothing is ever held back while passing through.
        if case .passThrough = state { return .unchanged }
        // The output so far: nil while it is the chunk's bytes up to the current one, unchanged. Bytes held back are
        // kept in it as they came (at its end) until the next byte decides them.
        var output: [UInt8]? = heldCount > 0 ? heldBytes : nil
        let count = chunk.count
        var index = 0
        while index < count {
            if isInsideLine {
                // Inside a field line or after the status code, every byte but CR and LF leaves the state as it is.
                let start = index
                while index < count, chunk[index] != Self.cr, chunk[index] != Self.lf { index += 1 }
                if output != nil { Self.append(chunk, start..<index, to: &output) }
                if index == count { break }
            }
            let byte = chunk[index]
            let held = heldCount
            let (spacesHeld, space) = step(byte)
            if spacesHeld || space, output == nil {
                output = []
                Self.append(chunk, 0..<index, to: &output)
            }
            if spacesHeld, let length = output?.count {
                output?.replaceSubrange((length - held)..<length, with: repeatElement(Self.sp, count: held))
            }
            output?.append(space ? Self.sp : byte)
            index += 1
            if case .passThrough = state {
                // The head ended: the rest is a body, or bytes after the answer, passed on as they are.
                guard output != nil else { return .unchanged }
                Self.append(chunk, index..<count, to: &output)
                return .replaced(output ?? [])
            }
        }
        let held = heldCount
        if held > 0 {
            // The line break at the end waits for the next chunk.
            if output == nil {
                output = []
                Self.append(chunk, 0..<count, to: &output)
            }
            output?.removeLast(held)
        }
        return output.map(Output.replaced) ?? .unchanged
    }

    /// Whether the state is inside a line, where only CR and LF can change it.
    private var isInsideLine: Bool {
        switch state {
        case .field, .statusRest: true
        default: false
        }
    }

    /// Appends `chunk`'s bytes in `range` to `output`.
    private static func append(_ chunk: Span<UInt8>, _ range: Range<Int>, to output: inout [UInt8]?) {
        guard !range.isEmpty, var bytes = output else { return }
        // Taken out of the optional, so that appending never copies it.
        output = nil
        bytes.reserveCapacity(bytes.count + range.count)
        for index in range { bytes.append(chunk[index]) }
        output = bytes
    }

    /// The bytes held back, for when the connection closed: a line break nothing followed is no fold.
    mutating func flush() -> [UInt8] {
        let held = heldBytes
        state = .passThrough
        return held
    }

    /// Moves the state on by `byte`; says whether the bytes held back before it become spaces (a fold), and whether
    /// `byte` does.
    private mutating func step(_ byte: UInt8) -> (spacesHeld: Bool, space: Bool) {
        switch state {
        case .passThrough:
            break
        case .statusVersion:
            switch byte {
            case Self.sp: state = .statusCode
            case Self.cr, Self.lf: statusLine(byte)
            default: break
            }
        case .statusCode:
            if (0x30...0x39).contains(byte) {
                status = min(status * 10 + Int(byte - 0x30), 1000)
            } else {
                statusLine(byte)
            }
        case .statusRest:
            statusLine(byte)
        case .statusCR:
            // A CR without LF is the status line's own byte; llhttp judges it.
            if byte == Self.lf { state = .lineStart } else { statusLine(byte) }
        case .lineStart:
            lineStart(byte)
        case .emptyLineCR:
            // A CR without LF at the start of a line begins a field line; llhttp judges it.
            if byte == Self.lf { endHead() } else { field(byte) }
        case .field:
            field(byte)
        case .fieldCR:
            // A CR without LF is no line break, so it never begins a fold; llhttp judges it.
            if byte == Self.lf { state = .fieldBreak(bare: false) } else { field(byte) }
        case .fieldBreak:
            if byte == Self.sp || byte == Self.htab {
                state = .foldWhitespace
                return (true, true)
            }
            // The line break ended the field line: this byte begins the next line, or the empty line.
            lineStart(byte)
        case .foldWhitespace:
            if byte == Self.sp || byte == Self.htab { return (false, true) }
            field(byte)
        }
        return (false, false)
    }

    /// Moves on by `byte` in the status line, past its version and code.
    private mutating func statusLine(_ byte: UInt8) {
        switch byte {
        case Self.cr: state = .statusCR
        case Self.lf: state = .lineStart
        default: state = .statusRest
        }
    }

    /// Moves on by `byte` at the start of a line after the status line.
    private mutating func lineStart(_ byte: UInt8) {
        switch byte {
        case Self.cr: state = .emptyLineCR
        // A bare LF alone: the empty line.
        case Self.lf: endHead()
        // A line that begins with SP or HTAB here follows the status line, whose line end is never a fold.
        default: state = .field
        }
    }

    /// Moves on by `byte` inside a field line.
    private mutating func field(_ byte: UInt8) {
        switch byte {
        case Self.cr: state = .fieldCR
        case Self.lf: state = .fieldBreak(bare: true)
        default: state = .field
        }
    }

    /// The empty line ended the head: an interim (1xx) head but `101` is followed by another head; after any other, the
    /// bytes are a body or another protocol's, until a request head goes out.
    private mutating func endHead() {
        if (100..<200).contains(status), status != 101 {
            state = .statusVersion
            status = 0
        } else {
            state = .passThrough
        }
    }
}
