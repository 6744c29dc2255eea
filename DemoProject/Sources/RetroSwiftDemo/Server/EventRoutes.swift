import FlyingFox
import Foundation

/// `GET /api/v1/events?page=N&per_page=M`: 23 events, paginated GitHub style with a `Link: <...>; rel="next"` header
/// on every page but the last.
struct EventRoutes {
    static let count = 23

    func register(on server: HTTPServer) async {
        await server.appendRoute("GET /api/v1/events") { request in
            let page = max(1, Int(request.query["page"] ?? "") ?? 1)
            let perPage = min(100, max(1, Int(request.query["per_page"] ?? "") ?? 5))
            let ids = ((page - 1) * perPage)..<min(page * perPage, Self.count)
            let events = ids.map { Event(id: $0 + 1, title: "Event \($0 + 1)") }
            var response = ServiceJSON.response(events)
            if page * perPage < Self.count {
                response.headers[HTTPHeader("Link")] = "</api/v1/events?page=\(page + 1)&per_page=\(perPage)>; rel=\"next\""
            }
            return response
        }
        // The same events as a Server-Sent Events feed: a comment, then one event per item, with ids.
        await server.appendRoute("GET /api/v1/events/feed") { _ in
            let events = (1...5).map { id in
                let json = String(decoding: try! JSONEncoder().encode(Event(id: id, title: "Event \(id)")), as: UTF8.self)
                return "id: \(id)\nevent: created\ndata: \(json)\n\n"
            }
            let body = ": the demo's event feed\n\n" + events.joined()
            return HTTPResponse(statusCode: .ok, headers: [.contentType: "text/event-stream"], body: Data(body.utf8))
        }
    }
}
