// The APIs CallingPatternTests.swift calls — the original README's and one per feature — as a user writes them in
// the Swift 6, NonisolatedNonsendingByDefault and Swift 5 configurations (see Package.swift).
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

    final class SchedulesApi: ApiDomain, @unchecked Sendable {
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

    final class ElevenLabsApi: ApiDomain, @unchecked Sendable {
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
    class ApiDomain: Domain, @unchecked Sendable {
        override init(transport: HttpTransport) {
            super.init(transport: transport)
            transport.setConfiguration(scheme: "https", host: "rest.bandsintown.com", sharedHeaders: nil)
        }
    }

    // The same API on the library's own ApiDomain (not shadowed).
    final class SchedulesApiLib: RetroSwift.ApiDomain, @unchecked Sendable {
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

    // The seed README's exact form, with no `@unchecked Sendable`: compiles without warnings here too. Such an API
    // is not Sendable, so it stays in one isolation domain (a view model on the main actor, say).
    final class SeedFormSchedulesApi: RetroSwift.ApiDomain {
        @Get("/api/v1/schedule")
        var getSchedules: (GetSchedulesRequest) async throws -> GetSchedulesResponse
    }

    // The README's @Url example (Parameters section).
    struct FetchPageRequest {
        @Url var url: String = ""
        @Query var limit: Int? = nil
    }

    struct AvatarRequest {
        @Url var url: URL
    }

    // @unchecked Sendable: as the README says, the subclass adds only endpoint wrappers.
    final class FeedApi: Domain, @unchecked Sendable {
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

    // @unchecked Sendable: as the README says, the subclass adds only endpoint wrappers.
    final class GitHubApi: Domain, @unchecked Sendable {
        @Get("/gists/public") var publicGists: (PublicGistsRequest) async throws -> [Gist]
        @Get() var issues: (IssuesPage) async throws -> HTTPResponse<[GitHubIssue]>
    }

    // The README's nested API example (Endpoints section).
    struct RepositoryIssuesRequest {
        @Query var state: String = "open"
    }

    // @unchecked Sendable: as the README says, the subclass adds only endpoint wrappers.
    final class RepositoryApi: Domain, @unchecked Sendable {
        @Get("/issues") var issues: (RepositoryIssuesRequest) async throws -> [GitHubIssue]
    }

    // The README's streaming example (Streaming responses section).
    struct ChatDelta: Decodable, Sendable {
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

    struct LogLine: Decodable, Sendable {
        var level: String
        var message: String
    }

    // @unchecked Sendable: as the README says, the subclass adds only endpoint wrappers.
    final class ChatApi: Domain, @unchecked Sendable {
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

    // @unchecked Sendable: as the README says, the subclass adds only endpoint wrappers.
    final class UploadsApi: Domain, @unchecked Sendable {
        @Put("/v1/files/{name}") var put: (PutFileRequest) async throws -> StoredFile
    }
}

extension CallingPatterns.GitHubApi {
    func repository(owner: String, name: String) -> CallingPatterns.RepositoryApi {
        CallingPatterns.RepositoryApi(parent: self, path: "/repos/{owner}/{name}", values: ["owner": owner, "name": name])
    }
}
