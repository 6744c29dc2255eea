import FlyingFox
import Foundation

/// `POST /v1/speech-to-text`: reads a multipart upload chunk by chunk and "transcribes" it.
struct SpeechToTextRoute {
    func register(on server: HTTPServer) async {
        await server.appendRoute("POST /v1/speech-to-text") { request in
            var body = Data()
            for try await chunk in request.bodySequence { body.append(chunk) }
            let fields = Self.fields(in: body, contentType: request.headers[.contentType] ?? "")
            guard let file = fields["file"] else {
                return ServiceJSON.text("the form has no 'file' part", status: .unprocessableContent)
            }
            let text =
                "\(file.count) bytes of audio heard by model \(fields["model_id"].map { String(decoding: $0, as: UTF8.self) } ?? "?")"
                + " in language '\(fields["language_code"].map { String(decoding: $0, as: UTF8.self) } ?? "?")'"
            return ServiceJSON.response(["text": text])
        }
    }

    /// A minimal multipart reader: enough for the demo, not a general parser.
    private static func fields(in body: Data, contentType: String) -> [String: Data] {
        guard let boundary = contentType.components(separatedBy: "boundary=").last else { return [:] }
        let delimiter = Data("--\(boundary)".utf8)
        var fields: [String: Data] = [:]
        var searchStart = body.startIndex
        var partStart: Data.Index?
        while let range = body.range(of: delimiter, in: searchStart..<body.endIndex) {
            if let start = partStart, let headerEnd = body.range(of: Data("\r\n\r\n".utf8), in: start..<range.lowerBound) {
                let header = String(decoding: body[start..<headerEnd.lowerBound], as: UTF8.self)
                if let name = header.components(separatedBy: "name=\"").dropFirst().first?.components(separatedBy: "\"").first {
                    fields[name] = body[headerEnd.upperBound..<(range.lowerBound - 2)]
                }
            }
            partStart = range.upperBound + 2
            searchStart = range.upperBound
        }
        return fields
    }
}
