import Foundation
import RetroSwift

/// Where a request body comes from: memory, or a file on disk — a multipart body with file parts written to a
/// temporary file of ours, or the caller's own file sent as the whole body.
enum UploadSource {
    case none
    case data(Data)
    /// A file to upload from; `ours` when it is a temporary file we wrote and must delete.
    case file(URL, ours: Bool)

    init(_ body: HttpRequestBody?, temporaryDirectory: URL) throws {
        switch body?.content {
        case nil:
            self = .none
        case .data(let data)?:
            self = .data(data)
        case .multipart(let form)?:
            let hasFiles = form.parts.contains { if case .file = $0.content { true } else { false } }
            self = hasFiles ? .file(try form.writeToTemporaryFile(in: temporaryDirectory), ours: true) : .data(try form.data())
        case .file(let url)?:
            self = .file(url, ours: false)
        }
    }

    func cleanUp() {
        if case .file(let url, ours: true) = self { try? FileManager.default.removeItem(at: url) }
    }
}
