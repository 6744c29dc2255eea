import RetroSwift

/// An event of the demo service's paginated list.
struct Event: Codable, Equatable, Sendable {
    var id: Int
    var title: String
}

/// The first page of events; the `Link` header of each page names the next.
struct EventsPage: Sendable {
    @Url var url: String = "/api/v1/events?per_page=5"
}

/// The demo service's paginated events, walked with `Paginated` and `.linkHeader`.
// @unchecked Sendable: the subclass adds only endpoint wrappers.
final class EventsApi: ApiDomain, @unchecked Sendable {
    @Get()
    var events: (EventsPage) async throws -> HTTPResponse<[Event]>

    /// The same events as a Server-Sent Events feed, read while it arrives.
    @Get("/api/v1/events/feed")
    var feed: () async throws -> ServerSentEvents<Event>
}
