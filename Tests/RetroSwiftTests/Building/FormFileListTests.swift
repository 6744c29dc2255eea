import Foundation
import RetroSwiftTesting
import Testing

@testable import RetroSwift

@Suite("@FormFileList: several files under one name")
struct FormFileListTests {
    private struct AttachmentsRequest {
        @FormParam var subject: String = ""
        @FormFileList("attachments") var attachments: [URL] = []
    }

    private struct PhotosRequest {
        @FormFileList var photos: [FormFile.File] = []
    }

    private struct ClashRequest {
        @FormFile("file") var single = .empty
        @FormFileList("file") var many: [URL] = []
    }

    private struct OnGetRequest {
        @FormFileList var files: [URL] = []
    }

    // @unchecked Sendable: the fixture adds only endpoint wrappers, set up in init and never reassigned.
    private final class Api: Domain, @unchecked Sendable {
        @Post("/mail") var mail: (AttachmentsRequest) async throws -> Empty
        @Post("/photos") var photos: (PhotosRequest) async throws -> Empty
        @Post("/clash") var clash: (ClashRequest) async throws -> Empty
        @Get("/files") var onGet: (OnGetRequest) async throws -> Empty
    }

    private func api() -> (Api, RecordingTransport) {
        let transport = RecordingTransport()
        let api = Api(transport: transport)
        api.multipartBoundary = { "B" }
        return (api, transport)
    }

    /// A new directory holding files with these names and contents.
    private static func files(_ contents: [(String, String)]) throws -> (URL, [URL]) {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("retroswift-files-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: false)
        let urls = try contents.map { name, content in
            let url = directory.appendingPathComponent(name)
            try Data(content.utf8).write(to: url)
            return url
        }
        return (directory, urls)
    }

    private static func part(_ name: String, file: String, type: String, _ content: String) -> String {
        "--B\r\nContent-Disposition: form-data; name=\"\(name)\"; filename=\"\(file)\"\r\nContent-Type: \(type)\r\n\r\n\(content)\r\n"
    }

    @Test("file URLs go out in order under one name, named after the file, typed by extension")
    func urls() async throws {
        // Given
        let (directory, urls) = try Self.files([("scan.PDF", "%PDF"), ("photo.jpeg", "JPEG"), ("notes.unknownext", "??")])
        defer { try? FileManager.default.removeItem(at: directory) }
        let (api, transport) = api()

        // When
        _ = try await api.mail(AttachmentsRequest(subject: "hi", attachments: urls))
        _ = try await api.mail(AttachmentsRequest(subject: "none", attachments: []))

        // Then
        let expected =
            "--B\r\nContent-Disposition: form-data; name=\"subject\"\r\n\r\nhi\r\n"
            + Self.part("attachments", file: "scan.PDF", type: "application/pdf", "%PDF")
            + Self.part("attachments", file: "photo.jpeg", type: "image/jpeg", "JPEG")
            + Self.part("attachments", file: "notes.unknownext", type: "application/octet-stream", "??") + "--B--\r\n"
        #expect(try transport.requests[0].payload?.data() == Data(expected.utf8))
        #expect(transport.requests[0].payload?.contentType == "multipart/form-data; boundary=B")
        #expect(
            try transport.requests[1].payload?.data()
                == Data("--B\r\nContent-Disposition: form-data; name=\"subject\"\r\n\r\nnone\r\n--B--\r\n".utf8))
    }

    @Test("FormFile.File values keep their order, overrides and in-memory bytes; empty ones are left out")
    func files() async throws {
        // Given
        let (directory, urls) = try Self.files([("a.png", "PNG")])
        defer { try? FileManager.default.removeItem(at: directory) }
        let (api, transport) = api()

        // When
        _ = try await api.photos(
            PhotosRequest(photos: [
                .init(fileURL: urls[0], fileName: "renamed.png"),
                .empty,
                .init(fileURL: urls[0], mimeType: "image/x-custom"),
                .init(fileName: "memory.gif", mimeType: "image/gif", content: Data("GIF".utf8)),
            ]))

        // Then
        let expected =
            Self.part("photos", file: "renamed.png", type: "image/png", "PNG")
            + Self.part("photos", file: "a.png", type: "image/x-custom", "PNG")
            + Self.part("photos", file: "memory.gif", type: "image/gif", "GIF") + "--B--\r\n"
        #expect(try transport.lastRequest?.payload?.data() == Data(expected.utf8))
    }

    @Test("a missing file is refused naming the field, before anything is sent")
    func missingFile() async throws {
        // Given
        let (directory, urls) = try Self.files([("here.txt", "x")])
        defer { try? FileManager.default.removeItem(at: directory) }
        let missing = directory.appendingPathComponent("gone.txt")
        let (api, transport) = api()

        // When
        let error = await #expect(throws: RequestError.self) {
            _ = try await api.mail(AttachmentsRequest(subject: "s", attachments: [urls[0], missing]))
        }

        // Then
        #expect(
            error?.description
                == "Api.mail (POST /mail), field 'attachments': the file '\(missing.path)' does not exist, is a directory or "
                + "cannot be read; nothing was sent")
        #expect(transport.requests.isEmpty)
    }

    @Test("a name shared with a @FormFile, and files on GET, are declaration mistakes")
    func mistakes() async throws {
        // Given
        let (api, _) = api()

        // When
        let clash = await #expect(throws: DeclarationError.self) { _ = try await api.clash(ClashRequest()) }
        let onGet = await #expect(throws: DeclarationError.self) { _ = try await api.onGet(OnGetRequest()) }

        // Then
        #expect(
            clash?.description == """
                RetroSwift found 1 declaration mistake:
                - Api.clash (POST /clash), field 'many': @FormFileList name 'file' is already used by 'single'. \
                Fix: give each field its own name; for repeated values use one array field.
                """)
        #expect(
            onGet?.description == """
                RetroSwift found 1 declaration mistake:
                - Api.onGet (GET /files): a GET request cannot have a body. \
                Fix: send the values as @Query fields, or declare the endpoint with @Post, @Put or @Patch.
                """)
    }
}
