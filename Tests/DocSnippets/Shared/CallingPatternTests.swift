// Calls and mocks of the original README's API and of each feature (CallingPatternDeclarations.swift), made the
// ways apps and servers make them, in each compiler configuration of the DocSnippets targets (see Package.swift):
// from a main-actor view model everywhere, and — where the API types are not main-actor isolated by default — from
// a plain nonisolated function, a detached task and a task group.
import Foundation
import RetroSwift
import RetroSwiftTesting
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

extension CallingPatterns {
    static func makeReadmeTransport() -> RecordingTransport {
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
    final class ScheduleViewModel {
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
    struct CallingPatternTests {
        @Test("calls and mocks from a main-actor view model")
        @MainActor
        func fromTheMainActor() async throws {
            // Given
            let transport = CallingPatterns.makeReadmeTransport()
            let model = ScheduleViewModel(
                api: SchedulesApi(transport: transport),
                lib: SchedulesApiLib(transport: CallingPatterns.makeReadmeTransport(), baseURL: URL(string: "http://127.0.0.1:8080/api")!),
                eleven: ElevenLabsApi(transport: CallingPatterns.makeReadmeTransport())
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
            let transport = CallingPatterns.makeReadmeTransport()
            transport.setConfiguration(baseURL: URL(string: "https://api.example.com/v2")!, sharedHeaders: ["X-Api-Key": "k"])
            let feed = FeedApi(transport: transport)

            // When
            let first = try await feed.page(FetchPageRequest(url: "feeds/42?cursor=abc", limit: 20))
            let second = try await feed.page(FetchPageRequest(url: "https://api.example.com/feeds/42?cursor=def"))
            let avatar = try await feed.avatar(AvatarRequest(url: URL(string: "https://avatars.example-cdn.com/u/7.png")!))

            // Then
            #expect([first.body, second.body] == ["page", "page"])
            #expect(avatar == Data([0x89]))
            #expect(transport.lastRequest?.withholdsCredentials == true)
            try feed.validateEndpoints()
        }

        @Test("the pagination example from the main actor: a limit, an item by index, and Link headers")
        @MainActor
        func pagination() async throws {
            // Given
            let transport = CallingPatterns.makeReadmeTransport()
            transport.setConfiguration(baseURL: URL(string: "https://api.github.com")!, sharedHeaders: nil)
            let github = GitHubApi(transport: transport)

            // When
            let gists = Paginated(
                github.publicGists, from: PublicGistsRequest(), by: .pageNumber(\.page, pageSize: \.perPage, items: \.self))
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
            let transport = CallingPatterns.makeReadmeTransport()
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
            #expect(transport.requests[1].header("Last-Event-ID") == "2")
            #expect(warnings == ["slow"])
            #expect((typedError as? RequestError)?.kind == .undecodableResponse)
            #expect(uploaded.size == 3)
            try chat.validateEndpoints()
        }

        #if !SNIPPETS_MAIN_ACTOR_DEFAULT
            @Test("calls from a nonisolated function, a detached task and a task group; a mock assigned off the main actor")
            func offTheMainActor() async throws {
                // Given
                let api = SchedulesApi(transport: CallingPatterns.makeReadmeTransport())
                let lib = SchedulesApiLib(
                    transport: CallingPatterns.makeReadmeTransport(), baseURL: URL(string: "http://127.0.0.1:8080/api")!)
                let seedForm = SeedFormSchedulesApi(transport: CallingPatterns.makeReadmeTransport())

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
}
