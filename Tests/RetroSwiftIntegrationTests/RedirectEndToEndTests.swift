import Foundation
import RetroSwift
import RetroSwiftTestServer
import RetroSwiftURLSession
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

@Suite("End to end: redirects", .timeLimit(.minutes(4)))
struct RedirectEndToEndTests {
    private struct Note: Codable, Equatable {
        var text: String
    }

    private struct JsonRequest {
        @Path var route: String = "same"
        @Path var status: Int = 307
        @Header("Authorization") var authorization: String = "Bearer own-token"
        @Header("Cookie") var cookie: String = "session=1"
        @JsonBody var note = Note(text: "héllo")
    }

    private struct FormRequest {
        @Path var route: String = "same"
        @Path var status: Int = 307
        @Header("Authorization") var authorization: String = "Bearer own-token"
        @FormParam var title: String = "a&b c"
    }

    private struct UploadRequest {
        @Path var route: String = "same"
        @Path var status: Int = 307
        @Header("Cookie") var cookie: String = "session=1"
        @FormParam var title: String = "notes"
        @FormFile("file") var file = .empty
    }

    // @unchecked Sendable: the fixture adds only endpoint wrappers, set up in init and never reassigned.
    private final class Api: Domain, @unchecked Sendable {
        @Post("/{route}/{status}") var json: (JsonRequest) async throws -> Empty
        @Post("/{route}/{status}") var form: (FormRequest) async throws -> Empty
        @Post("/{route}/{status}") var upload: (UploadRequest) async throws -> HTTPResponse<Empty>
        @Get("/loop") var loop: () async throws -> Empty
        @Get("/same/302", redirects: .never) var unfollowed: () async throws -> HTTPResponse<Empty>
    }

    /// Server A redirects `/same/<status>` to its own `/landed` and `/other/<status>` to server B's; B answers 204.
    private static func withServers(
        _ kind: TransportKind, _ body: (Api, _ origin: TestServer, _ other: TestServer) async throws -> Void
    ) async throws {
        let other = try await TestServer.start { _ in ScriptedResponse(status: 204) }
        let otherURL = other.baseURL.absoluteString
        do {
            try await withServer(
                kind, sharedHeaders: ["Authorization": "Bearer shared", "X-Client": "app"],
                respond: { request in
                    let parts = request.encodedPath.split(separator: "/")
                    switch (parts.first, parts.last.flatMap { Int($0) }) {
                    case ("same", let status?): return ScriptedResponse(status: status, headers: [("Location", "/landed?from=same")])
                    case ("other", let status?):
                        return ScriptedResponse(status: status, headers: [("Location", otherURL + "/landed?from=other")])
                    case ("loop", _): return ScriptedResponse(status: 302, headers: [("Location", "/loop")])
                    default: return ScriptedResponse(status: 204)
                    }
                }
            ) { transport, origin in
                let api = Api(transport: transport)
                api.multipartBoundary = { "redirect-boundary" }
                try await body(api, origin, other)
            }
            await other.stop()
        } catch {
            await other.stop()
            throw error
        }
    }

    private static let combinations = TransportKind.allCases.flatMap { kind in
        [307, 308].flatMap { status in ["same", "other"].map { (kind, status, $0) } }
    }

    @Test("307 and 308 repeat the method and the exact body (JSON, form, multipart in memory and from a file)", arguments: combinations)
    func bodyRepeated(kind: TransportKind, status: Int, route: String) async throws {
        let content = TestBytes.pattern(300_000)
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("retroswift-redirect-\(UUID().uuidString)")
        try content.write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }

        try await Self.withServers(kind) { api, origin, other in
            let landing = route == "same" ? origin : other

            // When
            _ = try await api.json(JsonRequest(route: route, status: status))
            _ = try await api.form(FormRequest(route: route, status: status))
            let inMemory = try await api.upload(
                UploadRequest(
                    route: route, status: status, file: .init(fileName: "a.txt", mimeType: "text/plain", content: Data("in memory".utf8))))
            let fromFile = try await api.upload(
                UploadRequest(
                    route: route, status: status, file: .init(fileName: "b.bin", mimeType: "application/octet-stream", fileURL: file)))

            // Then: each request arrived twice, the same method and body both times
            let sent = origin.requests.filter { $0.encodedPath == "/\(route)/\(status)" }
            let landed = landing.requests.filter { $0.encodedPath == "/landed" }
            #expect(sent.count == 4 && landed.count == 4)
            for (first, second) in zip(sent, landed) {
                #expect(second.method == "POST")
                #expect(second.target == "/landed?from=\(route)")
                #expect(second.body == first.body)
                #expect(second.header("Content-Type") == first.header("Content-Type"))
                #expect(second.header("Content-Length") == String(first.body.count))
            }
            #expect(landed.last?.body.count ?? 0 > content.count)
            #expect(inMemory.url?.absoluteString == landing.baseURL.absoluteString + "/landed?from=\(route)")
            #expect(fromFile.statusCode == 204)

            // Credentials go along only to the same origin
            let credentials = landed.map { [$0.header("Authorization"), $0.header("Cookie")] }
            if route == "same" {
                #expect(
                    credentials == [
                        ["Bearer own-token", "session=1"], ["Bearer own-token", nil], ["Bearer shared", "session=1"],
                        ["Bearer shared", "session=1"],
                    ])
            } else {
                #expect(credentials == Array(repeating: [nil, nil], count: 4))
            }
            #expect(landed.allSatisfy { $0.header("X-Client") == "app" })
        }
    }

    @Test("301 and 302 turn a POST into a GET without a body; 303 does so for any method", arguments: TransportKind.allCases)
    func becomesGet(kind: TransportKind) async throws {
        try await Self.withServers(kind) { api, origin, _ in
            // When
            for status in [301, 302, 303] {
                _ = try await api.json(JsonRequest(route: "same", status: status))
            }

            // Then
            let landed = origin.requests.filter { $0.encodedPath == "/landed" }
            #expect(landed.map(\.method) == ["GET", "GET", "GET"])
            #expect(landed.allSatisfy { $0.body.isEmpty && $0.header("Content-Type") == nil })
            #expect(landed.allSatisfy { $0.header("Authorization") == "Bearer own-token" })
        }
    }

    @Test("a redirect loop ends after 16 redirects with RequestError; .never returns the 3xx", arguments: TransportKind.allCases)
    func loopAndNever(kind: TransportKind) async throws {
        try await Self.withServers(kind) { api, origin, _ in
            // When
            let error = await #expect(throws: RequestError.self) { _ = try await api.loop() }
            let unfollowed = try await api.unfollowed()

            // Then
            #expect(error?.kind == .redirectRefused)
            #expect(error?.description == "Api.loop (GET /loop): more than 16 redirects; the last was 302 to '/loop'")
            #expect(origin.requests.filter { $0.encodedPath == "/loop" }.count == 17)
            #expect(unfollowed.statusCode == 302)
            #expect(unfollowed.header("Location") == "/landed?from=same")
            #expect(origin.requests.last?.encodedPath == "/same/302")
        }
    }

    @Test("URLSession: a credential in httpAdditionalHeaders stops a redirect to another origin instead of reaching it")
    func sessionCredentialsRefused() async throws {
        // Given
        let other = try await TestServer.start { _ in ScriptedResponse(status: 204) }
        let origin = try await TestServer.start { request in
            switch request.encodedPath {
            case "/away": ScriptedResponse(status: 307, headers: [("Location", other.baseURL.absoluteString + "/landed")])
            case "/home": ScriptedResponse(status: 307, headers: [("Location", "/landed")])
            case "/see-other": ScriptedResponse(status: 303, headers: [("Location", "/landed")])
            default: ScriptedResponse(status: 204)
            }
        }
        let configuration = URLSessionConfiguration.ephemeral
        configuration.httpAdditionalHeaders = ["Authorization": "Bearer session-secret", "Content-Type": "application/json"]
        let transport = URLSessionTransport(configuration: configuration)
        transport.setConfiguration(baseURL: origin.baseURL, sharedHeaders: nil)
        let api = SessionApi(transport: transport)

        // When
        let away = await Result { try await api.away() }
        let home = await Result { try await api.home() }
        // A 303 drops the body and its headers; a Content-Type in the session's headers is no credential.
        let seeOther = await Result { try await api.seeOther() }
        await origin.stop()
        await other.stop()

        // Then
        #expect(throws: RequestError.self) { try away.get() }
        if case .failure(let error as RequestError) = away {
            #expect(error.kind == .redirectRefused)
            #expect(error.description.contains("httpAdditionalHeaders carry 'Authorization'"))
        }
        #expect(other.requests.isEmpty)
        _ = try home.get()
        _ = try seeOther.get()
        #expect(origin.requests.last?.header("Authorization") == "Bearer session-secret")
    }

    // @unchecked Sendable: the fixture adds only endpoint wrappers, set up in init and never reassigned.
    private final class SessionApi: Domain, @unchecked Sendable {
        @Get("/away") var away: () async throws -> Empty
        @Get("/home") var home: () async throws -> Empty
        @Post("/see-other") var seeOther: () async throws -> Empty
    }
}
