// The README's code, kept here verbatim (plus the documented `@unchecked Sendable` restatement) so it cannot go stale.
import Foundation
import RetroSwift
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

// swiftlint:disable identifier_name

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
    typealias SpeechToTextApiRequest = RetroSwiftTests.SpeechToTextApiRequest

    struct SpeechToTextResponse: Decodable, Sendable {
        var text: String
    }

    @Post("/v1/speech-to-text")
    var speechToText: (SpeechToTextApiRequest) async throws -> SpeechToTextResponse
}

class ApiDomain: Domain, @unchecked Sendable {
    override init(transport: HttpTransport) {
        super.init(transport: transport)
        transport.setConfiguration(scheme: "https", host: "rest.bandsintown.com", sharedHeaders: nil)
    }
}

/// The README's usage snippets, as functions the tests call.
enum ReadmeUsage {
    static func getSchedules(transport: HttpTransport) async throws -> GetSchedulesResponse {
        let api = SchedulesApi(transport: transport)

        let request = GetSchedulesRequest(page: 1, schedulesPerPage: 30, accountId: "acc_id")
        let response = try await api.getSchedules(request)
        return response
    }

    static func speechToText(api: ElevenLabsApi, languageCode: String, recording: Data) async throws -> String {
        let request = ElevenLabsApi.SpeechToTextApiRequest(
            modelId: "scribe_v1",
            languageCode: languageCode,
            tagAudioEvents: false,
            numSpeakers: 1,
            recording: .init(fileName: "recording.caf", mimeType: "audio/x-caf", content: recording)
        )

        let transcribedText = try await api.speechToText(request).text
        return transcribedText
    }

    static func mock(_ api: SchedulesApi) {
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
