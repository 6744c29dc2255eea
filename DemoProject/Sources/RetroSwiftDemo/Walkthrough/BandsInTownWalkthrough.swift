import Foundation
import RetroSwift

/// The original demo's calls against rest.bandsintown.com (needs internet).
struct BandsInTownWalkthrough {
    let api: BandsInTownApi
    let artist: String

    func run() async throws {
        Console.section("BandsInTown (internet)")
        Console.step("GET /artists/{artist_name}")
        switch try await api.artist(.init(artistName: artist)) {
        case .response(let found): Console.result("\(found.name), \(found.trackerCount ?? 0) trackers")
        case .errorResponse(let problem): Console.result("error: \(problem.errorMessage ?? "unknown")")
        }
        Console.step("GET /artists/{artist_name}/events")
        switch try await api.events(.init(artistName: artist)) {
        case .response(let events):
            Console.result("\(events.count) upcoming events")
            for event in events.prefix(5) {
                Console.result("\(event.datetime) \(event.venue?.name ?? "") \(event.venue?.city ?? "")")
            }
        case .errorResponse(let problem):
            Console.result("error: \(problem.errorMessage ?? "unknown")")
        }
    }
}
