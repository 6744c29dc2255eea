import Foundation
import RetroSwiftTesting
import Testing

@testable import RetroSwift

@Suite("@RawBody: Data, text and files sent as they are")
struct RawBodyTests {
    private struct DataRequest {
        @RawBody var bytes = Data()
    }

    private struct ImageRequest {
        @Path var id: Int = 0
        @RawBody(contentType: "image/png") var image = Data()
    }

    private struct TextRequest {
        @RawBody var text: String? = nil
    }

    private struct FileRequest {
        @RawBody var file = URL(fileURLWithPath: "/")
    }

    private struct ContentRequest {
        @RawBody(contentType: "application/x-declared") var content = RawBodyContent(data: Data())
        @Header("Content-Type") var override: String? = nil
    }

    private struct Note: Encodable {
        var text = ""
    }

    private struct TwoBodiesRequest {
        @JsonBody var note = Note()
        @RawBody var bytes = Data()
    }

    private struct RawAndFormRequest {
        @RawBody var bytes = Data()
        @FormParam var field = ""
    }

    private struct RawOnGetRequest {
        @RawBody var bytes = Data()
    }

    // @unchecked Sendable: the fixture adds only endpoint wrappers, set up in init and never reassigned.
    private final class Api: Domain, @unchecked Sendable {
        @Post("/bytes") var bytes: (DataRequest) async throws -> Empty
        @Put("/users/{id}/avatar") var avatar: (ImageRequest) async throws -> Empty
        @Post("/text") var text: (TextRequest) async throws -> Empty
        @Put("/file") var file: (FileRequest) async throws -> Empty
        @Post("/content") var content: (ContentRequest) async throws -> Empty
        @Post("/two") var twoBodies: (TwoBodiesRequest) async throws -> Empty
        @Post("/mixed") var rawAndForm: (RawAndFormRequest) async throws -> Empty
        @Get("/get") var rawOnGet: (RawOnGetRequest) async throws -> Empty
    }

    private func api() -> (Api, RecordingTransport) {
        let transport = RecordingTransport()
        return (Api(transport: transport), transport)
    }

    private static func body(_ request: HttpRequestParams?) -> String {
        guard let request else { return "no request" }
        let type = request.headerFields.first { $0.name == "Content-Type" }?.value ?? "none"
        let bytes = (try? request.payload?.data()).map { String(decoding: $0, as: UTF8.self) } ?? "no body"
        return "\(type) | \(bytes)"
    }

    @Test("the media type is the value's, else the declared one, else the value's default; a Content-Type field wins")
    func contentTypes() async throws {
        // Given
        let (api, transport) = api()
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("retroswift-raw-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: false)
        defer { try? FileManager.default.removeItem(at: directory) }
        let csv = directory.appendingPathComponent("export.csv")
        try Data("a,b\n".utf8).write(to: csv)

        // When
        _ = try await api.bytes(DataRequest(bytes: Data([0x01, 0x02])))
        _ = try await api.avatar(ImageRequest(id: 3, image: Data("PNG".utf8)))
        _ = try await api.text(TextRequest(text: "héllo"))
        _ = try await api.text(TextRequest(text: nil))
        _ = try await api.file(FileRequest(file: csv))
        _ = try await api.content(ContentRequest(content: RawBodyContent(text: "{}", contentType: "application/merge-patch+json")))
        _ = try await api.content(ContentRequest(content: RawBodyContent(data: Data("x".utf8))))
        _ = try await api.content(ContentRequest(content: RawBodyContent(text: "y"), override: "text/x-field"))

        // Then
        #expect(
            transport.requests.map(Self.body) == [
                "application/octet-stream | \u{1}\u{2}",
                "image/png | PNG",
                "text/plain; charset=utf-8 | héllo",
                "none | no body",
                "text/csv | a,b\n",
                "application/merge-patch+json | {}",
                "application/x-declared | x",
                "text/x-field | y",
            ])
        guard case .file(let url)? = transport.requests[4].payload?.content else {
            Issue.record("a file body should stay on disk until it is sent")
            return
        }
        #expect(url == csv)
        #expect(try transport.requests[4].payload?.contentLength() == 4)
    }

    @Test("a missing file or a CR in the media type is refused naming the field, before anything is sent")
    func refusedValues() async throws {
        // Given
        let (api, transport) = api()
        let missing = FileManager.default.temporaryDirectory.appendingPathComponent("retroswift-missing-\(UUID().uuidString)")

        // When
        let file = await #expect(throws: RequestError.self) { _ = try await api.file(FileRequest(file: missing)) }
        let type = await #expect(throws: RequestError.self) {
            _ = try await api.content(ContentRequest(content: RawBodyContent(data: Data(), contentType: "text/plain\r\nX-Injected: 1")))
        }

        // Then
        #expect(
            file?.description
                == "Api.file (PUT /file), field 'file': the file '\(missing.path)' does not exist, is a directory or cannot be "
                + "read; nothing was sent")
        #expect(
            type?.description
                == "Api.content (POST /content), field 'content': content type: header value contains a carriage return (CR); "
                + "CR, LF and other control characters are not allowed (they would allow header injection)")
        #expect(transport.requests.isEmpty)
    }

    @Test("two bodies, a raw body with form fields, and a raw body on GET are declaration mistakes")
    func mistakes() async throws {
        // Given
        let (api, _) = api()

        // When
        let two = await #expect(throws: DeclarationError.self) { _ = try await api.twoBodies(TwoBodiesRequest()) }
        let mixed = await #expect(throws: DeclarationError.self) { _ = try await api.rawAndForm(RawAndFormRequest()) }
        let onGet = await #expect(throws: DeclarationError.self) { _ = try await api.rawOnGet(RawOnGetRequest()) }

        // Then
        #expect(
            two?.description == """
                RetroSwift found 1 declaration mistake:
                - Api.twoBodies (POST /two): 2 body fields (@JsonBody 'note', @RawBody 'bytes'); a request has one body. \
                Fix: keep one of them.
                """)
        #expect(
            mixed?.description == """
                RetroSwift found 1 declaration mistake:
                - Api.rawAndForm (POST /mixed): @RawBody 'bytes' together with form field 'field'; a request has one body. \
                Fix: send either the raw body or form fields, not both.
                """)
        #expect(
            onGet?.description == """
                RetroSwift found 1 declaration mistake:
                - Api.rawOnGet (GET /get): a GET request cannot have a body. \
                Fix: send the values as @Query fields, or declare the endpoint with @Post, @Put or @Patch.
                """)
    }
}
