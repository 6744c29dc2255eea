import Foundation

/// A `multipart/form-data` body (RFC 7578) whose file parts can be streamed from disk.
struct MultipartFormBody: Sendable {
    /// Where a part's bytes come from.
    enum PartContent: Sendable, Hashable {
        /// A form field's text, sent as UTF-8.
        case text(String)
        /// Bytes in memory.
        case data(Data)
        /// A file on disk, read in chunks when the body is written.
        case file(URL)
    }

    /// One field of the form.
    struct Part: Sendable, Hashable {
        /// The field name.
        let name: String
        /// The file name, for file parts.
        let fileName: String?
        /// The part's media type, for file parts.
        let mimeType: String?
        /// The part's bytes.
        let content: PartContent
    }

    /// The boundary between parts, without the leading dashes.
    let boundary: String
    /// The parts in declaration order.
    let parts: [Part]
    /// The exact number of bytes the body has, file parts measured on disk when the form was made.
    private(set) var length: Int64 = 0

    /// A form of `parts`, measured now: a file part that cannot be read is an error before anything is sent.
    ///
    /// - Throws: The error reading a file part's size.
    init(boundary: String, parts: [Part]) throws {
        self.boundary = boundary
        self.parts = parts
        length = try contentLength()
    }

    /// The form as a transport sends it: its serialized bytes, read as they go out.
    var stream: HTTPRequestBodyStream {
        let segments = segments
        return HTTPRequestBodyStream(length: length) { MultipartChunks(segments: segments) }
    }

    /// The `Content-Type` header value, carrying the boundary.
    var contentType: String {
        "multipart/form-data; boundary=\(boundary)"
    }

    /// The exact number of bytes the body has; file parts are measured on disk.
    func contentLength() throws -> Int64 {
        try segments.reduce(0) { total, segment in
            switch segment {
            case .bytes(let data):
                return total + Int64(data.count)
            case .file(let url):
                return total + (try Self.size(of: url))
            }
        }
    }

    /// The size of the file at `url`, from its attributes.
    static func size(of url: URL) throws -> Int64 {
        let size = try FileManager.default.attributesOfItem(atPath: url.path)[.size] as? NSNumber
        return size?.int64Value ?? 0
    }

    /// A reader handing out the body in chunks, reading file parts from disk as it goes.
    func makeReader(chunkSize: Int = 256 * 1024) -> Reader {
        Reader(segments: segments, chunkSize: chunkSize)
    }

    /// Writes the body to `handle` chunk by chunk, so memory stays flat whatever the file sizes.
    func write(to handle: FileHandle) throws {
        let reader = makeReader()
        while let chunk = try reader.read() {
            try handle.write(contentsOf: chunk)
        }
    }

    /// Writes the body to a new temporary file and returns its URL; the caller deletes it.
    ///
    /// - Parameter directory: Where the file goes; the system's temporary directory by default.
    /// - Returns: The new file, named `retroswift-multipart-…`.
    /// - Throws: The error that stopped the file from being created, a file part from being read, or the body from
    ///   being written; nothing is left behind then.
    func writeToTemporaryFile(in directory: URL = FileManager.default.temporaryDirectory) throws -> URL {
        let (url, handle) = try TemporaryFile.create(.multipart, in: directory)
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
    func data() throws -> Data {
        var body = Data()
        let reader = makeReader()
        while let chunk = try reader.read() {
            body.append(chunk)
        }
        return body
    }

    /// The body as a list of in-memory bytes and files, in wire order.
    var segments: [Segment] {
        var segments: [Segment] = []
        for part in parts {
            var head = Data(header(for: part).utf8)
            switch part.content {
            case .text(let text):
                head.append(contentsOf: text.utf8)
                head.append(contentsOf: "\r\n".utf8)
                segments.append(.bytes(head))
            case .data(let data):
                segments.append(.bytes(head + data + Data("\r\n".utf8)))
            case .file(let url):
                segments += [.bytes(head), .file(url), .bytes(Data("\r\n".utf8))]
            }
        }
        segments.append(.bytes(Data(closingDelimiter.utf8)))
        return segments
    }

    enum Segment: Sendable {
        case bytes(Data)
        case file(URL)
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

    /// Reads a multipart body chunk by chunk; made by ``MultipartFormBody/makeReader(chunkSize:)``.
    ///
    /// Not thread-safe: use one reader from one task at a time.
    // @unchecked Sendable: so that a send's reader can be handed to ``BlockingIO`` for one read while its task waits for
    // that read; it is still used by one task at a time, never concurrently.
    final class Reader: @unchecked Sendable {
        private var segments: ArraySlice<Segment>
        private let chunkSize: Int
        private var file: FileHandle?

        init(segments: [Segment], chunkSize: Int) {
            self.segments = segments[...]
            self.chunkSize = max(1, chunkSize)
        }

        deinit {
            try? file?.close()
        }

        /// The next chunk, or `nil` at the end of the body.
        func read() throws -> Data? {
            while true {
                if let file {
                    if let chunk = try file.read(upToCount: chunkSize), !chunk.isEmpty { return chunk }
                    try file.close()
                    self.file = nil
                }
                guard let segment = segments.popFirst() else { return nil }
                switch segment {
                case .bytes(let data):
                    if !data.isEmpty { return data }
                case .file(let url):
                    file = try FileHandle(forReadingFrom: url)
                }
            }
        }
    }
}

/// A form's bytes, chunk by chunk, read from its segments afresh for each send.
private struct MultipartChunks: AsyncSequence, Sendable {
    typealias Element = Data
    let segments: [MultipartFormBody.Segment]

    func makeAsyncIterator() -> Iterator {
        Iterator(reader: MultipartFormBody.Reader(segments: segments, chunkSize: 256 * 1024))
    }

    struct Iterator: AsyncIteratorProtocol {
        let reader: MultipartFormBody.Reader

        /// The next chunk, read off the cooperative pool: a file part's read may block on the disk.
        mutating func next() async throws -> Data? {
            let reader = reader
            return try await BlockingIO.run { try reader.read() }
        }
    }
}
