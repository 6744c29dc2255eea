import Foundation

/// A value a `@FormFileList` can send as a file part: a ``FormFile/File``, or a file `URL` (named after its last
/// path component, with the media type its extension stands for).
public protocol FormFileConvertible: Sendable {
    /// The file part this value sends.
    var formFile: FormFile.File { get }
}

extension FormFile.File: FormFileConvertible {
    /// The file itself.
    public var formFile: FormFile.File { self }
}

extension URL: FormFileConvertible {
    /// The file at this URL, named after its last path component, with the media type its extension stands for.
    public var formFile: FormFile.File { FormFile.File(fileURL: self) }
}
