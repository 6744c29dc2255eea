// Target for NIOTransport's unfolding of obs-fold (`ObsFoldUnfolder`, Sources/RetroSwiftNIO/ObsFoldUnfolder.swift,
// which Fuzz/build.sh compiles in explicitly): the bytes a connection reads after a request head went out.
//
// Input: the bytes as the server sent them, read from the first response head on.
//
// Invariants, for any input:
// - the output is exactly as long as the input, and differs from it only where a CR, LF or HTAB became SP;
// - the output does not depend on the chunks the bytes arrive in: whole, cut in two, cut in three with an empty chunk
//   between, and one byte at a time (each ended by `flush()`) give the same bytes;
// - it equals a plain whole-input reading of RFC 9112's head written here: every obs-fold in a field line of a head
//   (interim 1xx heads but 101, then the final one) becomes spaces;
// - the bytes after the first head that is not interim are unchanged;
// - in the field lines of those heads, no line break followed by SP or HTAB remains.

import Foundation

enum FuzzObsFold {
    static let cr: UInt8 = 0x0D
    static let lf: UInt8 = 0x0A
    static let sp: UInt8 = 0x20
    static let htab: UInt8 = 0x09

    /// The whole-input reading: the unfolded bytes, the field lines of each head read (from after its status line to
    /// its empty line, or to the end), and where the bytes stop being heads.
    struct Reading {
        var bytes: [UInt8]
        var fieldSections: [Range<Int>]
        var headsEnd: Int
    }

    static func run(_ input: [UInt8]) {
        let expected = reference(input)
        var first: (name: String, bytes: [UInt8])?
        for (how, chunks) in FuzzStreams.chunkings(input) {
            var unfolder = ObsFoldUnfolder()
            unfolder.expectHead()
            var output: [UInt8] = []
            for chunk in chunks {
                switch unfolder.unfold(bytes: chunk) {
                case .unchanged: output += chunk
                case .replaced(let bytes): output += bytes
                }
            }
            output += unfolder.flush()
            fuzzCheck(
                output.count == input.count, "obs-fold: \(how) gives \(output.count) bytes for \(input.count): \(fuzzShow(input))")
            if let first {
                fuzzCheck(
                    output == first.bytes,
                    "obs-fold: \(first.name) gives \(fuzzShow(first.bytes)); \(how) gives \(fuzzShow(output)); input \(fuzzShow(input))")
            } else {
                first = (how, output)
            }
        }
        let output = first?.bytes ?? []
        fuzzCheck(
            output == expected.bytes,
            "obs-fold: the unfolder gives \(fuzzShow(output)), the reading \(fuzzShow(expected.bytes)); input \(fuzzShow(input))")
        for (index, byte) in output.enumerated() where byte != input[index] {
            fuzzCheck(
                byte == sp && [cr, lf, htab].contains(input[index]), "obs-fold: byte \(index) changed: \(fuzzShow(input))")
        }
        fuzzCheck(
            output[expected.headsEnd...] == input[expected.headsEnd...],
            "obs-fold: bytes after the heads (from \(expected.headsEnd)) changed: \(fuzzShow(input))")
        for section in expected.fieldSections {
            for index in section where output[index] == lf && index + 1 < output.count {
                fuzzCheck(
                    output[index + 1] != sp && output[index + 1] != htab,
                    "obs-fold: a line break at \(index) followed by SP or HTAB remains: \(fuzzShow(output))")
            }
        }
    }

    /// RFC 9112 read over the whole input: a status line (its code the digits after its first SP, if that SP comes
    /// before any CR or LF), field lines each ended by LF or CR LF, then an empty line. A field line's line break
    /// followed by SP or HTAB is an obs-fold: it and the SP and HTAB after it become SP, and the field line goes on.
    /// After an interim head (1xx but 101) another head follows; after any other, the rest is not a head.
    static func reference(_ input: [UInt8]) -> Reading {
        var bytes = input
        var sections: [Range<Int>] = []
        var start = 0
        while start < bytes.count {
            // The status line, to its LF.
            guard let statusEnd = bytes[start...].firstIndex(of: lf) else {
                return Reading(bytes: bytes, fieldSections: sections, headsEnd: bytes.count)
            }
            let beforeBreak = bytes[start..<statusEnd].prefix { $0 != cr }
            var status = 0
            if let space = beforeBreak.firstIndex(of: sp) {
                for digit in bytes[(space + 1)...].prefix(while: { (0x30...0x39).contains($0) }) {
                    status = min(status * 10 + Int(digit - 0x30), 1000)
                }
            }
            // The field lines, to the empty line.
            let fieldsStart = statusEnd + 1
            var line = fieldsStart
            var headEnd: Int?
            while line < bytes.count {
                if bytes[line] == lf {
                    sections.append(fieldsStart..<line)
                    headEnd = line + 1
                    break
                }
                if bytes[line] == cr, line + 1 < bytes.count, bytes[line + 1] == lf {
                    sections.append(fieldsStart..<line)
                    headEnd = line + 2
                    break
                }
                // A field line, with the lines folded onto it.
                var search = line + 1
                while true {
                    guard let end = bytes[search...].firstIndex(of: lf) else {
                        sections.append(fieldsStart..<bytes.count)
                        return Reading(bytes: bytes, fieldSections: sections, headsEnd: bytes.count)
                    }
                    let lineBreak = bytes[end - 1] == cr ? end - 1 : end
                    var after = end + 1
                    guard after < bytes.count, bytes[after] == sp || bytes[after] == htab else {
                        line = end + 1
                        break
                    }
                    while after < bytes.count, bytes[after] == sp || bytes[after] == htab { after += 1 }
                    for index in lineBreak..<after { bytes[index] = sp }
                    search = after
                }
            }
            guard let headEnd else {
                sections.append(fieldsStart..<bytes.count)
                return Reading(bytes: bytes, fieldSections: sections, headsEnd: bytes.count)
            }
            guard (100..<200).contains(status), status != 101 else {
                return Reading(bytes: bytes, fieldSections: sections, headsEnd: headEnd)
            }
            start = headEnd
        }
        return Reading(bytes: bytes, fieldSections: sections, headsEnd: bytes.count)
    }
}

extension ObsFoldUnfolder {
    /// The bytes to pass on for `bytes`, as the handler passes a read's `Span`.
    fileprivate mutating func unfold(bytes: some Collection<UInt8>) -> Output {
        let contiguous = ContiguousArray(bytes)
        return unfold(contiguous.span)
    }
}
