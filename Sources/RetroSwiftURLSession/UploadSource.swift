import Foundation
import RetroSwift

/// Where a request body comes from: memory, or a temporary file holding a multipart body with file parts.
enum UploadSource {
    case none
    case data(Data)
    /// A temporary file we wrote and must delete.
    case file(URL)

    init(_ body: HttpRequestBody?, temporaryDirectory: URL) throws {
        switch body?.content {
        case nil:
            self = .none
        case .data(let data)?:
            self = .data(data)
        case .multipart(let form)?:
            let hasFiles = form.parts.contains { if case .file = $0.content { true } else { false } }
            self = hasFiles ? .file(try form.writeToTemporaryFile(in: temporaryDirectory)) : .data(try form.data())
        }
    }

    func cleanUp() {
        if case .file(let url) = self { try? FileManager.default.removeItem(at: url) }
    }
}
