import Foundation

/// A file sent as a part of a `multipart/form-data` body. Any `@FormFile` field makes the body multipart.
@propertyWrapper
public struct FormFile: Sendable {
    /// A file to upload: its name, media type and bytes (in memory or on disk).
    public struct File: Sendable, Hashable {
        /// The file name sent in `Content-Disposition`.
        let fileName: String
        /// The part's media type, for example `audio/x-caf`.
        let mimeType: String
        /// The file's bytes, in memory or on disk.
        let content: MultipartFormBody.PartContent

        /// A file whose bytes are in memory.
        public init(fileName: String, mimeType: String, content: Data) {
            self.fileName = fileName
            self.mimeType = mimeType
            self.content = .data(content)
        }

        /// A file on disk, streamed when the request is sent rather than loaded into memory.
        public init(fileName: String, mimeType: String, fileURL: URL) {
            self.fileName = fileName
            self.mimeType = mimeType
            self.content = .file(fileURL)
        }

        /// A file on disk named after it: the file name defaults to the URL's last path component, and the media
        /// type to the one its extension stands for (`application/octet-stream` for an extension not in the table).
        ///
        /// - Parameters:
        ///   - fileURL: The file, streamed when the request is sent.
        ///   - fileName: The name sent in `Content-Disposition`, instead of the URL's last path component.
        ///   - mimeType: The part's media type, instead of the one derived from the extension.
        public init(fileURL: URL, fileName: String? = nil, mimeType: String? = nil) {
            self.init(
                fileName: fileName ?? fileURL.lastPathComponent,
                mimeType: mimeType ?? MediaTypes.forPathExtension(fileURL.pathExtension), fileURL: fileURL)
        }

        /// No file: the part is left out of the form, as a browser does for an empty file input.
        public static let empty = File(fileName: "", mimeType: "application/octet-stream", content: Data())

        var isEmpty: Bool {
            self == .empty
        }
    }

    /// The file.
    public var wrappedValue: File
    /// The explicit field name, or `nil` to use the property name.
    let name: String?

    /// A file field named after its property.
    public init(wrappedValue: File) {
        self.wrappedValue = wrappedValue
        self.name = nil
    }

    /// A file field with an explicit name, such as `@FormFile("file")`.
    public init(wrappedValue: File, _ name: String) {
        self.wrappedValue = wrappedValue
        self.name = name
    }
}

extension FormFile: RequestParameter {
    static var kind: ParameterKind? { .formFile }
    static var valueType: Any.Type { File.self }
    var explicitName: String? { name }

    func write(to sink: inout some ParameterSink, as field: RequestPlan.Field) throws {
        try sink.addFile(wrappedValue, for: field)
    }
}
