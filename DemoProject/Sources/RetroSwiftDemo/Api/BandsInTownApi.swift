import Foundation
import RetroSwift

/// The original demo's public API (needs internet). Configured the README way, in `init`.
final class BandsInTownApi: Domain, @unchecked Sendable {
    struct ArtistRequest {
        @Path("artist_name") var artistName: String = ""
        @Query("app_id") var appId: String = "retroswift-demo"
    }

    struct Artist: Decodable, Sendable {
        var name: String
        var url: String?
        var trackerCount: Int?

        enum CodingKeys: String, CodingKey {
            case name, url
            case trackerCount = "tracker_count"
        }
    }

    struct Event: Decodable, Sendable {
        var datetime: String
        var venue: Venue?

        struct Venue: Decodable, Sendable {
            var name: String?
            var city: String?
            var country: String?
        }
    }

    struct ErrorResponse: Decodable, Sendable {
        var errorMessage: String?
    }

    @Get("/artists/{artist_name}", timeout: 15)
    var artist: (ArtistRequest) async throws -> Either<Artist, ErrorResponse>

    @Get("/artists/{artist_name}/events", timeout: 15)
    var events: (ArtistRequest) async throws -> Either<[Event], ErrorResponse>

    override init(transport: HttpTransport) {
        super.init(transport: transport)
        transport.setConfiguration(scheme: "https", host: "rest.bandsintown.com", sharedHeaders: nil)
    }
}
