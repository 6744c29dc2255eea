import Foundation

/// Where RetroSwift puts the files it creates, named by what they hold: `retroswift-download-…` (a response body,
/// the caller's to move or delete) and `retroswift-multipart-…` (a multipart body with file parts, deleted after
/// its upload).
package enum TemporaryFile {
    /// What a temporary file holds.
    package enum Kind: String {
        case download
        case multipart
    }

    /// A new, unused URL in `directory` (the system's temporary directory by default) for a file of `kind`.
    package static func url(for kind: Kind, in directory: URL = FileManager.default.temporaryDirectory) -> URL {
        directory.appendingPathComponent("retroswift-\(kind.rawValue)-\(UUID().uuidString)")
    }

    /// Creates an empty file of `kind` in `directory` and opens it for writing; the caller closes the handle.
    package static func create(_ kind: Kind, in directory: URL = FileManager.default.temporaryDirectory) throws -> (
        url: URL, handle: FileHandle
    ) {
        let url = url(for: kind, in: directory)
        guard FileManager.default.createFile(atPath: url.path, contents: nil) else {
            throw CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: url.path])
        }
        do {
            return (url, try FileHandle(forWritingTo: url))
        } catch {
            try? FileManager.default.removeItem(at: url)
            throw error
        }
    }

    /// The whole contents of the file at `url`.
    ///
    /// Not `Data(contentsOf:)`: on Linux, swift-foundation's version leaks a 4 KiB buffer for every empty file it
    /// reads (LeakSanitizer shows it), and an empty error body is an everyday response.
    package static func contents(of url: URL) throws -> Data {
        let handle = try FileHandle(forReadingFrom: url)
        defer { try? handle.close() }
        return try handle.readToEnd() ?? Data()
    }
}
