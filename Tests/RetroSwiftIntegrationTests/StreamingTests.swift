import Foundation
import RetroSwift
import RetroSwiftTestServer
import Testing

// Five minutes: the large transfers here take tens of seconds under the thread sanitizer; the limit only
// catches a hang.
@Suite("End to end: streaming uploads and downloads", .timeLimit(.minutes(5)))
struct StreamingTests {
    private struct UploadRequest {
        @FormParam var title: String = ""
        @FormFile("file") var file = .empty
    }

    private struct AttachmentsRequest {
        @FormParam var subject: String = ""
        @FormFileList("attachments") var attachments: [URL] = []
    }

    private struct FileBodyRequest {
        @Path var name: String = ""
        @RawBody var file = URL(fileURLWithPath: "/")
    }

    // @unchecked Sendable: the fixture adds only endpoint wrappers, set up in init and never reassigned.
    private final class Api: Domain, @unchecked Sendable {
        @Put("/objects/{name}") var putFile: (FileBodyRequest) async throws -> Empty
        @Put("/objects/{name}") var putFileForFile: (FileBodyRequest) async throws -> DownloadedFile
        @Post("/upload") var upload: (UploadRequest) async throws -> Empty
        @Post("/mail") var mail: (AttachmentsRequest) async throws -> Empty
        @Get("/download") var download: () async throws -> DownloadedFile
        @Get("/missing") var missing: () async throws -> DownloadedFile
        @Get("/gone") var gone: () async throws -> DownloadedFile
    }

    @Test("a @FormFile from a file URL uploads the file byte for byte", arguments: TransportKind.allCases)
    func uploadFromFile(kind: TransportKind) async throws {
        // Given
        let content = TestBytes.pattern(8 * 1024 * 1024)
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("retroswift-upload-\(UUID().uuidString)")
        try content.write(to: url)
        defer { try? FileManager.default.removeItem(at: url) }

        try await withServer(kind) { transport, server in
            let api = Api(transport: transport)
            api.multipartBoundary = { "stream-boundary" }

            // When
            _ = try await api.upload(
                UploadRequest(title: "big", file: .init(fileName: "big.bin", mimeType: "application/octet-stream", fileURL: url)))

            // Then
            let received = try #require(server.requests.first)
            let head = Data(
                "--stream-boundary\r\nContent-Disposition: form-data; name=\"title\"\r\n\r\nbig\r\n--stream-boundary\r\nContent-Disposition: form-data; name=\"file\"; filename=\"big.bin\"\r\nContent-Type: application/octet-stream\r\n\r\n"
                    .utf8)
            #expect(received.body.count == head.count + content.count + "\r\n--stream-boundary--\r\n".utf8.count)
            #expect(received.body == head + content + Data("\r\n--stream-boundary--\r\n".utf8))
        }
    }

    @Test("DownloadedFile streams a 2xx body to a file; an error body still throws", arguments: TransportKind.allCases)
    func downloadToFile(kind: TransportKind) async throws {
        let content = TestBytes.pattern(8 * 1024 * 1024)
        try await withServer(
            kind,
            respond: { request in
                switch request.target {
                case "/download": ScriptedResponse(status: 200, headers: [("Content-Type", "application/octet-stream")], body: content)
                case "/missing": .text("gone", status: 404)
                default: ScriptedResponse(status: 410)
                }
            }
        ) { transport, _ in
            // Given
            let api = Api(transport: transport)

            // When
            let file = try await api.download()
            defer { try? FileManager.default.removeItem(at: file.url) }
            let error = await #expect(throws: HTTPError.self) { _ = try await api.missing() }
            // An empty error body: read back without leaking (the address sanitizer run checks).
            let emptyError = await #expect(throws: HTTPError.self) { _ = try await api.gone() }

            // Then
            #expect(try Data(contentsOf: file.url) == content)
            #expect(file.mimeType == "application/octet-stream")
            #expect(error?.description.hasSuffix(": gone") == true)
            #expect(emptyError?.statusCode == 410)
            #expect(emptyError?.body.isEmpty == true)
        }
    }

    @Test(
        "two file URLs under one name (Kilo's attachments) arrive in order, named and typed from the files",
        arguments: TransportKind.allCases)
    func twoFileURLs(kind: TransportKind) async throws {
        // Given
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("retroswift-mail-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: false)
        defer { try? FileManager.default.removeItem(at: directory) }
        let photo = directory.appendingPathComponent("photo.png")
        let report = directory.appendingPathComponent("report.pdf")
        let photoBytes = TestBytes.pattern(300_000)
        try photoBytes.write(to: photo)
        try Data("%PDF-1.7".utf8).write(to: report)

        try await withServer(kind) { transport, server in
            let api = Api(transport: transport)
            api.multipartBoundary = { "mail-boundary" }

            // When
            _ = try await api.mail(AttachmentsRequest(subject: "two files", attachments: [photo, report]))

            // Then
            let received = try #require(server.requests.first)
            let expected =
                Data("--mail-boundary\r\nContent-Disposition: form-data; name=\"subject\"\r\n\r\ntwo files\r\n".utf8)
                + Data("--mail-boundary\r\nContent-Disposition: form-data; name=\"attachments\"; filename=\"photo.png\"\r\n".utf8)
                + Data("Content-Type: image/png\r\n\r\n".utf8) + photoBytes + Data("\r\n".utf8)
                + Data("--mail-boundary\r\nContent-Disposition: form-data; name=\"attachments\"; filename=\"report.pdf\"\r\n".utf8)
                + Data("Content-Type: application/pdf\r\n\r\n%PDF-1.7\r\n--mail-boundary--\r\n".utf8)
            #expect(received.body == expected)
            #expect(received.header("Content-Type") == "multipart/form-data; boundary=mail-boundary")
        }
    }

    @Test(
        "a @RawBody file arrives with its Content-Length, byte for byte, and is left where it was",
        arguments: TransportKind.allCases)
    func rawFileBody(kind: TransportKind) async throws {
        // Given
        let content = TestBytes.pattern(5 * 1024 * 1024 + 3)
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("retroswift-raw-\(UUID().uuidString).csv")
        try content.write(to: url)
        defer { try? FileManager.default.removeItem(at: url) }

        try await withServer(kind, respond: { _ in ScriptedResponse(status: 200, body: Data("stored".utf8)) }) { transport, server in
            let api = Api(transport: transport)

            // When
            _ = try await api.putFile(FileBodyRequest(name: "a.csv", file: url))
            let answer = try await api.putFileForFile(FileBodyRequest(name: "b.csv", file: url))
            defer { try? FileManager.default.removeItem(at: answer.url) }

            // Then
            for received in server.requests {
                #expect(received.body == content)
                #expect(received.header("Content-Length") == "\(content.count)")
                #expect(received.header("Transfer-Encoding") == nil)
                #expect(received.header("Content-Type") == "text/csv")
            }
            #expect(server.requests.map(\.target) == ["/objects/a.csv", "/objects/b.csv"])
            #expect(try Data(contentsOf: answer.url) == Data("stored".utf8))
            #expect(FileManager.default.fileExists(atPath: url.path))
        }
    }
}
