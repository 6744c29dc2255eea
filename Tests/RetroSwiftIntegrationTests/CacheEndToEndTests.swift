import Foundation
import RetroSwift
import RetroSwiftTestServer
import Testing

/// ``HTTPCache`` against real servers on every transport: the scripted server for each rule, httpbin for what a
/// server this project did not write sends (`/cache`, `/cache/{n}`, `/etag/{etag}`).
@Suite("End to end: the HTTP cache", .timeLimit(.minutes(4)))
struct CacheEndToEndTests {
    struct Page: Decodable, Equatable {
        var page: String
    }

    struct Lookup {
        @Path var name: String
        @Header("Accept-Language") var language: String = "en"
        @Header("Authorization") var authorization: String = "Bearer alice"
    }

    // @unchecked Sendable: endpoint wrappers only, set up in init and never reassigned.
    final class Api: Domain, @unchecked Sendable {
        @Get("/pages/{name}") var page: (Lookup) async throws -> HTTPResponse<Page>
        @Post("/pages/{name}") var edit: (Lookup) async throws -> HTTPResponse<Empty>
    }

    /// The scripted server's pages: each answers with its name and the fields its name asks for, and 304 to an
    /// `If-None-Match` naming its ETag.
    static func respond(_ request: RecordedRequest) -> ScriptedResponse {
        let name = request.pathSegments.last ?? ""
        if request.method == "POST" { return ScriptedResponse(status: 201, headers: [("Location", "/pages/moved-target")]) }
        let fields: [(name: String, value: String)] =
            switch name {
            case "fresh", "moved-target": [("Cache-Control", "max-age=600")]
            case "etag": [("Cache-Control", "no-cache"), ("ETag", "\"e1\"")]
            case "vary": [("Cache-Control", "max-age=600"), ("Vary", "Accept-Language")]
            case "no-store": [("Cache-Control", "no-store, max-age=600")]
            case "moved": [("Cache-Control", "max-age=600"), ("Location", "/pages/moved-target")]
            default: []
            }
        if name == "etag", request.header("If-None-Match") == "\"e1\"" {
            return ScriptedResponse(status: 304, headers: [("ETag", "\"e1\""), ("X-Revalidated", "yes")])
        }
        if name == "moved" { return ScriptedResponse(status: 301, headers: fields) }
        let language = request.header("Accept-Language") ?? "-"
        let user = request.header("Authorization") ?? "-"
        return ScriptedResponse(
            status: 200, headers: [("Content-Type", "application/json")] + fields,
            body: Data(#"{"page":"\#(name) \#(language) \#(user)"}"#.utf8))
    }

    /// Where the cache keeps its responses.
    enum Storage: String, CaseIterable, CustomStringConvertible, Sendable {
        case memory, disk

        var description: String { rawValue }
    }

    static func withCachedApi(
        _ kind: TransportKind, storage: Storage = .memory, _ body: (Api, TestServer, HTTPCache) async throws -> Void
    ) async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("retroswift-cache-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        try await withServer(kind, respond: Self.respond) { transport, server in
            let api = Api(transport: transport)
            let cache = storage == .memory ? HTTPCache() : try HTTPCache(directory: directory)
            api.httpCache = cache
            try await body(api, server, cache)
        }
    }

    static let transportsAndStorages = TransportKind.allCases.flatMap { kind in Storage.allCases.map { (kind, $0) } }

    @Test(
        "a fresh response is answered without the server; no-cache revalidates with If-None-Match and a 304",
        arguments: transportsAndStorages)
    func freshnessAndRevalidation(kind: TransportKind, storage: Storage) async throws {
        try await Self.withCachedApi(kind, storage: storage) { api, server, _ in
            // When
            let fresh = try await api.page(Lookup(name: "fresh"))
            let freshAgain = try await api.page(Lookup(name: "fresh"))
            let etag = try await api.page(Lookup(name: "etag"))
            let revalidated = try await api.page(Lookup(name: "etag"))
            _ = try await api.page(Lookup(name: "no-store"))
            let notStored = try await api.page(Lookup(name: "no-store"))

            // Then
            #expect(fresh.source == .network && freshAgain.source == .cache && freshAgain.body == fresh.body)
            #expect(freshAgain.header("Age").flatMap(Int.init) != nil)
            #expect(etag.source == .network)
            #expect(revalidated.source == .revalidatedCache && revalidated.statusCode == 200 && revalidated.body == etag.body)
            #expect(revalidated.header("X-Revalidated") == "yes")
            #expect(notStored.source == .network)
            let sent = server.requests.map { "\($0.encodedPath) \($0.header("If-None-Match") ?? "-")" }
            #expect(sent == ["/pages/fresh -", "/pages/etag -", "/pages/etag \"e1\"", "/pages/no-store -", "/pages/no-store -"])
        }
    }

    @Test("Vary and Authorization keep answers apart: each language and each user gets its own", arguments: transportsAndStorages)
    func variantsAndCredentials(kind: TransportKind, storage: Storage) async throws {
        try await Self.withCachedApi(kind, storage: storage) { api, server, cache in
            // When
            let english = try await api.page(Lookup(name: "vary"))
            let french = try await api.page(Lookup(name: "vary", language: "fr"))
            let bob = try await api.page(Lookup(name: "vary", authorization: "Bearer bob"))
            let again = try await api.page(Lookup(name: "vary"))
            let frenchAgain = try await api.page(Lookup(name: "vary", language: "fr"))

            // Then
            #expect(english.body.page == "vary en Bearer alice" && french.body.page == "vary fr Bearer alice")
            #expect(bob.body.page == "vary en Bearer bob" && bob.source == .network)
            #expect(again.body == english.body && again.source == .cache)
            #expect(frenchAgain.body == french.body && frenchAgain.source == .cache)
            #expect(server.requests.count == 3 && cache.count == 3)
        }
    }

    @Test("a cached 301 is followed without asking; a successful POST removes its URL and its Location", arguments: TransportKind.allCases)
    func redirectsAndInvalidation(kind: TransportKind) async throws {
        try await Self.withCachedApi(kind) { api, server, _ in
            // When
            let first = try await api.page(Lookup(name: "moved"))
            let second = try await api.page(Lookup(name: "moved"))
            let beforeEdit = server.requests.count
            _ = try await api.edit(Lookup(name: "moved"))
            let afterEdit = try await api.page(Lookup(name: "moved"))

            // Then: the POST's URL (the 301) and its Location (the target) were both asked for again
            #expect(first.body.page == "moved-target en Bearer alice" && first.source == .network)
            #expect(second.body == first.body && second.source == .cache)
            #expect(beforeEdit == 2)
            #expect(afterEdit.source == .network)
            #expect(server.requests.map(\.encodedPath).suffix(3) == ["/pages/moved", "/pages/moved", "/pages/moved-target"])
        }
    }

    @Test("concurrent calls for one URL on a real server: every answer whole, one entry stored", arguments: transportsAndStorages)
    func concurrentCalls(kind: TransportKind, storage: Storage) async throws {
        try await Self.withCachedApi(kind, storage: storage) { api, server, cache in
            // When
            let answers = try await withThrowingTaskGroup(of: HTTPResponse<Page>.self) { group in
                for _ in 0..<40 { group.addTask { try await api.page(Lookup(name: "etag")) } }
                return try await group.reduce(into: []) { $0.append($1) }
            }

            // Then
            #expect(answers.count == 40)
            #expect(answers.allSatisfy { $0.body.page == "etag en Bearer alice" && $0.statusCode == 200 })
            #expect(answers.contains { $0.source == .network })
            #expect(cache.count == 1)
            #expect(server.requests.count == 40)
        }
    }
}

/// httpbin's caching endpoints, on every transport.
@Suite(
    "End to end: the HTTP cache against httpbin",
    .enabled(if: Httpbin.enabled, "set RETROSWIFT_HTTPBIN_URL to a local httpbin (bash .ci/run starts one)"),
    .timeLimit(.minutes(4))
)
struct CacheHttpbinTests {
    struct Echo: Decodable, Equatable {
        var url: String
    }

    struct Seconds {
        @Path var n: Int
    }

    struct Tag {
        @Path var etag: String
    }

    // @unchecked Sendable: endpoint wrappers only, set up in init and never reassigned.
    final class Api: Domain, @unchecked Sendable {
        @Get("/cache") var cache: () async throws -> HTTPResponse<Echo>
        @Get("/cache/{n}") var cacheFor: (Seconds) async throws -> HTTPResponse<Echo>
        @Get("/etag/{etag}") var etag: (Tag) async throws -> HTTPResponse<Echo>
    }

    static func api(_ kind: TransportKind) throws -> Api {
        let transport = kind.make()
        transport.setConfiguration(baseURL: try Httpbin.baseURL(), sharedHeaders: nil)
        let api = Api(transport: transport)
        api.httpCache = HTTPCache()
        return api
    }

    @Test("/cache/{n}: Cache-Control: public, max-age=n answers the second call from the cache", arguments: TransportKind.allCases)
    func maxAge(kind: TransportKind) async throws {
        // Given
        let api = try Self.api(kind)

        // When
        let first = try await api.cacheFor(Seconds(n: 60))
        let second = try await api.cacheFor(Seconds(n: 60))

        // Then
        #expect(first.source == .network && second.source == .cache)
        #expect(second.body == first.body && second.header("Cache-Control") == "public, max-age=60")
    }

    @Test("/cache: Last-Modified and ETag, revalidated with a 304 and answered from the stored body", arguments: TransportKind.allCases)
    func lastModified(kind: TransportKind) async throws {
        // Given
        let api = try Self.api(kind)

        // When
        let first = try await api.cache()
        let second = try await api.cache()

        // Then
        #expect(first.source == .network && first.header("Last-Modified") != nil)
        #expect(second.source == .revalidatedCache && second.statusCode == 200 && second.body == first.body)
    }

    @Test("/etag/{etag}: If-None-Match with the stored ETag, a 304, the stored body", arguments: TransportKind.allCases)
    func etag(kind: TransportKind) async throws {
        // Given
        let api = try Self.api(kind)

        // When
        let first = try await api.etag(Tag(etag: "abc"))
        let second = try await api.etag(Tag(etag: "abc"))
        let other = try await api.etag(Tag(etag: "xyz"))

        // Then
        #expect(first.source == .network && first.header("ETag") == "abc")
        #expect(second.source == .revalidatedCache && second.body == first.body)
        #expect(other.source == .network)
    }
}
