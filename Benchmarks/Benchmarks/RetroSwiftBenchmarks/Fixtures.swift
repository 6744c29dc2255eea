import Foundation
import RetroSwift
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The 6-field request of the benchmark: 2 path, 2 query, 1 header, 1 JSON body.
struct UpdateEntryRequest {
    @Path("team_id") var teamId: String = ""
    @Path("entry_id") var entryId: Int = 0
    @Query var page: Int = 0
    @Query("sort") var sortOrder: String = ""
    @Header("X-Account-Id") var accountId: String = ""
    @JsonBody var entry: Entry
}

struct Entry: Codable, Sendable {
    var title: String
    var priority: Int
    var tags: [String]
}

/// A 1 KB-ish or larger JSON document to decode.
struct Catalog: Codable, Sendable {
    struct Item: Codable, Sendable {
        var id: Int
        var name: String
        var price: Double
        var available: Bool
        var tags: [String]
    }

    var items: [Item]

    static func json(items count: Int) -> Data {
        let catalog = Catalog(items: (0..<count).map {
            Item(id: $0, name: "Item number \($0)", price: Double($0) * 1.25, available: $0 % 2 == 0, tags: ["a", "b\($0 % 7)"])
        })
        return try! JSONEncoder().encode(catalog)
    }
}

final class BenchmarkApi: Domain, @unchecked Sendable {
    @Post("/teams/{team_id}/entries/{entry_id}")
    var updateEntry: (UpdateEntryRequest) async throws -> Empty

    @Get("/catalog")
    var catalog: () async throws -> Catalog
}

/// A transport that does a real transport's work (URL, headers, body into a URLRequest) but no I/O.
final class InProcessTransport: ConfigurableHttpTransport {
    let configuration = HttpTransportConfigurationStore()
    let response: HttpOperationResult

    init(response: HttpOperationResult = HttpOperationResult(statusCode: 204)) {
        self.response = response
        configuration.set(baseURL: URL(string: "https://api.example.com/v2")!, sharedHeaders: ["User-Agent": "bench"])
    }

    func sendRequest(with params: HttpRequestParams) async throws -> HttpOperationResult {
        let configuration = try configuration.configuration(for: params)
        var request = URLRequest(url: try params.url(relativeTo: configuration.baseURL))
        request.httpMethod = params.method.rawValue
        for header in params.headerFields(sharedHeaders: configuration.sharedHeaders) {
            request.setValue(header.value, forHTTPHeaderField: header.name)
        }
        request.httpBody = try params.body?.data()
        blackHoleRequest(request)
        return response
    }
}

@inline(never)
func blackHoleRequest(_ request: URLRequest) {
    withExtendedLifetime(request) {}
}

/// The same request built by hand, the way careful URLSession code does it.
enum HandWritten {
    private static let segmentAllowed: CharacterSet = {
        var set = CharacterSet.alphanumerics.intersection(CharacterSet(charactersIn: Unicode.Scalar(0)...Unicode.Scalar(127)))
        set.insert(charactersIn: "-._~:@!$'()*,")
        return set
    }()

    private static let queryAllowed: CharacterSet = {
        var set = CharacterSet.alphanumerics.intersection(CharacterSet(charactersIn: Unicode.Scalar(0)...Unicode.Scalar(127)))
        set.insert(charactersIn: "-._~/?:@!$'()*,")
        return set
    }()

    static func updateEntry(teamId: String, entryId: Int, page: Int, sort: String, accountId: String, entry: Entry, encoder: JSONEncoder) throws -> URLRequest {
        var components = URLComponents(string: "https://api.example.com/v2")!
        let team = teamId.addingPercentEncoding(withAllowedCharacters: segmentAllowed)!
        components.percentEncodedPath += "/teams/\(team)/entries/\(entryId)"
        components.percentEncodedQuery = "page=\(page)&sort=" + sort.addingPercentEncoding(withAllowedCharacters: queryAllowed)!
        var request = URLRequest(url: components.url!)
        request.httpMethod = "POST"
        request.setValue("bench", forHTTPHeaderField: "User-Agent")
        request.setValue(accountId, forHTTPHeaderField: "X-Account-Id")
        request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        request.httpBody = try encoder.encode(entry)
        return request
    }
}

/// Returns a canned response and does nothing else: isolates RetroSwift's own response path.
final class CannedTransport: HttpTransport {
    let response: HttpOperationResult

    init(response: HttpOperationResult) {
        self.response = response
    }

    func setConfiguration(scheme: String, host: String, sharedHeaders: [String: String]?) {}

    func setConfiguration(baseURL: URL, sharedHeaders: [String: String]?) {}

    func sendRequest(with params: HttpRequestParams) async throws -> HttpOperationResult {
        response
    }
}
