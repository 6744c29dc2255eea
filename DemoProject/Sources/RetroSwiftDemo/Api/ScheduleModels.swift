import Foundation
import RetroSwift

/// A schedule as the service stores it.
struct Schedule: Codable, Equatable, Sendable {
    var id: String
    var title: String
    var startsAt: Date
}

struct GetSchedulesResponse: Codable, Equatable, Sendable {
    var schedules: [Schedule]
    var page: Int
}

struct UpdateScheduleResponse: Codable, Equatable, Sendable {
    var schedule: Schedule
}

struct DeleteScheduleResponse: Codable, Equatable, Sendable {
    var deletedId: String
}

struct DeleteScheduleErrorResponse: Codable, Equatable, Sendable {
    var errorMessage: String
}

// The request types are the README's.

struct GetSchedulesRequest {
    @Query var page: Int
    @Query("limit") var schedulesPerPage: Int = 0
    @Header("X-Account-Id") var accountId: String = ""
}

struct CreateScheduleRequest {
    @Header("X-Account-Id") var accountId: String = ""
    @JsonBody var scheduleBody: Schedule
}

struct UpdateScheduleRequest {
    @Path("schedule_id") var scheduleId: String = ""
    @Header("X-Account-Id") var accountId: String = ""
    @JsonBody var schedule: Schedule
}

struct DeleteScheduleRequest {
    @Path("schedule_id") var ScheduleId: String = ""
    @Header("X-Account-Id") var accountId: String = ""
}
