// The APIs and calls of CallingPatternTests (at the end of this file): the original README's API and one per
// feature, declared and called the ways apps and servers do, in each compiler configuration of the DocSnippets
// targets (see Package.swift). Everything is fileprivate, beside the declarations the MarkdownSnippets plugin
// generates from README.md and the DocC articles.
// MainActor default isolation (Xcode 26 app targets): `nonisolated` before each class that derives directly from
// RetroSwift's `Domain` or `ApiDomain`, and no `@unchecked Sendable`. `SchedulesApi` and `ElevenLabsApi` derive from
// the seed README's own `nonisolated class ApiDomain` below, so they need nothing and are main-actor isolated.
import Foundation
import RetroSwift
import RetroSwiftTesting
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

private struct Schedule: Codable, Equatable, Sendable {
    var id: String
    var title: String
}

private struct GetSchedulesResponse: Codable, Equatable, Sendable {
    var schedules: [Schedule]
}

private struct UpdateScheduleRequest {
    @Path("schedule_id") var scheduleId: String = ""
    @Header("X-Account-Id") var accountId: String = ""
    @JsonBody var schedule: Schedule
}

private struct UpdateScheduleResponse: Codable, Equatable, Sendable {
    var updated: Bool
}

private struct DeleteScheduleResponse: Codable, Equatable, Sendable {
    var deleted: Bool
}

private struct DeleteScheduleErrorResponse: Codable, Equatable, Sendable {
    var errorMessage: String
}

private final class SchedulesApi: ApiDomain {
    @Get("/api/v1/schedule")
    var getSchedules: (GetSchedulesRequest) async throws -> GetSchedulesResponse

    @Put("/api/v1/schedule")
    var createSchedule: (CreateScheduleRequest) async throws -> Empty

    @Post("/api/v1/schedule/{schedule_id}")
    var updateSchedule: (UpdateScheduleRequest) async throws -> UpdateScheduleResponse

    @Delete("/api/v1/schedule/{schedule_id}")
    var deleteSchedule: (DeleteScheduleRequest) async throws -> Either<DeleteScheduleResponse, DeleteScheduleErrorResponse>
}

private struct GetSchedulesRequest {
    @Query var page: Int
    @Query("limit") var schedulesPerPage: Int = 0
    @Header("X-Account-Id") var accountId: String = ""
}

private struct CreateScheduleRequest {
    @Header("X-Account-Id") var accountId: String = ""
    @JsonBody var scheduleBody: Schedule
}

private struct DeleteScheduleRequest {
    @Path("schedule_id") var ScheduleId: String = ""
    @Header("X-Account-Id") var accountId: String = ""
}

private struct SpeechToTextApiRequest {
    @FormParam("model_id") var modelId = ""
    @FormParam("language_code") var languageCode = ""
    @FormParam("tag_audio_events") var tagAudioEvents = false
    @FormParam("num_speakers") var numSpeakers = 1
    @FormFile("file") var recording = .empty
}

private final class ElevenLabsApi: ApiDomain {
    typealias SpeechToTextApiRequest = ReadmeSpeechToTextApiRequest

    struct SpeechToTextResponse: Decodable, Sendable {
        var text: String
    }

    @Post("/v1/speech-to-text")
    var speechToText: (SpeechToTextApiRequest) async throws -> SpeechToTextResponse
}

/// The README's `ElevenLabsApi.SpeechToTextApiRequest`, reachable without naming this fixture's module.
private typealias ReadmeSpeechToTextApiRequest = SpeechToTextApiRequest

// The seed README's own ApiDomain, shadowing the library's.
private nonisolated class ApiDomain: Domain {
    override init(transport: HttpTransport) {
        super.init(transport: transport)
        transport.setConfiguration(scheme: "https", host: "rest.bandsintown.com", sharedHeaders: nil)
    }
}

// The same API on the library's own ApiDomain (not shadowed).
private nonisolated final class SchedulesApiLib: RetroSwift.ApiDomain {
    @Get("/api/v1/schedule")
    var getSchedules: (GetSchedulesRequest) async throws -> GetSchedulesResponse

    @Delete("/api/v1/schedule/{schedule_id}")
    var deleteSchedule: (DeleteScheduleRequest) async throws -> Either<DeleteScheduleResponse, DeleteScheduleErrorResponse>

    @Get("/health")
    var health: () async throws -> Empty

    @Get("/health")
    var sendableHealth: @Sendable () async throws -> Empty

    @Get("/api/v1/schedule")
    var sendableGetSchedules: @Sendable (GetSchedulesRequest) async throws -> GetSchedulesResponse
}

// The README's @Url example (Parameters section).
private struct FetchPageRequest {
    @Url var url: String = ""
    @Query var limit: Int? = nil
}

private struct AvatarRequest {
    @Url var url: URL
}

// `nonisolated` and no `@unchecked Sendable`, as the README's Concurrency section says for this configuration.
private nonisolated final class FeedApi: Domain {
    @Get() var page: (FetchPageRequest) async throws -> HttpResponse<String>
    @Get(otherHosts: .allowing(["avatars.example-cdn.com"])) var avatar: (AvatarRequest) async throws -> Data
}

// The README's pagination example (Pagination section).
private struct Gist: Decodable, Sendable {
    var id: String
}

private struct GitHubIssue: Decodable, Sendable {
    var number: Int
}

private struct PublicGistsRequest: Sendable {
    @Query var page: Int = 1
    @Query("per_page") var perPage: Int = 30
}

private struct IssuesPage: Sendable {
    @Url var url: String = "/repos/apple/swift/issues?per_page=100"
}

// `nonisolated` and no `@unchecked Sendable`, as the README's Concurrency section says for this configuration.
private nonisolated final class GitHubApi: Domain {
    @Get("/gists/public") var publicGists: (PublicGistsRequest) async throws -> [Gist]
    @Get() var issues: (IssuesPage) async throws -> HttpResponse<[GitHubIssue]>
}

// The README's nested API example (Endpoints section).
private struct RepositoryIssuesRequest {
    @Query var state: String = "open"
}

// `nonisolated` and no `@unchecked Sendable`, as the README's Concurrency section says for this configuration.
private nonisolated final class RepositoryApi: Domain {
    @Get("/issues") var issues: (RepositoryIssuesRequest) async throws -> [GitHubIssue]
}

extension GitHubApi {
    fileprivate func repository(owner: String, name: String) -> RepositoryApi {
        RepositoryApi(parent: self, path: "/repos/{owner}/{name}", values: ["owner": owner, "name": name])
    }
}

// The README's streaming example (Streaming responses section). A streamed element type is decoded inside the
// iterator, off the main actor, so it is `nonisolated` here, as the README's Concurrency section says.
private nonisolated struct ChatDelta: Decodable, Sendable {
    var text: String
}

private struct ChatPrompt: Encodable, Sendable {
    var model: String
    var prompt: String
}

private struct ChatRequest: Sendable {
    @JsonBody var body: ChatPrompt
    @Header("Last-Event-ID") var lastEventID: String? = nil
}

private nonisolated struct LogLine: Decodable, Sendable {
    var level: String
    var message: String
}

// `nonisolated` and no `@unchecked Sendable`, as the README's Concurrency section says for this configuration.
private nonisolated final class ChatApi: Domain {
    @Post("/v1/chat") var chat: (ChatRequest) async throws -> ServerSentEvents<ChatDelta>
    @Post("/v1/chat") var chatEvents: (ChatRequest) async throws -> ServerSentEvents<ServerSentEvent>
    @Get("/v1/logs") var logs: () async throws -> JSONLines<LogLine>
}

// The README's progress example (Transfer progress section).
private struct PutFileRequest {
    @Path var name: String
    @RawBody var file: RawBodyContent
}

private struct StoredFile: Decodable, Sendable {
    var size: Int
}

// `nonisolated` and no `@unchecked Sendable`, as the README's Concurrency section says for this configuration.
private nonisolated final class UploadsApi: Domain {
    @Put("/v1/files/{name}") var put: (PutFileRequest) async throws -> StoredFile
}

// Calls and mocks of the original README's API and of each feature, made the ways apps and servers make them, in
// each compiler configuration of the DocSnippets targets (see Package.swift): from a main-actor view model
// everywhere, and — where the API types are not main-actor isolated by default — from a plain nonisolated function,
// a detached task and a task group. The targets also compile README.md's and the DocC articles' code blocks, which
// the MarkdownSnippets plugin generates as fileprivate declarations beside these.

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

private func makeReadmeTransport() -> RecordingTransport {
    RecordingTransport { params in
        switch (params.method, params.encodedPathAndQuery) {
        case (.get, let path) where path.hasPrefix("/api/v1/schedule"): return .json(#"{"schedules":[{"id":"7","title":"Standup"}]}"#)
        case (.delete, _): return .json(#"{"errorMessage":"nope"}"#, status: 404)
        case (.post, "/v1/speech-to-text"): return .json(#"{"text":"hello"}"#)
        case (.get, "/health"): return HttpOperationResult(statusCode: 204)
        case (.get, "/test/fibonacci?count=8"): return .json("[0, 1, 1, 2, 3, 5, 8, 13]")
        case (.get, "/feeds/42?cursor=abc&limit=20"), (.get, "/feeds/42?cursor=def"): return .text("page", status: 200)
        case (.get, let path) where path.hasPrefix("/gists/public?page="):
            let page = Int(path.dropFirst("/gists/public?page=".count).prefix { $0.isNumber }) ?? 1
            let ids = page <= 4 ? ((page - 1) * 30)..<(page * 30) : 0..<0
            return .json("[" + ids.map { #"{"id":"g\#($0)"}"# }.joined(separator: ",") + "]")
        case (.get, "/repos/apple/swift/issues?per_page=100"):
            return .json(#"[{"number":1}]"#, headers: ["Link": #"</repos/apple/swift/issues?per_page=100&page=2>; rel="next""#])
        case (.get, "/repos/apple/swift/issues?per_page=100&page=2"): return .json(#"[{"number":2}]"#)
        case (.get, "/repos/apple/swift/issues?state=open"): return .json(#"[{"number":3}]"#)
        case (.get, "/u/7.png"): return HttpOperationResult(statusCode: 200, headers: [:], body: Data([0x89]))
        case (.post, "/v1/chat"):
            return .streamed(
                ["id: 1\ndata: {\"text\":\"Hel\"}\n\n", "id: 2\ndata: {\"text\":\"lo\"}\n\n", "data: [DONE]\n\n"],
                interval: .milliseconds(5), headers: ["Content-Type": "text/event-stream"])
        case (.get, "/v1/logs"):
            return .streamed([#"{"level":"info","message":"up"}"# + "\n", #"{"level":"warn","message":"slow"}"#])
        case (.put, "/v1/files/big.bin"): return .json(#"{"size":3}"#)
        default: return .text("unexpected \(params.method) \(params.encodedPathAndQuery)", status: 500)
        }
    }
}

@MainActor
private final class ScheduleViewModel {
    let api: SchedulesApi
    let lib: SchedulesApiLib
    let eleven: ElevenLabsApi
    var schedules: [Schedule] = []
    var fibonacci: [Int] = []

    init(api: SchedulesApi, lib: SchedulesApiLib, eleven: ElevenLabsApi) {
        self.api = api
        self.lib = lib
        self.eleven = eleven
    }

    func load() async throws {
        let request = GetSchedulesRequest(page: 1, schedulesPerPage: 30, accountId: "acc_id")
        let response = try await api.getSchedules(request)
        schedules = response.schedules
        schedules += try await lib.getSchedules(request).schedules
        _ = try await lib.health()
        try await lib.invoke(.get, path: "health", returning: Empty.self)
        fibonacci = try await lib.invoke(.get, path: "test/fibonacci", arguments: ["count": 8])
        _ = try await lib.sendableHealth()
        schedules += try await lib.sendableGetSchedules(GetSchedulesRequest(page: 2)).schedules
    }

    func delete() async throws -> Either<DeleteScheduleResponse, DeleteScheduleErrorResponse> {
        try await api.deleteSchedule(DeleteScheduleRequest(ScheduleId: "42", accountId: "acc_id"))
    }

    func speechToText(languageCode: String, recording: Data) async throws -> String {
        let request = ElevenLabsApi.SpeechToTextApiRequest(
            modelId: "scribe_v1",
            languageCode: languageCode,
            tagAudioEvents: false,
            numSpeakers: 1,
            recording: .init(fileName: "recording.caf", mimeType: "audio/x-caf", content: recording)
        )

        let transcribedText = try await eleven.speechToText(request).text
        return transcribedText
    }

    func mock() {
        api.getSchedules = { _ in
            GetSchedulesResponse(schedules: [Schedule(id: "1", title: "Mocked")])
        }

        api.deleteSchedule = { _ in
            throw URLError(.userAuthenticationRequired)
        }

        api.deleteSchedule = { _ in
            .errorResponse(DeleteScheduleErrorResponse(errorMessage: "Schedule not found"))
        }
    }
}

@Suite("Calling patterns in this compiler configuration")
private struct CallingPatternTests {
    @Test("calls and mocks from a main-actor view model")
    @MainActor
    func fromTheMainActor() async throws {
        // Given
        let transport = makeReadmeTransport()
        let model = ScheduleViewModel(
            api: SchedulesApi(transport: transport),
            lib: SchedulesApiLib(transport: makeReadmeTransport(), baseURL: URL(string: "http://127.0.0.1:8080/api")!),
            eleven: ElevenLabsApi(transport: makeReadmeTransport())
        )

        // When
        try await model.load()
        let deleted = try await model.delete()
        let text = try await model.speechToText(languageCode: "en", recording: Data([0, 1, 2]))

        // Then
        #expect(model.schedules.map(\.title) == ["Standup", "Standup", "Standup"])
        #expect(model.fibonacci == [0, 1, 1, 2, 3, 5, 8, 13])
        #expect(transport.requests.first?.encodedPathAndQuery == "/api/v1/schedule?page=1&limit=30")
        guard case .errorResponse(let error) = deleted else {
            Issue.record("expected .errorResponse")
            return
        }
        #expect(error.errorMessage == "nope")
        #expect(text == "hello")

        // When
        model.mock()
        try await model.load()
        let mockedDelete = try await model.delete()

        // Then
        #expect(model.schedules.first?.title == "Mocked")
        guard case .errorResponse(let mocked) = mockedDelete else {
            Issue.record("expected the mocked error")
            return
        }
        #expect(mocked.errorMessage == "Schedule not found")

        // When
        model.api.$getSchedules.removeMock()
        model.api.removeAllMocks()
        try await model.load()

        // Then
        #expect(model.schedules.first?.title == "Standup")
        try model.api.validateEndpoints()
        try model.lib.validateEndpoints()
        try model.eleven.validateEndpoints()
    }

    @Test("the @Url example from the main actor: a path under the base path, a full link, and an allowed CDN")
    @MainActor
    func dynamicURLs() async throws {
        // Given
        let transport = makeReadmeTransport()
        transport.setConfiguration(baseURL: URL(string: "https://api.example.com/v2")!, sharedHeaders: ["X-Api-Key": "k"])
        let feed = FeedApi(transport: transport)

        // When
        let first = try await feed.page(FetchPageRequest(url: "feeds/42?cursor=abc", limit: 20))
        let second = try await feed.page(FetchPageRequest(url: "https://api.example.com/feeds/42?cursor=def"))
        let avatar = try await feed.avatar(AvatarRequest(url: URL(string: "https://avatars.example-cdn.com/u/7.png")!))

        // Then
        #expect([first.body, second.body] == ["page", "page"])
        #expect(avatar == Data([0x89]))
        #expect(transport.lastRequest?.withholdsSharedHeaders == true)
        try feed.validateEndpoints()
    }

    @Test("the pagination example from the main actor: a limit, an item by index, and Link headers")
    @MainActor
    func pagination() async throws {
        // Given
        let transport = makeReadmeTransport()
        transport.setConfiguration(baseURL: URL(string: "https://api.github.com")!, sharedHeaders: nil)
        let github = GitHubApi(transport: transport)

        // When
        let gists = Paginated(github.publicGists, from: PublicGistsRequest(), by: .pageNumber(\.page, pageSize: \.perPage, items: \.self))
        var first45: [String] = []
        for try await gist in gists.prefix(45) { first45.append(gist.id) }
        let hundredth = try await gists.item(at: 99)
        let issues = Paginated(github.issues, from: IssuesPage(), by: .linkHeader(\.url, items: \.self))
        var numbers: [Int] = []
        for try await issue in issues { numbers.append(issue.number) }

        // Then
        #expect(first45 == (0..<45).map { "g\($0)" })
        #expect(hundredth?.id == "g99")
        #expect(numbers == [1, 2])
        #expect(transport.requests.count == 2 + 1 + 2)

        // The nested API example: GET /repos/apple/swift/issues?state=open
        let open = try await github.repository(owner: "apple", name: "swift").issues(RepositoryIssuesRequest())
        #expect(open.map(\.number) == [3])
    }

    @Test("the streaming and progress examples from the main actor: events, [DONE], resuming, JSON Lines, an upload's progress")
    @MainActor
    func streaming() async throws {
        // Given
        let transport = makeReadmeTransport()
        transport.setConfiguration(baseURL: URL(string: "https://api.example.com")!, sharedHeaders: nil)
        let chat = ChatApi(transport: transport)
        let prompt = ChatPrompt(model: "small", prompt: "Say hello")

        // When: the README's loops
        var text = ""
        var lastEventID: String?
        for try await event in try await chat.chatEvents(ChatRequest(body: prompt)) {
            if event.data == "[DONE]" { break }
            text += try event.decodeData(as: ChatDelta.self).text
            lastEventID = event.id
        }
        _ = try await chat.chatEvents(ChatRequest(body: prompt, lastEventID: lastEventID))
        var warnings: [String] = []
        for try await line in try await chat.logs() where line.level == "warn" { warnings.append(line.message) }
        var typedError: (any Error)?
        do {
            for try await delta in try await chat.chat(ChatRequest(body: prompt)) { text += delta.text }
        } catch {
            typedError = error
        }
        let progress = Protected<[TransferProgress]>([])
        let uploads = UploadsApi(transport: transport)
        let uploaded = try await TransferProgress.observe({ report in progress.mutate { $0.append(report) } }) {
            try await uploads.put(PutFileRequest(name: "big.bin", file: RawBodyContent(data: Data([1, 2, 3]))))
        }

        // Then
        #expect(text == "HelloHello")
        #expect(lastEventID == "2")
        #expect(transport.requests[1].headers.contains { $0.name == "Last-Event-ID" && $0.value == "2" })
        #expect(warnings == ["slow"])
        #expect((typedError as? RequestError)?.kind == .undecodableResponse)
        #expect(uploaded.size == 3)
        try chat.validateEndpoints()
    }

    #if !SNIPPETS_MAIN_ACTOR_DEFAULT
        @Test("calls from a nonisolated function, a detached task and a task group; a mock assigned off the main actor")
        func offTheMainActor() async throws {
            // Given
            let api = SchedulesApi(transport: makeReadmeTransport())
            let lib = SchedulesApiLib(transport: makeReadmeTransport(), baseURL: URL(string: "http://127.0.0.1:8080/api")!)
            let seedForm = SeedFormSchedulesApi(transport: makeReadmeTransport())

            // When
            let plain = try await Self.plainNonisolatedCall(api: api, lib: lib)
            let detached = try await Task.detached {
                let request = GetSchedulesRequest(page: 3)
                var result = try await api.getSchedules(request).schedules
                result += try await lib.getSchedules(request).schedules
                result += try await lib.sendableGetSchedules(request).schedules
                _ = try await lib.sendableHealth()
                return result
            }.value
            api.getSchedules = { _ in GetSchedulesResponse(schedules: []) }
            let mocked = try await Task.detached { try await api.getSchedules(GetSchedulesRequest(page: 1)) }.value
            api.removeAllMocks()
            let counts = try await withThrowingTaskGroup(of: Int.self) { group in
                for page in 1...20 {
                    group.addTask { try await api.getSchedules(GetSchedulesRequest(page: page)).schedules.count }
                }
                return try await group.reduce(into: [Int]()) { $0.append($1) }
            }
            let seed = try await seedForm.getSchedules(GetSchedulesRequest(page: 1))

            // Then
            #expect(plain.count == 2)
            #expect(detached.count == 3)
            #expect(mocked.schedules.isEmpty)
            #expect(counts == Array(repeating: 1, count: 20))
            #expect(seed.schedules.count == 1)
        }

        private static func plainNonisolatedCall(api: SchedulesApi, lib: SchedulesApiLib) async throws -> [Schedule] {
            let request = GetSchedulesRequest(page: 1, schedulesPerPage: 30, accountId: "acc_id")
            var result = try await api.getSchedules(request).schedules
            result += try await lib.getSchedules(request).schedules
            _ = try await lib.health()
            try await lib.invoke(.get, path: "health", returning: Empty.self)
            let fibonacci: [Int] = try await lib.invoke(.get, path: "test/fibonacci", arguments: ["count": 8])
            #expect(fibonacci.count == 8)
            _ = try await api.deleteSchedule(DeleteScheduleRequest(ScheduleId: "1"))
            return result
        }
    #endif
}
