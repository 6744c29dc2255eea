import FlyingFox
import Foundation

/// `GET`/`PUT /api/v1/schedule` and `POST`/`DELETE /api/v1/schedule/{schedule_id}`.
struct ScheduleRoutes {
    let store: ScheduleStore

    func register(on server: HTTPServer) async {
        let store = store
        await server.appendRoute("GET /api/v1/schedule") { request in
            guard let account = request.headers[HTTPHeader("X-Account-Id")], !account.isEmpty else {
                return ServiceJSON.text("X-Account-Id header is required", status: .badRequest)
            }
            let page = Int(request.query["page"] ?? "") ?? 1
            let limit = Int(request.query["limit"] ?? "") ?? 0
            let schedules = await store.page(page, limit: limit, account: account)
            return ServiceJSON.response(GetSchedulesResponse(schedules: schedules, page: page))
        }
        await server.appendRoute("PUT /api/v1/schedule") { request in
            let schedule = try await ServiceJSON.decode(Schedule.self, from: request)
            await store.insert(schedule, account: request.headers[HTTPHeader("X-Account-Id")] ?? "")
            return HTTPResponse(statusCode: .created)
        }
        await server.appendRoute("POST /api/v1/schedule/*") { request in
            let schedule = try await ServiceJSON.decode(Schedule.self, from: request)
            let id = Self.scheduleId(of: request)
            guard let updated = await store.update(id, with: schedule, account: request.headers[HTTPHeader("X-Account-Id")] ?? "") else {
                return ServiceJSON.text("Schedule \(id) not found", status: .notFound)
            }
            return ServiceJSON.response(UpdateScheduleResponse(schedule: updated))
        }
        await server.appendRoute("DELETE /api/v1/schedule/*") { request in
            let id = Self.scheduleId(of: request)
            guard await store.delete(id, account: request.headers[HTTPHeader("X-Account-Id")] ?? "") else {
                return ServiceJSON.response(DeleteScheduleErrorResponse(errorMessage: "Schedule not found"), status: .notFound)
            }
            return ServiceJSON.response(DeleteScheduleResponse(deletedId: id))
        }
    }

    private static func scheduleId(of request: HTTPRequest) -> String {
        let segment = request.path.split(separator: "/").last.map(String.init) ?? ""
        return segment.removingPercentEncoding ?? segment
    }
}
