import Foundation
import RetroSwiftTesting
import Testing

@testable import RetroSwift

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

@Suite("README examples")
struct ReadmeExamplesTests {
    @Test("getSchedules sends page, limit and the account header, and decodes the response")
    func getSchedules() async throws {
        // Given
        let transport = RecordingTransport { _ in .json(#"{"schedules":[{"id":"7","title":"Standup"}]}"#) }

        // When
        let response = try await ReadmeUsage.getSchedules(transport: transport)

        // Then
        #expect(response == GetSchedulesResponse(schedules: [Schedule(id: "7", title: "Standup")]))
        let request = try #require(transport.lastRequest)
        #expect(request.method == .get)
        #expect(request.url.absoluteString == "https://rest.bandsintown.com/api/v1/schedule?page=1&limit=30")
        #expect(request.headers == [HTTPHeader(name: "X-Account-Id", value: "acc_id")])
        #expect(request.body == nil)
    }

    @Test("speechToText sends a multipart form with the recording")
    func speechToText() async throws {
        // Given
        let transport = RecordingTransport { _ in .json(#"{"text":"hello"}"#) }
        let api = ElevenLabsApi(transport: transport)
        api.multipartBoundary = { "b0undary" }

        // When
        let text = try await ReadmeUsage.speechToText(api: api, languageCode: "en", recording: Data([0x00, 0xFF, 0x0D, 0x0A]))

        // Then
        #expect(text == "hello")
        let body = try #require(transport.lastRequest?.payload)
        #expect(body.contentType == "multipart/form-data; boundary=b0undary")
        let expected =
            Data(
                """
                --b0undary\r
                Content-Disposition: form-data; name="model_id"\r
                \r
                scribe_v1\r
                --b0undary\r
                Content-Disposition: form-data; name="language_code"\r
                \r
                en\r
                --b0undary\r
                Content-Disposition: form-data; name="tag_audio_events"\r
                \r
                false\r
                --b0undary\r
                Content-Disposition: form-data; name="num_speakers"\r
                \r
                1\r
                --b0undary\r
                Content-Disposition: form-data; name="file"; filename="recording.caf"\r
                Content-Type: audio/x-caf\r
                \r

                """.utf8) + Data([0x00, 0xFF, 0x0D, 0x0A]) + Data("\r\n--b0undary--\r\n".utf8)
        #expect(try body.data() == expected)
    }

    @Test("the README's mocks replace the endpoints")
    func mocks() async throws {
        // Given
        let transport = RecordingTransport()
        let api = SchedulesApi(transport: transport)

        // When
        ReadmeUsage.mock(api)
        let schedules = try await api.getSchedules(GetSchedulesRequest(page: 1))
        let deletion = try await api.deleteSchedule(DeleteScheduleRequest(ScheduleId: "1"))

        // Then
        #expect(schedules.schedules.first?.title == "Mocked")
        #expect(deletion == .errorResponse(DeleteScheduleErrorResponse(errorMessage: "Schedule not found")))
        #expect(transport.requests.isEmpty)
    }

    @Test("the README's redirect example returns the 302 itself with its Location")
    func fileLink() async throws {
        // Given
        let transport = RecordingTransport { _ in .redirect(to: "https://cdn.example.com/7.bin", status: 302) }

        // When
        let location = try await ReadmeUsage.fileLink(transport: transport)

        // Then
        #expect(location == "https://cdn.example.com/7.bin")
        #expect(transport.requests.count == 1)
    }

    @Test("the README's environments example: two domains share a transport, and one switches to production")
    func environments() async throws {
        // Given
        let transport = RecordingTransport()

        // When
        try await ReadmeUsage.environments(transport: transport, stagingKey: "s-key", productionKey: "p-key")

        // Then
        let sent = transport.requests.map { request in
            "\(request.url) \(request.headerFields.map { "\($0.name): \($0.value)" })"
        }
        #expect(
            sent == [
                "https://staging.example.com/files/1 [\"X-Api-Key: s-key\"]",
                "https://media.example.com/files/2 []",
                "https://api.example.com/files/3 [\"X-Api-Key: p-key\"]",
            ])
    }

    @Test("the README's maps example sends the query its comment shows")
    func maps() async throws {
        // Given
        let transport = RecordingTransport()

        // When
        try await ReadmeUsage.search(SearchApi(transport: transport))

        // Then
        #expect(transport.lastRequest?.encodedPathAndQuery == "/search?page=2&q=a%26b&sort=name")
    }

    @Test("the README's @Url example sends the URLs its comments show, and no shared header to the CDN")
    func feed() async throws {
        // Given
        let transport = RecordingTransport()
        transport.setConfiguration(baseURL: URL(string: "https://api.example.com/v2")!, sharedHeaders: ["X-Api-Key": "k"])

        // When
        try await ReadmeUsage.feed(FeedApi(transport: transport))

        // Then
        let urls = transport.requests.map { $0.url.absoluteString }
        #expect(
            urls == [
                "https://api.example.com/v2/feeds/42?cursor=abc&limit=20", "https://api.example.com/feeds/42?cursor=def",
                "https://avatars.example-cdn.com/u/7.png",
            ])
        let headers = transport.requests.map { $0.headerFields(sharedHeaders: ["X-Api-Key": "k"]).map(\.name) }
        #expect(headers == [["X-Api-Key"], ["X-Api-Key"], []])
    }

    @Test("the README's shared query items example sends the query its comment shows")
    func sharedQueryItems() async throws {
        // Given
        final class FlickrApi: Domain, @unchecked Sendable {
            @Get("/services/rest?method=flickr.photos.search") var search: () async throws -> Empty
        }
        let transport = RecordingTransport()
        transport.setConfiguration(baseURL: URL(string: "https://api.flickr.com")!, sharedHeaders: nil)
        let api = FlickrApi(transport: transport)
        ReadmeSharedQueryItems.install(on: api, flickrKey: "k1")

        // When
        _ = try await api.search()

        // Then
        #expect(transport.lastRequest?.encodedPathAndQuery == "/services/rest?method=flickr.photos.search&api_key=k1&format=json")
    }

    @Test("a mock that throws URLError surfaces it")
    func throwingMock() async throws {
        // Given
        let api = SchedulesApi(transport: RecordingTransport())
        api.deleteSchedule = { _ in throw URLError(.userAuthenticationRequired) }

        // When / Then
        await #expect(throws: URLError.self) {
            _ = try await api.deleteSchedule(DeleteScheduleRequest(ScheduleId: "1"))
        }
    }

    @Test("deleteSchedule decodes the documented error body into .errorResponse")
    func deleteScheduleError() async throws {
        // Given
        let transport = RecordingTransport { _ in .json(#"{"errorMessage":"Schedule not found"}"#, status: 404) }
        let api = SchedulesApi(transport: transport)

        // When
        let result = try await api.deleteSchedule(DeleteScheduleRequest(ScheduleId: "42", accountId: "acc"))

        // Then
        #expect(result == .errorResponse(DeleteScheduleErrorResponse(errorMessage: "Schedule not found")))
        #expect(transport.lastRequest?.encodedPath == "/api/v1/schedule/42")
        #expect(transport.lastRequest?.method == .delete)
    }

    @Test("createSchedule sends the JSON body with its content type")
    func createSchedule() async throws {
        // Given
        let transport = RecordingTransport()
        let api = SchedulesApi(transport: transport)
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        api.jsonEncoder = encoder

        // When
        _ = try await api.createSchedule(CreateScheduleRequest(accountId: "acc", scheduleBody: Schedule(id: "1", title: "A")))

        // Then
        let request = try #require(transport.lastRequest)
        #expect(request.method == .put)
        #expect(try request.payload?.data() == Data(#"{"id":"1","title":"A"}"#.utf8))
        #expect(request.headerFields.map(\.name) == ["X-Account-Id", "Content-Type"])
        #expect(request.headerFields.last?.value == "application/json")
    }
}
