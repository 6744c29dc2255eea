import Foundation
import RetroSwift
import RetroSwiftTesting
import Testing

@Suite("Responses and errors")
struct ResponseHandlingTests {
    private struct User: Codable, Equatable {
        var name: String
        var joined: Date
    }

    private struct Problem: Codable, Equatable {
        var message: String
    }

    private final class Api: Domain, @unchecked Sendable {
        @Get("/user") var user: () async throws -> User
        @Post("/user") var save: () async throws -> Either<User, Problem>
        @Delete("/user") var delete: () async throws -> Empty
        @Head("/user") var exists: () async throws -> Empty
        @Get("/raw") var raw: () async throws -> Data
        @Get("/text") var text: () async throws -> String
        @Get("/maybe") var maybe: () async throws -> User?
        @Get("/file") var file: () async throws -> DownloadedFile
    }

    private func api(_ response: HttpOperationResult) -> (Api, RecordingTransport) {
        let transport = RecordingTransport { _ in response }
        return (Api(transport: transport), transport)
    }

    @Test("a 2xx JSON body decodes with the domain's decoder, dates as epoch milliseconds")
    func decodesJSON() async throws {
        // Given
        let (api, _) = api(.json(#"{"name":"Ann","joined":1500}"#))

        // When
        let user = try await api.user()

        // Then
        #expect(user == User(name: "Ann", joined: Date(timeIntervalSince1970: 1.5)))
    }

    @Test("Empty accepts any 2xx, including 204 and HEAD", arguments: [200, 201, 204])
    func emptyAcceptsSuccess(status: Int) async throws {
        // Given
        let (api, transport) = api(HttpOperationResult(statusCode: status, body: Data("ignored".utf8)))

        // When
        _ = try await api.delete()
        _ = try await api.exists()

        // Then
        #expect(transport.requests.map(\.method) == [.delete, .head])
    }

    @Test("Either decodes .response on 2xx and .errorResponse otherwise")
    func eitherBothWays() async throws {
        // Given
        let (okApi, _) = api(.json(#"{"name":"Ann","joined":0}"#, status: 201))
        let (failingApi, _) = api(.json(#"{"message":"name taken"}"#, status: 422))

        // When
        let success = try await okApi.save()
        let failure = try await failingApi.save()

        // Then
        #expect(success == .response(User(name: "Ann", joined: Date(timeIntervalSince1970: 0))))
        #expect(failure == .errorResponse(Problem(message: "name taken")))
        #expect(failure.errorResponse?.message == "name taken")
    }

    @Test("Either falls back to HTTPError when the error body does not decode")
    func eitherFallsBack() async throws {
        // Given
        let (api, _) = api(.text("upstream down", status: 502))

        // When
        let error = await #expect(throws: HTTPError.self) { _ = try await api.save() }

        // Then
        #expect(error?.statusCode == 502)
        #expect(error?.description == "HTTP 502 Bad Gateway from Api.save (POST /user): upstream down")
    }

    @Test("a non-2xx status throws HTTPError with status, headers and body; text/plain goes in the description")
    func throwsHTTPError() async throws {
        // Given
        let (api, _) = api(.text("No such user", status: 404, headers: ["X-Request-Id": "r1"]))

        // When
        let error = await #expect(throws: HTTPError.self) { _ = try await api.user() }

        // Then
        #expect(error?.statusCode == 404)
        #expect(error?.headers["X-Request-Id"] == "r1")
        #expect(error?.body == Data("No such user".utf8))
        #expect(error?.localizedDescription == "HTTP 404 Not Found from Api.user (GET /user): No such user")
    }

    @Test(
        "any text/* error body is quoted in the description, trimmed, in the charset it names",
        arguments: [
            ("text/html; charset=utf-8", Data("<h1>Forbidden</h1>\n".utf8), "<h1>Forbidden</h1>"),
            ("TEXT/CSV", Data("a,b\n1,2".utf8), "a,b\n1,2"),
            ("text/plain; charset=\"ISO-8859-1\"", Data([0x43, 0x61, 0x66, 0xE9]), "Café"),
            ("text/plain", Data("  \n".utf8), nil),
        ] as [(String, Data, String?)])
    func textErrorBodies(contentType: String, body: Data, quoted: String?) async throws {
        // Given
        let (api, _) = api(HttpOperationResult(statusCode: 403, headers: ["Content-Type": contentType], body: body))

        // When
        let error = await #expect(throws: HTTPError.self) { _ = try await api.user() }

        // Then
        #expect(error?.description == "HTTP 403 Forbidden from Api.user (GET /user)" + (quoted.map { ": " + $0 } ?? ""))
    }

    @Test("a huge text error body is cut at 1,000 characters and says how much was left out")
    func hugeTextErrorBody() async throws {
        // Given
        let page = String(repeating: "é", count: 1_000) + String(repeating: "x", count: 4_321)
        let (api, _) = api(HttpOperationResult(statusCode: 502, headers: ["Content-Type": "text/html"], body: Data(page.utf8)))

        // When
        let error = await #expect(throws: HTTPError.self) { _ = try await api.user() }

        // Then
        #expect(
            error?.description == "HTTP 502 Bad Gateway from Api.user (GET /user): " + String(repeating: "é", count: 1_000)
                + "… (4321 more characters)")
        #expect(error?.body.count == 6_321)
    }

    @Test("a JSON error body is kept in the error and quoted in its description")
    func jsonErrorBody() async throws {
        // Given
        let (api, _) = api(.json(#"{"message":"boom"}"#, status: 500))

        // When
        let error = await #expect(throws: HTTPError.self) { _ = try await api.delete() }

        // Then
        #expect(error?.description == #"HTTP 500 Internal Server Error from Api.delete (DELETE /user): {"message":"boom"}"#)
        #expect(error?.localizedDescription == error?.description)
        #expect(error?.bodyText == nil)
        #expect(error?.body == Data(#"{"message":"boom"}"#.utf8))
    }

    @Test("a 2xx body that does not decode throws an error naming the endpoint")
    func undecodableBody() async throws {
        // Given
        let (api, _) = api(.json(#"{"name":"Ann"}"#))

        // When
        let error = await #expect(throws: RequestError.self) { _ = try await api.user() }

        // Then
        #expect(error?.kind == .undecodableResponse)
        #expect(error?.response?.statusCode == 200)
        #expect(error?.description.hasPrefix("Api.user (GET /user): the HTTP 200 body does not decode as User: ") == true)
        #expect(error?.description.contains("joined") == true)
    }

    @Test("Data and String receive the raw body")
    func rawBodies() async throws {
        // Given
        let (api, _) = api(HttpOperationResult(statusCode: 200, body: Data("héllo".utf8)))

        // When
        let data = try await api.raw()
        let text = try await api.text()

        // Then
        #expect(data == Data("héllo".utf8))
        #expect(text == "héllo")
    }

    @Test("an optional response is nil for an empty 204")
    func optionalOn204() async throws {
        // Given
        let (api, _) = api(HttpOperationResult(statusCode: 204))

        // When
        let user = try await api.maybe()

        // Then
        #expect(user == nil)
    }

    @Test("DownloadedFile asks the transport for a file and receives its URL")
    func downloadedFile() async throws {
        // Given
        let url = URL(fileURLWithPath: "/tmp/already-downloaded")
        let (api, transport) = api(
            HttpOperationResult(statusCode: 200, headers: ["content-type": "Application/Zip"], body: .file(url)))

        // When
        let file = try await api.file()

        // Then
        #expect(transport.lastRequest?.responseDestination == .file)
        #expect(file == DownloadedFile(url: url, mimeType: "application/zip"))
    }
}
