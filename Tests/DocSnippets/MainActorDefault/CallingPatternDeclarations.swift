// The APIs CallingPatternTests.swift calls, as a user writes them under Xcode 26 app defaults (see Package.swift):
// `nonisolated` before each class that derives directly from RetroSwift's `Domain` or `ApiDomain`, and no
// `@unchecked Sendable`. `SchedulesApi` and `ElevenLabsApi` derive from the seed README's own
// `nonisolated class ApiDomain` below, so they need nothing and are main-actor isolated.
import Foundation
import RetroSwift
import RetroSwiftTesting
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The APIs the calling-pattern tests call, in a namespace: the DocSnippets targets also compile README.md and the
/// DocC articles, whose declarations of the same names (and a shadowing `ApiDomain`) must not meet these.
enum CallingPatterns {

    struct Schedule: Codable, Equatable, Sendable {
        var id: String
        var title: String
    }

    struct GetSchedulesResponse: Codable, Equatable, Sendable {
        var schedules: [Schedule]
    }

    struct UpdateScheduleRequest {
        @Path("schedule_id") var scheduleId: String = ""
        @Header("X-Account-Id") var accountId: String = ""
        @JsonBody var schedule: Schedule
    }

    struct UpdateScheduleResponse: Codable, Equatable, Sendable {
        var updated: Bool
    }

    struct DeleteScheduleResponse: Codable, Equatable, Sendable {
        var deleted: Bool
    }

    struct DeleteScheduleErrorResponse: Codable, Equatable, Sendable {
        var errorMessage: String
    }

    final class SchedulesApi: ApiDomain {
        @Get("/api/v1/schedule")
        var getSchedules: (GetSchedulesRequest) async throws -> GetSchedulesResponse

        @Put("/api/v1/schedule")
        var createSchedule: (CreateScheduleRequest) async throws -> Empty

        @Post("/api/v1/schedule/{schedule_id}")
        var updateSchedule: (UpdateScheduleRequest) async throws -> UpdateScheduleResponse

        @Delete("/api/v1/schedule/{schedule_id}")
        var deleteSchedule: (DeleteScheduleRequest) async throws -> Either<DeleteScheduleResponse, DeleteScheduleErrorResponse>
    }

    struct GetSchedulesRequest {
        @Query var page: Int
        @Query("limit") var schedulesPerPage: Int = 0
        @Header("X-Account-Id") var accountId: String = ""
    }

    struct CreateScheduleRequest {
        @Header("X-Account-Id") var accountId: String = ""
        @JsonBody var scheduleBody: Schedule
    }

    struct DeleteScheduleRequest {
        @Path("schedule_id") var ScheduleId: String = ""
        @Header("X-Account-Id") var accountId: String = ""
    }

    struct SpeechToTextApiRequest {
        @FormParam("model_id") var modelId = ""
        @FormParam("language_code") var languageCode = ""
        @FormParam("tag_audio_events") var tagAudioEvents = false
        @FormParam("num_speakers") var numSpeakers = 1
        @FormFile("file") var recording = .empty
    }

    final class ElevenLabsApi: ApiDomain {
        typealias SpeechToTextApiRequest = ReadmeSpeechToTextApiRequest

        struct SpeechToTextResponse: Decodable, Sendable {
            var text: String
        }

        @Post("/v1/speech-to-text")
        var speechToText: (SpeechToTextApiRequest) async throws -> SpeechToTextResponse
    }

    /// The README's `ElevenLabsApi.SpeechToTextApiRequest`, reachable without naming this fixture's module.
    typealias ReadmeSpeechToTextApiRequest = SpeechToTextApiRequest

    // The seed README's own ApiDomain, shadowing the library's.
    nonisolated class ApiDomain: Domain {
        override init(transport: HttpTransport) {
            super.init(transport: transport)
            transport.setConfiguration(scheme: "https", host: "rest.bandsintown.com", sharedHeaders: nil)
        }
    }

    // The same API on the library's own ApiDomain (not shadowed).
    nonisolated final class SchedulesApiLib: RetroSwift.ApiDomain {
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
    struct FetchPageRequest {
        @Url var url: String = ""
        @Query var limit: Int? = nil
    }

    struct AvatarRequest {
        @Url var url: URL
    }

    // `nonisolated` and no `@unchecked Sendable`, as the README's Concurrency section says for this configuration.
    nonisolated final class FeedApi: Domain {
        @Get() var page: (FetchPageRequest) async throws -> HTTPResponse<String>
        @Get(otherHosts: .allowing(["avatars.example-cdn.com"])) var avatar: (AvatarRequest) async throws -> Data
    }

    // The README's pagination example (Pagination section).
    struct Gist: Decodable, Sendable {
        var id: String
    }

    struct GitHubIssue: Decodable, Sendable {
        var number: Int
    }

    struct PublicGistsRequest: Sendable {
        @Query var page: Int = 1
        @Query("per_page") var perPage: Int = 30
    }

    struct IssuesPage: Sendable {
        @Url var url: String = "/repos/apple/swift/issues?per_page=100"
    }

    // `nonisolated` and no `@unchecked Sendable`, as the README's Concurrency section says for this configuration.
    nonisolated final class GitHubApi: Domain {
        @Get("/gists/public") var publicGists: (PublicGistsRequest) async throws -> [Gist]
        @Get() var issues: (IssuesPage) async throws -> HTTPResponse<[GitHubIssue]>
    }

    // The README's nested API example (Endpoints section).
    struct RepositoryIssuesRequest {
        @Query var state: String = "open"
    }

    // `nonisolated` and no `@unchecked Sendable`, as the README's Concurrency section says for this configuration.
    nonisolated final class RepositoryApi: Domain {
        @Get("/issues") var issues: (RepositoryIssuesRequest) async throws -> [GitHubIssue]
    }

    // The README's streaming example (Streaming responses section). A streamed element type is decoded inside the
    // iterator, off the main actor, so it is `nonisolated` here, as the README's Concurrency section says.
    nonisolated struct ChatDelta: Decodable, Sendable {
        var text: String
    }

    struct ChatPrompt: Encodable, Sendable {
        var model: String
        var prompt: String
    }

    struct ChatRequest: Sendable {
        @JsonBody var body: ChatPrompt
        @Header("Last-Event-ID") var lastEventID: String? = nil
    }

    nonisolated struct LogLine: Decodable, Sendable {
        var level: String
        var message: String
    }

    // `nonisolated` and no `@unchecked Sendable`, as the README's Concurrency section says for this configuration.
    nonisolated final class ChatApi: Domain {
        @Post("/v1/chat") var chat: (ChatRequest) async throws -> ServerSentEvents<ChatDelta>
        @Post("/v1/chat") var chatEvents: (ChatRequest) async throws -> ServerSentEvents<ServerSentEvent>
        @Get("/v1/logs") var logs: () async throws -> JSONLines<LogLine>
    }

    // The README's progress example (Transfer progress section).
    struct PutFileRequest {
        @Path var name: String
        @RawBody var file: RawBodyContent
    }

    struct StoredFile: Decodable, Sendable {
        var size: Int
    }

    // `nonisolated` and no `@unchecked Sendable`, as the README's Concurrency section says for this configuration.
    nonisolated final class UploadsApi: Domain {
        @Put("/v1/files/{name}") var put: (PutFileRequest) async throws -> StoredFile
    }
}

extension CallingPatterns.GitHubApi {
    func repository(owner: String, name: String) -> CallingPatterns.RepositoryApi {
        CallingPatterns.RepositoryApi(parent: self, path: "/repos/{owner}/{name}", values: ["owner": owner, "name": name])
    }
}
