// Target for the multipart/form-data encoder (`MultipartFormBody`, Sources/RetroSwift/Building/MultipartFormBody.swift):
// field names, file names, media types and contents come from the input, the boundary is RetroSwift's default
// ("RetroSwift-" and a fresh UUID), and the body is read back with a parser written here.
//
// The input is split at 0x1E into parts (at most 8), each split at 0x1F into fields: name, content, file name, media
// type. One or two fields make a text field (`@Field`); three or more a file part (`@FormFile`, the media type
// application/octet-stream when the fourth is missing). A media type RequestBuilder refuses (control characters)
// drops its part, as the request would not be sent.
//
// Invariants:
// - the boundary occurs in the body only in the delimiters: once before each part and once in the close delimiter;
// - each part reads back: its Content-Disposition is `form-data` with exactly `name` (and `filename` for file parts),
//   as quoted strings that end at the first '"', holding the values escaped the HTML way ('"' CR LF as %22 %0D %0A);
//   its Content-Type is the media type; its content is the bytes given, exactly;
// - `contentLength()` is the body's size, and a reader with small chunks gives the same bytes.

import Foundation

enum FuzzMultipart {
    static let partSeparator: UInt8 = 0x1E
    static let fieldSeparator: UInt8 = 0x1F
    static let crlf: [UInt8] = [0x0D, 0x0A]

    static func run(_ bytes: [UInt8]) {
        var parts: [MultipartFormBody.Part] = []
        for description in bytes.split(separator: partSeparator, omittingEmptySubsequences: false).prefix(8) {
            let fields = description.split(separator: fieldSeparator, omittingEmptySubsequences: false)
            let name = String(decoding: fields[0], as: UTF8.self)
            let content = fields.count > 1 ? Array(fields[1]) : []
            if fields.count <= 2 {
                parts.append(.init(name: name, fileName: nil, mimeType: nil, content: .text(String(decoding: content, as: UTF8.self))))
            } else {
                let mimeType = fields.count > 3 ? String(decoding: fields[3], as: UTF8.self) : "application/octet-stream"
                guard HeaderRules.problem(inValue: mimeType) == nil else { continue }
                parts.append(
                    .init(
                        name: name, fileName: String(decoding: fields[2], as: UTF8.self), mimeType: mimeType, content: .data(Data(content)))
                )
            }
        }
        guard !parts.isEmpty else { return }

        let multipart: MultipartFormBody
        let body: [UInt8]
        do {
            multipart = try MultipartFormBody(boundary: "RetroSwift-" + UUID().uuidString, parts: parts)
            body = [UInt8](try multipart.data())
            fuzzCheck(multipart.length == Int64(body.count), "multipart: its measured length is not the body's size")
            fuzzCheck(try multipart.contentLength() == Int64(body.count), "multipart: contentLength() is not the body's size")
            let reader = multipart.makeReader(chunkSize: 1 + Int(fuzzHash(bytes) % 7))
            var chunked: [UInt8] = []
            while let chunk = try reader.read() { chunked += chunk }
            fuzzCheck(chunked == body, "multipart: a reader with small chunks gives other bytes")
        } catch {
            fuzzFail("multipart: an in-memory body threw \(error)")
        }
        readBack(body, boundary: multipart.boundary, parts: parts)
    }

    static func readBack(_ body: [UInt8], boundary: String, parts: [MultipartFormBody.Part]) {
        let delimiter = Array("--\(boundary)".utf8)
        let positions = occurrences(of: delimiter, in: body)
        let bare = occurrences(of: Array(boundary.utf8), in: body)
        fuzzCheck(
            positions.count == parts.count + 1 && bare.count == positions.count,
            "multipart: the boundary occurs \(bare.count) times in the body of \(parts.count) parts: \(fuzzShow(body))")
        fuzzCheck(positions.first == 0, "multipart: the body does not start with the delimiter")
        fuzzCheck(
            body[(positions[positions.count - 1] + delimiter.count)...].elementsEqual(Array("--\r\n".utf8)),
            "multipart: the close delimiter does not end the body")
        for (index, part) in parts.enumerated() {
            let start = positions[index] + delimiter.count
            let end = positions[index + 1] - 2
            fuzzCheck(end >= start && body[end..<(end + 2)].elementsEqual(crlf), "multipart: part \(index) is not followed by CRLF")
            var slice = body[start..<end]
            fuzzCheck(slice.starts(with: crlf), "multipart: delimiter \(index) is not followed by CRLF")
            slice = slice.dropFirst(2)
            guard let headerEnd = firstOccurrence(of: crlf + crlf, in: slice) else {
                fuzzFail("multipart: part \(index) has no header end")
            }
            let headerLines = split(slice[slice.startIndex..<headerEnd])
            let content = slice[(headerEnd + 4)...]

            let expectedLines = part.mimeType == nil ? 1 : 2
            fuzzCheck(
                headerLines.count == expectedLines, "multipart: part \(index) has \(headerLines.count) header lines: \(fuzzShow(slice))")
            guard let parameters = dispositionParameters(headerLines[0]) else {
                fuzzFail("multipart: part \(index) Content-Disposition does not read: \(fuzzShow(headerLines[0]))")
            }
            var expected = [("name", escaped(part.name))]
            if let fileName = part.fileName { expected.append(("filename", escaped(fileName))) }
            fuzzCheck(
                parameters.elementsEqual(expected) { $0.0 == $1.0 && $0.1 == $1.1 },
                "multipart: part \(index) Content-Disposition reads \(parameters), expected \(expected)")
            if let mimeType = part.mimeType {
                fuzzCheck(headerLines[1].elementsEqual(Array("Content-Type: \(mimeType)".utf8)), "multipart: part \(index) Content-Type")
            }
            let given: [UInt8]
            switch part.content {
            case .text(let text): given = Array(text.utf8)
            case .data(let data): given = [UInt8](data)
            case .file: fuzzFail("multipart: no file parts here")
            }
            fuzzCheck(content.elementsEqual(given), "multipart: part \(index) content reads \(fuzzShow(content)), given \(fuzzShow(given))")
        }
    }

    /// `form-data; name="..."; filename="..."` as a list of parameters, each quoted string ending at the first '"'
    /// (what servers parsing HTML-form bodies do); nil when the line is anything else.
    static func dispositionParameters(_ line: ArraySlice<UInt8>) -> [(String, String)]? {
        let prefix = Array("Content-Disposition: form-data".utf8)
        guard line.starts(with: prefix) else { return nil }
        var rest = line.dropFirst(prefix.count)
        var parameters: [(String, String)] = []
        while !rest.isEmpty {
            guard rest.starts(with: Array("; ".utf8)) else { return nil }
            rest = rest.dropFirst(2)
            guard let equals = rest.firstIndex(of: UInt8(ascii: "=")) else { return nil }
            let key = String(decoding: rest[..<equals], as: UTF8.self)
            rest = rest[(equals + 1)...]
            guard rest.first == UInt8(ascii: "\"") else { return nil }
            rest = rest.dropFirst()
            guard let close = rest.firstIndex(of: UInt8(ascii: "\"")) else { return nil }
            parameters.append((key, String(decoding: rest[..<close], as: UTF8.self)))
            rest = rest[(close + 1)...]
        }
        return parameters
    }

    /// The WHATWG multipart/form-data escaping, written here independently of `MultipartFormBody.quoted`.
    static func escaped(_ value: String) -> String {
        var bytes: [UInt8] = []
        for byte in value.utf8 {
            switch byte {
            case UInt8(ascii: "\""): bytes += Array("%22".utf8)
            case 0x0D: bytes += Array("%0D".utf8)
            case 0x0A: bytes += Array("%0A".utf8)
            default: bytes.append(byte)
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    static func split(_ bytes: ArraySlice<UInt8>) -> [ArraySlice<UInt8>] {
        var lines: [ArraySlice<UInt8>] = []
        var rest = bytes
        while let end = firstOccurrence(of: crlf, in: rest) {
            lines.append(rest[rest.startIndex..<end])
            rest = rest[(end + 2)...]
        }
        lines.append(rest)
        return lines
    }

    static func firstOccurrence(of needle: [UInt8], in haystack: ArraySlice<UInt8>) -> Int? {
        guard haystack.count >= needle.count else { return nil }
        var start = haystack.startIndex
        while start + needle.count <= haystack.endIndex {
            if haystack[start..<(start + needle.count)].elementsEqual(needle) { return start }
            start += 1
        }
        return nil
    }

    static func occurrences(of needle: [UInt8], in haystack: [UInt8]) -> [Int] {
        var found: [Int] = []
        var rest = haystack[...]
        while let start = firstOccurrence(of: needle, in: rest) {
            found.append(start)
            rest = haystack[(start + 1)...]
        }
        return found
    }
}
