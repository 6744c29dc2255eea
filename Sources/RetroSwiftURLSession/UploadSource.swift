import Foundation
import RetroSwift

/// Where a request body comes from: memory, or a file on disk — a multipart body with file parts written to a
/// temporary file of ours, or the caller's own file sent as the whole body.
enum UploadSource {
    case none
    case data(Data)
    /// A file to upload from; `ours` when it is a temporary file we wrote and must delete.
    case file(URL, ours: Bool)

    init(_ body: HTTPRequestBody?, temporaryDirectory: URL) throws {
        guard let body else {
            self = .none
            return
        }
        switch body.content {
        case .data(let data):
            self = .data(data)
        #if canImport(FoundationNetworking)
            // swift-corelibs-foundation's upload from a file brings the process down when the transfer ends (it is
            // cancelled or times out) while the file is being read: its `try!` around curl_easy_pause fails on a
            // handle that has lost its connection. Bytes in memory are never paused, and still go with
            // their Content-Length (a body stream would go chunked), so on Linux file bodies are read into memory.
            case .multipart, .file:
                self = .data(try body.data())
        #else
            case .multipart(let form):
                let hasFiles = form.parts.contains { if case .file = $0.content { true } else { false } }
                self = hasFiles ? .file(try form.writeToTemporaryFile(in: temporaryDirectory), ours: true) : .data(try form.data())
            case .file(let url):
                self = .file(url, ours: false)
        #endif
        }
    }

    func cleanUp() {
        if case .file(let url, ours: true) = self { try? FileManager.default.removeItem(at: url) }
    }
}
