import Foundation
import RetroSwift

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The same calls with closures assigned to the endpoints: no network at all.
struct MockWalkthrough {
    let schedules: SchedulesApi

    func run() async throws {
        Console.section("The same API, mocked (no network)")

        Console.step("api.getSchedules = { _ in GetSchedulesResponse(...) }")
        schedules.getSchedules = { request in
            GetSchedulesResponse(
                schedules: [Schedule(id: "mock_1", title: "Mocked for \(request.accountId)", startsAt: Date())], page: request.page)
        }
        let page = try await schedules.getSchedules(GetSchedulesRequest(page: 7, schedulesPerPage: 1, accountId: "acc_test"))
        guard page.page == 7, page.schedules.first?.id == "mock_1" else { throw WalkthroughError("the mock did not answer") }
        Console.result("page \(page.page): \(page.schedules.map(\.title).joined())")

        Console.step("api.deleteSchedule = { _ in throw URLError(.userAuthenticationRequired) }")
        schedules.deleteSchedule = { _ in throw URLError(.userAuthenticationRequired) }
        do {
            _ = try await schedules.deleteSchedule(DeleteScheduleRequest(ScheduleId: "sch_1"))
            throw WalkthroughError("the throwing mock did not throw")
        } catch let error as URLError where error.code == .userAuthenticationRequired {
            Console.result("threw URLError code \(error.code.rawValue)")
        }

        Console.step("api.deleteSchedule = { _ in .errorResponse(...) }")
        schedules.deleteSchedule = { _ in .errorResponse(DeleteScheduleErrorResponse(errorMessage: "Schedule not found")) }
        Console.result("\(try await schedules.deleteSchedule(DeleteScheduleRequest(ScheduleId: "sch_1")))")

        Console.step("api.$getSchedules.removeMock(): back to the real endpoint")
        schedules.$getSchedules.removeMock()
        schedules.removeAllMocks()
        guard !schedules.$getSchedules.isMocked, !schedules.$deleteSchedule.isMocked else {
            throw WalkthroughError("a mock survived removeAllMocks()")
        }
        Console.result(
            "getSchedules is mocked: \(schedules.$getSchedules.isMocked), deleteSchedule is mocked: \(schedules.$deleteSchedule.isMocked)")
    }
}
