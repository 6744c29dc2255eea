import Foundation
import RetroSwift

/// Where a request body comes from: memory, or a file on disk — a multipart body with file parts written to a
/// temporary file of ours, or the caller's own file sent as the whole body.
enum UploadSource {
    case none
    case data(Data)
    /// A file to upload from; `ours` when it is a temporary file we wrote and must delete.
    case file(URL, ours: Bool)

    init(_ body: HTTPRequestBody?, temporaryDirectory: URL) async throws {
        guard let body else {
            self = .none
            return
        }
        switch body {
        case .bytes(let data):
            self = .data(data)
        #if canImport(FoundationNetworking)
            // swift-corelibs-foundation's upload from a file brings the process down when the transfer ends (it is
            // cancelled or times out) while the file is being read: its `try!` around curl_easy_pause fails on a
            // handle that has lost its connection. Bytes in memory are never paused, and still go with
            // their Content-Length (a body stream would go chunked), so on Linux file bodies and streams are read into
            // memory.
            case .file(let url):
                self = .data(try await BlockingIO.run { try Data(contentsOf: url) })
            case .stream(let stream):
                self = .data(try await Self.collect(stream))
        #else
            case .file(let url):
                self = .file(url, ours: false)
            case .stream(let stream):
                // An upload task sends a file with its Content-Length; a body stream (`httpBodyStream`) would go chunked,
                // which presigned object-store uploads refuse, so a stream is written to a file of ours first.
                self = .file(try await Self.write(stream, in: temporaryDirectory), ours: true)
        #endif
        }
    }

    /// The whole stream in memory.
    private static func collect(_ stream: HTTPRequestBodyStream) async throws -> Data {
        var data = Data()
        if let length = stream.length { data.reserveCapacity(Int(clamping: length)) }
        for try await chunk in stream { data.append(chunk) }
        return data
    }

    /// The whole stream in a new temporary file in `directory`; nothing is left behind when it fails.
    private static func write(_ stream: HTTPRequestBodyStream, in directory: URL) async throws -> URL {
        let (url, handle) = try TemporaryFile.create(.multipart, in: directory)
        defer { try? handle.close() }
        do {
            for try await chunk in stream { try await BlockingIO.run { try handle.write(contentsOf: chunk) } }
        } catch {
            try? FileManager.default.removeItem(at: url)
            throw error
        }
        return url
    }

    func cleanUp() {
        if case .file(let url, ours: true) = self { try? FileManager.default.removeItem(at: url) }
    }
}
