import Foundation
import RetroSwift

/// An HTTP Archive (HAR 1.2, W3C Web Performance draft): the file ``ReplayTransport`` records to and replays from.
/// Only what RetroSwift reads and writes is modelled; fields a browser adds (`pages`, `cookies` objects, timings
/// detail) are kept empty. `_chunks` (custom fields start with `_`, as HAR allows) records how a streamed body
/// arrived, so it replays in the same pieces.
struct HarArchive: Codable, Sendable {
    var log: Log

    struct Log: Codable, Sendable {
        var version = "1.2"
        var creator = Creator()
        var entries: [Entry] = []
    }

    struct Creator: Codable, Sendable {
        var name = "RetroSwift ReplayTransport"
        var version = "1"
    }

    struct Field: Codable, Sendable, Equatable {
        var name: String
        var value: String
    }

    struct Entry: Codable, Sendable {
        var startedDateTime: String
        var time: Double
        var request: Request
        var response: Response
        var cache = Empty()
        var timings: Timings
    }

    struct Empty: Codable, Sendable {}

    struct Timings: Codable, Sendable {
        var send: Double = 0
        var wait: Double
        var receive: Double = 0
    }

    struct Request: Codable, Sendable {
        var method: String
        var url: String
        var httpVersion = "HTTP/1.1"
        var cookies: [Field] = []
        var headers: [Field]
        var queryString: [Field]
        var postData: PostData?
        var headersSize = -1
        var bodySize: Int
    }

    struct PostData: Codable, Sendable {
        var mimeType: String
        var text: String
        /// `base64` when the body is not UTF-8 text; HAR 1.2 has no such field for requests, so it is a custom one.
        var _encoding: String?
    }

    struct Response: Codable, Sendable {
        var status: Int
        var statusText = ""
        var httpVersion = "HTTP/1.1"
        var cookies: [Field] = []
        var headers: [Field]
        var content: Content
        var redirectURL = ""
        var headersSize = -1
        var bodySize: Int
        /// The sizes of the pieces a streamed body arrived in, in order; `nil` for a body read whole.
        var _chunks: [Int]?
        /// Whether the body went to a file (`ResponseDestination.file`).
        var _file: Bool?
    }

    struct Content: Codable, Sendable {
        var size: Int
        var mimeType: String
        var text: String?
        var encoding: String?
    }

    /// `data` as HAR text: the text itself when it is UTF-8, else base64 with the encoding named.
    static func text(of data: Data) -> (text: String, encoding: String?) {
        if let text = String(data: data, encoding: .utf8) { return (text, nil) }
        return (data.base64EncodedString(), "base64")
    }

    /// The bytes a HAR text holds.
    static func data(of text: String?, encoding: String?) -> Data {
        guard let text else { return Data() }
        if encoding == "base64" { return Data(base64Encoded: text) ?? Data() }
        return Data(text.utf8)
    }
}
