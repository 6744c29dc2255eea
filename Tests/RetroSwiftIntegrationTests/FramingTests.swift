import Foundation
import RetroSwift
import RetroSwiftTestServer
import Testing

/// A body whose length is known goes out with `Content-Length`, never chunked (presigned object-store uploads refuse
/// chunked bodies), whatever the body and wherever the response goes.
@Suite("End to end: request framing", .timeLimit(.minutes(4)))
struct FramingTests {
    private struct Note: Codable {
        var text: String
    }

    private struct JSONRequest {
        @JsonBody var note = Note(text: "framed")
    }

    private struct FormRequest {
        @FormParam var title: String = "framed"
    }

    private struct UploadRequest {
        @FormParam var title: String = "framed"
        @FormFile("file") var file = .empty
    }

    // @unchecked Sendable: the fixture adds only endpoint wrappers, set up in init and never reassigned.
    private final class Api: Domain, @unchecked Sendable {
        @Post("/none") var none: () async throws -> Data
        @Post("/json") var json: (JSONRequest) async throws -> Data
        @Post("/form") var form: (FormRequest) async throws -> Data
        @Post("/multipart") var multipart: (UploadRequest) async throws -> Data
        @Post("/none") var noneToFile: () async throws -> DownloadedFile
        @Post("/json") var jsonToFile: (JSONRequest) async throws -> DownloadedFile
        @Post("/form") var formToFile: (FormRequest) async throws -> DownloadedFile
        @Post("/multipart") var multipartToFile: (UploadRequest) async throws -> DownloadedFile
    }

    @Test("every body kind, to memory and to a file, goes with Content-Length and never chunked", arguments: TransportKind.allCases)
    func contentLength(kind: TransportKind) async throws {
        // Given
        let content = TestBytes.pattern(200_000)
        let source = FileManager.default.temporaryDirectory.appendingPathComponent("retroswift-framing-\(UUID().uuidString)")
        try content.write(to: source)
        defer { try? FileManager.default.removeItem(at: source) }
        let inMemory = FormFile.File(fileName: "a.txt", mimeType: "text/plain", content: Data("small".utf8))
        let fromFile = FormFile.File(fileName: "b.bin", mimeType: "application/octet-stream", fileURL: source)

        try await withServer(
            kind,
            respond: { request in
                ScriptedResponse(status: 200, headers: [("Content-Type", "application/octet-stream")], body: request.body)
            }
        ) { transport, server in
            let api = Api(transport: transport)

            // When
            var echoes: [Data] = []
            echoes.append(try await api.none())
            echoes.append(try await api.json(JSONRequest()))
            echoes.append(try await api.form(FormRequest()))
            echoes.append(try await api.multipart(UploadRequest(file: inMemory)))
            echoes.append(try await api.multipart(UploadRequest(file: fromFile)))
            for file in [
                try await api.noneToFile(), try await api.jsonToFile(JSONRequest()), try await api.formToFile(FormRequest()),
                try await api.multipartToFile(UploadRequest(file: inMemory)), try await api.multipartToFile(UploadRequest(file: fromFile)),
            ] {
                // Not Data(contentsOf:), which leaks a buffer per empty file on Linux (see TemporaryFile.contents(of:)).
                echoes.append(try TemporaryFile.contents(of: file.url))
                try? FileManager.default.removeItem(at: file.url)
            }

            // Then
            let requests = server.requests
            #expect(requests.count == 10)
            for (request, echo) in zip(requests, echoes) {
                #expect(request.header("Transfer-Encoding") == nil, "\(request.method) \(request.target)")
                if request.target == "/none" {
                    #expect(request.header("Content-Length").map { $0 == "0" } ?? true)
                } else {
                    #expect(request.header("Content-Length") == String(request.body.count), "\(request.target)")
                }
                #expect(echo == request.body)
            }
            #expect(requests.last?.body.count ?? 0 > content.count)
        }
    }
}
