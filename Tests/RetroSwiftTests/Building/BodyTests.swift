import Foundation
import RetroSwiftTesting
import Testing

@testable import RetroSwift

@Suite("Bodies")
struct BodyTests {
    private struct Event: Codable, Equatable {
        var name: String
        var at: Date
    }

    private struct CreateRequest {
        @JsonBody var event: Event
    }

    private struct PatchRequest {
        @JsonBody var event: Event? = nil
    }

    private struct LoginRequest {
        @FormParam var user: String = ""
        @FormParam("pass word") var password: String = ""
        @FormParam var scopes: [String] = []
        @FormParam var remember: Bool = false
    }

    private struct UploadRequest {
        @FormParam var title: String = ""
        @FormFile("attachment") var file = .empty
        @FormParam var note: String? = nil
    }

    private struct NoteRequest {
        @FormParam var note: String = ""
    }

    private struct AttachmentRequest {
        @FormFile("attachment") var file = .empty
        @FormParam var tags: [String] = []
    }

    private final class Api: Domain, @unchecked Sendable {
        @Post("/events") var create: (CreateRequest) async throws -> Empty
        @Patch("/events/1") var patch: (PatchRequest) async throws -> Empty
        @Post("/login") var login: (LoginRequest) async throws -> Empty
        @Post("/upload") var upload: (UploadRequest) async throws -> Empty
        @Post("/notes", formEncoding: .multipart) var note: (NoteRequest) async throws -> Empty
        @Post("/attachments") var attach: (AttachmentRequest) async throws -> Empty
    }

    private func makeApi() -> (Api, RecordingTransport) {
        let transport = RecordingTransport()
        let api = Api(transport: transport)
        api.multipartBoundary = { "XyZ" }
        return (api, transport)
    }

    @Test("@JsonBody is encoded with the domain's encoder, dates as epoch milliseconds")
    func encodesJSON() async throws {
        // Given
        let (api, transport) = makeApi()
        let encoder = api.jsonEncoder
        encoder.outputFormatting = .sortedKeys

        // When
        _ = try await api.create(CreateRequest(event: Event(name: "launch", at: Date(timeIntervalSince1970: 1.5))))

        // Then
        let body = try #require(transport.lastRequest?.payload)
        #expect(body.contentType == "application/json")
        #expect(try body.data() == Data(#"{"at":1500,"name":"launch"}"#.utf8))
    }

    @Test("a nil optional @JsonBody sends no body")
    func omitsNilBody() async throws {
        // Given
        let (api, transport) = makeApi()

        // When
        _ = try await api.patch(PatchRequest())

        // Then
        #expect(transport.lastRequest?.body == nil)
        #expect(transport.lastRequest?.headerFields == [])
    }

    @Test("form fields alone are sent form-urlencoded")
    func encodesForm() async throws {
        // Given
        let (api, transport) = makeApi()

        // When
        _ = try await api.login(LoginRequest(user: "ann@example.com", password: "p&s=s +1", scopes: ["read", "write"], remember: true))

        // Then
        let body = try #require(transport.lastRequest?.payload)
        #expect(body.contentType == "application/x-www-form-urlencoded; charset=utf-8")
        #expect(
            String(decoding: try body.data(), as: UTF8.self)
                == "user=ann%40example.com&pass+word=p%26s%3Ds+%2B1&scopes=read&scopes=write&remember=true")
    }

    @Test("a @FormFile makes the body multipart, in declaration order, with quoted names")
    func encodesMultipart() async throws {
        // Given
        let (api, transport) = makeApi()
        let file = FormFile.File(fileName: "my \"best\".png", mimeType: "image/png", content: Data([0x89, 0x50, 0x0D, 0x0A]))

        // When
        _ = try await api.upload(UploadRequest(title: "Ünïcode", file: file, note: nil))

        // Then
        let body = try #require(transport.lastRequest?.payload)
        #expect(body.contentType == "multipart/form-data; boundary=XyZ")
        let expected =
            Data("--XyZ\r\nContent-Disposition: form-data; name=\"title\"\r\n\r\nÜnïcode\r\n".utf8)
            + Data(
                "--XyZ\r\nContent-Disposition: form-data; name=\"attachment\"; filename=\"my %22best%22.png\"\r\nContent-Type: image/png\r\n\r\n"
                    .utf8)
            + Data([0x89, 0x50, 0x0D, 0x0A]) + Data("\r\n--XyZ--\r\n".utf8)
        #expect(try body.data() == expected)
    }

    @Test("an .empty file is left out of the form")
    func omitsEmptyFile() async throws {
        // Given
        let (api, transport) = makeApi()

        // When
        _ = try await api.upload(UploadRequest(title: "t"))

        // Then
        let body = try #require(transport.lastRequest?.payload)
        #expect(try body.data() == Data("--XyZ\r\nContent-Disposition: form-data; name=\"title\"\r\n\r\nt\r\n--XyZ--\r\n".utf8))
    }

    @Test("formEncoding: .multipart forces multipart without files")
    func forcesMultipart() async throws {
        // Given
        let (api, transport) = makeApi()

        // When
        _ = try await api.note(NoteRequest(note: "hi"))

        // Then
        #expect(transport.lastRequest?.payload?.contentType == "multipart/form-data; boundary=XyZ")
    }

    @Test("a file from a URL stays on disk until the body is written, and streams byte for byte")
    func streamsFileParts() async throws {
        // Given
        let (api, transport) = makeApi()
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("retroswift-test-\(UUID().uuidString).bin")
        let content = Data((0..<700_000).map { UInt8(truncatingIfNeeded: $0 &* 31) })
        try content.write(to: url)
        defer { try? FileManager.default.removeItem(at: url) }

        // When
        _ = try await api.upload(
            UploadRequest(title: "big", file: .init(fileName: "big.bin", mimeType: "application/octet-stream", fileURL: url)))

        // Then
        guard case .multipart(let form)? = transport.lastRequest?.payload?.content else {
            Issue.record("expected a multipart body")
            return
        }
        #expect(form.parts.last?.content == .file(url))
        let written = try form.writeToTemporaryFile()
        defer { try? FileManager.default.removeItem(at: written) }
        let streamed = try Data(contentsOf: written)
        // Written out by hand from RFC 7578, not by the encoder under test.
        let expected =
            Data("--XyZ\r\nContent-Disposition: form-data; name=\"title\"\r\n\r\nbig\r\n".utf8)
            + Data("--XyZ\r\nContent-Disposition: form-data; name=\"attachment\"; filename=\"big.bin\"\r\n".utf8)
            + Data("Content-Type: application/octet-stream\r\n\r\n".utf8) + content + Data("\r\n--XyZ--\r\n".utf8)
        #expect(streamed == expected)
        #expect(try form.data() == expected)
        #expect(try form.contentLength() == Int64(expected.count))
    }

    @Test("a multipart form whose every part is left out is refused before anything is sent (RFC 2046 needs one)")
    func refusesEmptyMultipart() async throws {
        // Given
        let (api, transport) = makeApi()

        // When
        let error = await #expect(throws: RequestError.self) { _ = try await api.attach(AttachmentRequest()) }
        _ = try await api.attach(AttachmentRequest(tags: ["one"]))

        // Then
        #expect(
            error?.description == "Api.attach (POST /attachments): a multipart body needs at least one part "
                + "(RFC 2046), but every form field is nil or empty and every file is .empty; nothing was sent")
        #expect(transport.requests.count == 1)
    }

    @Test("JSON dates are whole milliseconds, rounded as query values are, whatever the Date's precision")
    func roundsJSONDates() async throws {
        // Given
        let (api, transport) = makeApi()
        let dates = [1_700_000_000.123_456, 1_700_000_000.123_5, -1.000_6, 0.000_4]

        for seconds in dates {
            // When
            _ = try await api.create(CreateRequest(event: Event(name: "e", at: Date(timeIntervalSince1970: seconds))))

            // Then
            let json = String(decoding: try #require(transport.lastRequest?.payload).data(), as: UTF8.self)
            let expected = Int64((seconds * 1000).rounded())
            #expect(json.contains("\"at\":\(expected)}") || json.contains("\"at\":\(expected),"), "\(json)")
        }
        #expect(dates.map { Int64(($0 * 1000).rounded()) } == [1_700_000_000_123, 1_700_000_000_124, -1_001, 0])
    }
}
