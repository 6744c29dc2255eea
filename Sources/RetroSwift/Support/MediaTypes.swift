/// The media type a file's extension stands for, for multipart file parts whose type the caller did not give.
enum MediaTypes {
    /// The media type for `pathExtension` (compared case-insensitively), or `application/octet-stream`.
    static func forPathExtension(_ pathExtension: String) -> String {
        byExtension[pathExtension.lowercased()] ?? "application/octet-stream"
    }

    // The types browsers and servers agree on for everyday uploads (IANA registrations, WHATWG MIME Sniffing).
    private static let byExtension: [String: String] = [
        "jpg": "image/jpeg", "jpeg": "image/jpeg", "png": "image/png", "gif": "image/gif", "webp": "image/webp",
        "heic": "image/heic", "heif": "image/heif", "svg": "image/svg+xml", "bmp": "image/bmp", "tif": "image/tiff",
        "tiff": "image/tiff", "ico": "image/vnd.microsoft.icon", "avif": "image/avif",
        "mp3": "audio/mpeg", "m4a": "audio/mp4", "aac": "audio/aac", "wav": "audio/wav", "caf": "audio/x-caf",
        "ogg": "audio/ogg", "oga": "audio/ogg", "opus": "audio/opus", "flac": "audio/flac", "weba": "audio/webm",
        "mp4": "video/mp4", "m4v": "video/mp4", "mov": "video/quicktime", "webm": "video/webm", "avi": "video/x-msvideo",
        "mkv": "video/x-matroska", "ogv": "video/ogg",
        "txt": "text/plain", "text": "text/plain", "csv": "text/csv", "tsv": "text/tab-separated-values",
        "html": "text/html", "htm": "text/html", "css": "text/css", "md": "text/markdown", "ics": "text/calendar",
        "vcf": "text/vcard", "xml": "application/xml", "js": "text/javascript", "mjs": "text/javascript",
        "json": "application/json", "geojson": "application/geo+json", "yaml": "application/yaml",
        "yml": "application/yaml", "pdf": "application/pdf", "rtf": "application/rtf", "zip": "application/zip",
        "gz": "application/gzip", "tar": "application/x-tar", "7z": "application/x-7z-compressed",
        "doc": "application/msword", "xls": "application/vnd.ms-excel", "ppt": "application/vnd.ms-powerpoint",
        "docx": "application/vnd.openxmlformats-officedocument.wordprocessingml.document",
        "xlsx": "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
        "pptx": "application/vnd.openxmlformats-officedocument.presentationml.presentation",
        "odt": "application/vnd.oasis.opendocument.text", "ods": "application/vnd.oasis.opendocument.spreadsheet",
        "epub": "application/epub+zip", "wasm": "application/wasm", "woff": "font/woff", "woff2": "font/woff2",
        "ttf": "font/ttf", "otf": "font/otf",
    ]
}
