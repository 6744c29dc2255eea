import Foundation

/// A `multipart/form-data` body (RFC 7578) whose file parts can be streamed from disk.
public struct MultipartFormBody: Sendable {
    /// Where a part's bytes come from.
    public enum PartContent: Sendable, Hashable {
        /// A form field's text, sent as UTF-8.
        case text(String)
        /// Bytes in memory.
        case data(Data)
        /// A file on disk, read in chunks when the body is written.
        case file(URL)
    }

    /// One field of the form.
    public struct Part: Sendable, Hashable {
        /// The field name.
        public let name: String
        /// The file name, for file parts.
        public let fileName: String?
        /// The part's media type, for file parts.
        public let mimeType: String?
        /// The part's bytes.
        public let content: PartContent
    }

    /// The boundary between parts, without the leading dashes.
    public let boundary: String
    /// The parts in declaration order.
    public let parts: [Part]

    /// The `Content-Type` header value, carrying the boundary.
    public var contentType: String {
        "multipart/form-data; boundary=\(boundary)"
    }

    private static let chunkSize = 256 * 1024

    /// The exact number of bytes ``write(to:)`` produces; file parts are measured on disk.
    public func contentLength() throws -> Int64 {
        var total = Int64(closingDelimiter.utf8.count)
        for part in parts {
            total += Int64(header(for: part).utf8.count) + 2
            switch part.content {
            case .text(let text): total += Int64(text.utf8.count)
            case .data(let data): total += Int64(data.count)
            case .file(let url):
                let size = try FileManager.default.attributesOfItem(atPath: url.path)[.size] as? NSNumber
                total += size?.int64Value ?? 0
            }
        }
        return total
    }

    /// Writes the body to `handle`, reading file parts in 256 KiB chunks so memory stays flat.
    public func write(to handle: FileHandle) throws {
        for part in parts {
            try handle.write(contentsOf: Data(header(for: part).utf8))
            switch part.content {
            case .text(let text):
                try handle.write(contentsOf: Data(text.utf8))
            case .data(let data):
                try handle.write(contentsOf: data)
            case .file(let url):
                let source = try FileHandle(forReadingFrom: url)
                defer { try? source.close() }
                while let chunk = try source.read(upToCount: Self.chunkSize), !chunk.isEmpty {
                    try handle.write(contentsOf: chunk)
                }
            }
            try handle.write(contentsOf: Data("\r\n".utf8))
        }
        try handle.write(contentsOf: Data(closingDelimiter.utf8))
    }

    /// Writes the body to a new temporary file and returns its URL; the caller deletes it.
    public func writeToTemporaryFile() throws -> URL {
        let url = FileManager.default.temporaryDirectory
            .appendingPathComponent("retroswift-multipart-\(UUID().uuidString)")
        guard FileManager.default.createFile(atPath: url.path, contents: nil) else {
            throw CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: url.path])
        }
        let handle = try FileHandle(forWritingTo: url)
        defer { try? handle.close() }
        do {
            try write(to: handle)
        } catch {
            try? FileManager.default.removeItem(at: url)
            throw error
        }
        return url
    }

    /// The whole body in memory.
    public func data() throws -> Data {
        var body = Data()
        for part in parts {
            body.append(contentsOf: header(for: part).utf8)
            switch part.content {
            case .text(let text): body.append(contentsOf: text.utf8)
            case .data(let data): body.append(data)
            case .file(let url): body.append(try Data(contentsOf: url))
            }
            body.append(contentsOf: "\r\n".utf8)
        }
        body.append(contentsOf: closingDelimiter.utf8)
        return body
    }

    private var closingDelimiter: String {
        "--\(boundary)--\r\n"
    }

    private func header(for part: Part) -> String {
        var header = "--\(boundary)\r\nContent-Disposition: form-data; name=\"\(Self.quoted(part.name))\""
        if let fileName = part.fileName {
            header += "; filename=\"\(Self.quoted(fileName))\""
        }
        header += "\r\n"
        if let mimeType = part.mimeType {
            header += "Content-Type: \(mimeType)\r\n"
        }
        return header + "\r\n"
    }

    /// Escapes a name or file name for a quoted string the way HTML forms do (WHATWG "multipart/form-data
    /// encoding algorithm"), which servers expect, rather than RFC 2231 `filename*`.
    static func quoted(_ value: String) -> String {
        var result = ""
        result.reserveCapacity(value.utf8.count)
        for scalar in value.unicodeScalars {
            switch scalar {
            case "\"": result += "%22"
            case "\r": result += "%0D"
            case "\n": result += "%0A"
            default: result.unicodeScalars.append(scalar)
            }
        }
        return result
    }
}
