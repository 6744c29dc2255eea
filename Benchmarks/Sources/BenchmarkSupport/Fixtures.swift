import Foundation
import RetroSwift

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The 6-field request of the benchmark: 2 path, 2 query, 1 header, 1 JSON body.
public struct UpdateEntryRequest {
    @Path("team_id") var teamId: String = ""
    @Path("entry_id") var entryId: Int = 0
    @Query var page: Int = 0
    @Query("sort") var sortOrder: String = ""
    @Header("X-Account-Id") var accountId: String = ""
    @JsonBody var entry: Entry

    public init(teamId: String, entryId: Int, page: Int, sortOrder: String, accountId: String, entry: Entry) {
        self.teamId = teamId
        self.entryId = entryId
        self.page = page
        self.sortOrder = sortOrder
        self.accountId = accountId
        self.entry = entry
    }
}

public struct Entry: Codable, Sendable {
    public var title: String
    public var priority: Int
    public var tags: [String]

    public init(title: String, priority: Int, tags: [String]) {
        self.title = title
        self.priority = priority
        self.tags = tags
    }
}

/// A 1 KB-ish or larger JSON document to decode.
public struct Catalog: Codable, Sendable {
    public struct Item: Codable, Sendable {
        public var id: Int
        public var name: String
        public var price: Double
        public var available: Bool
        public var tags: [String]

        public init(id: Int, name: String, price: Double, available: Bool, tags: [String]) {
            self.id = id
            self.name = name
            self.price = price
            self.available = available
            self.tags = tags
        }
    }

    public var items: [Item]

    public static func json(items count: Int) -> Data {
        try! JSONEncoder().encode(sample(items: count))
    }

    /// The same catalog as a binary property list (`PropertyListConverter`'s format).
    public static func propertyList(items count: Int) -> Data {
        let encoder = PropertyListEncoder()
        encoder.outputFormat = .binary
        return try! encoder.encode(sample(items: count))
    }

    private static func sample(items count: Int) -> Catalog {
        Catalog(
            items: (0..<count).map {
                Item(id: $0, name: "Item number \($0)", price: Double($0) * 1.25, available: $0 % 2 == 0, tags: ["a", "b\($0 % 7)"])
            })
    }
}

public final class BenchmarkApi: Domain, @unchecked Sendable {
    @Post("/teams/{team_id}/entries/{entry_id}")
    public var updateEntry: (UpdateEntryRequest) async throws -> Empty

    @Get("/catalog")
    public var catalog: () async throws -> Catalog
}

/// A transport that does a real transport's work but no I/O: what `URLSessionTransport` does with a call (the URL and
/// header fields RetroSwift resolved, and the body, into a URLRequest; the URL requested reported with the response).
public final class InProcessTransport: HttpTransport {
    let response: HttpOperationResult

    public init(response: HttpOperationResult = HttpOperationResult(statusCode: 204)) {
        self.response = response
        setConfiguration(baseURL: URL(string: "https://api.example.com/v2")!, sharedHeaders: ["User-Agent": "bench"])
    }

    public func sendRequest(with params: HttpRequestParams) async throws -> HttpOperationResult {
        let url = params.url
        var request = URLRequest(url: url)
        request.httpMethod = params.method.rawValue
        for header in params.headerFields {
            request.setValue(header.value, forHTTPHeaderField: header.name)
        }
        if case .bytes(let data)? = params.body { request.httpBody = data }
        blackHoleRequest(request)
        var result = response
        result.url = url
        return result
    }
}

@inline(never)
func blackHoleRequest(_ request: URLRequest) {
    withExtendedLifetime(request) {}
}

/// The same request built by hand, the way careful URLSession code does it.
public enum HandWritten {
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

    public static func updateEntry(
        teamId: String, entryId: Int, page: Int, sort: String, accountId: String, entry: Entry, encoder: JSONEncoder
    ) throws -> URLRequest {
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
public final class CannedTransport: HttpTransport {
    let response: HttpOperationResult

    public init(response: HttpOperationResult) {
        self.response = response
    }

    public func setConfiguration(scheme: String, host: String, sharedHeaders: [String: String]?) {}

    public func setConfiguration(baseURL: URL, sharedHeaders: [String: String]?) {}

    public func sendRequest(with params: HttpRequestParams) async throws -> HttpOperationResult {
        response
    }
}

extension Duration {
    /// The duration in seconds, for the ratio tools' sums and rates.
    public var inSeconds: Double {
        Double(components.seconds) + Double(components.attoseconds) / 1e18
    }
}
