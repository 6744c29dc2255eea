import Foundation
import RetroSwift
import RetroSwiftTestServer
import Testing

/// Each pagination strategy against the scripted server on every transport: 23 items, 5 per page.
@Suite("End to end: pagination", .timeLimit(.minutes(4)))
struct PaginationEndToEndTests {
    struct Item: Decodable, Equatable, Sendable {
        var id: Int
    }

    struct Listing: Decodable, Sendable {
        var items: [Item]
        var nextCursor: String?
    }

    struct PageRequest: Sendable {
        @Query var page: Int = 1
        @Query("per_page") var perPage: Int = 5
    }

    struct OffsetRequest: Sendable {
        @Query var offset: Int = 0
        @Query var limit: Int = 5
    }

    struct CursorRequest: Sendable {
        @Query var cursor: String? = nil
    }

    struct LinkRequest: Sendable {
        @Url var url: String = "/link?page=1"
    }

    // @unchecked Sendable: the fixture adds only endpoint wrappers, set up in init and never reassigned.
    final class Api: Domain, @unchecked Sendable {
        @Get("/pages") var pages: (PageRequest) async throws -> [Item]
        @Get("/offset") var offsets: (OffsetRequest) async throws -> Listing
        @Get("/cursor") var cursors: (CursorRequest) async throws -> Listing
        @Get() var links: (LinkRequest) async throws -> HTTPResponse<[Item]>
    }

    static let count = 23

    /// Serves the items by page number, by offset, by cursor and by `Link` header; `/link` pages link to `away`'s
    /// origin from page 2 on when it is given.
    static func responder(away: URL? = nil) -> TestServer.Responder {
        { request in
            let query = Dictionary(request.queryItems.map { ($0.name, $0.value) }) { first, _ in first }
            func json(_ ids: Range<Int>, extra: String = "", headers: [(String, String)] = []) -> ScriptedResponse {
                let items = ids.clamped(to: 0..<count).map { #"{"id":\#($0)}"# }.joined(separator: ",")
                let body = extra.isEmpty ? "[\(items)]" : #"{"items":[\#(items)]\#(extra)}"#
                return ScriptedResponse(status: 200, headers: [("Content-Type", "application/json")] + headers, body: Data(body.utf8))
            }
            switch request.encodedPath {
            case "/pages":
                let page = Int(query["page"] ?? "1") ?? 1
                return json(((page - 1) * 5)..<(page * 5))
            case "/offset":
                let offset = Int(query["offset"] ?? "0") ?? 0
                return json(offset..<(offset + 5), extra: #","nextCursor":null"#)
            case "/cursor":
                let start = Int(query["cursor"].map { String($0.dropFirst()) } ?? "0") ?? 0
                let next = start + 5 < count ? #""c\#(start + 5)""# : "null"
                return json(start..<(start + 5), extra: #","nextCursor":\#(next)"#)
            default:
                let page = Int(query["page"] ?? "1") ?? 1
                // Relative and absolute links in turn, as servers write both.
                let target = away.map { $0.absoluteString + "/link" } ?? (page.isMultiple(of: 2) ? "/link" : "")
                // On odd pages `rel="next"` comes in a second Link field after a `rel="first"` one (RFC 8288 allows any
                // number of fields): a walk that read only the first field would end after page 1.
                let first = page.isMultiple(of: 2) ? [] : [("Link", #"</link?page=1>; rel="first""#)]
                let link = page * 5 < count ? first + [("Link", #"<\#(target)?page=\#(page + 1)>; rel="next""#)] : []
                return json(((page - 1) * 5)..<(page * 5), headers: link)
            }
        }
    }

    @Test("every strategy walks all 23 items in order, one request per page", arguments: TransportKind.allCases)
    func strategies(kind: TransportKind) async throws {
        try await withServer(kind, respond: Self.responder()) { transport, server in
            // Given
            let api = Api(transport: transport)

            // When
            let byPage = try await Paginated(api.pages, from: PageRequest(), by: .pageNumber(\.page, pageSize: \.perPage, items: \.self))
                .reduce(into: []) { $0.append($1.id) }
            let byOffset = try await Paginated(api.offsets, from: OffsetRequest(), by: .offset(\.offset, limit: \.limit, items: \.items))
                .reduce(into: []) { $0.append($1.id) }
            let byCursor = try await Paginated(
                api.cursors, from: CursorRequest(), by: .cursor(\.cursor, next: \.nextCursor, items: \.items)
            ).reduce(into: []) { $0.append($1.id) }
            let byLink = try await Paginated(api.links, from: LinkRequest(), by: .linkHeader(\.url, items: \.self))
                .reduce(into: []) { $0.append($1.id) }

            // Then
            for ids in [byPage, byOffset, byCursor, byLink] { #expect(ids == Array(0..<Self.count)) }
            let paths = server.requests.map(\.encodedPath)
            for path in ["/pages", "/offset", "/cursor", "/link"] { #expect(paths.filter { $0 == path }.count == 5, "\(path)") }
            #expect(server.requests.filter { $0.encodedPath == "/link" }.map(\.target) == (1...5).map { "/link?page=\($0)" })
        }
    }

    @Test("prefix, first(where:), item(at:) and cancellation send no request for a page nobody reads", arguments: TransportKind.allCases)
    func earlyStops(kind: TransportKind) async throws {
        try await withServer(kind, respond: Self.responder()) { transport, server in
            // Given
            let api = Api(transport: transport)
            let walk = Paginated(api.pages, from: PageRequest(), by: .pageNumber(\.page, pageSize: \.perPage, items: \.self))

            // When
            let firstSix = try await walk.prefix(6).reduce(into: []) { $0.append($1.id) }
            let afterPrefix = server.requests.count
            let found = try await walk.first { $0.id == 12 }
            let afterFirst = server.requests.count
            let twentieth = try await walk.item(at: 20)
            let afterItem = server.requests.count
            let cancelled = await Task {
                for try await item in walk where item.id == 2 { withUnsafeCurrentTask { $0?.cancel() } }
            }.result

            // Then
            #expect(firstSix == Array(0..<6) && afterPrefix == 2)
            #expect(found?.id == 12 && afterFirst - afterPrefix == 3)
            #expect(twentieth?.id == 20 && afterItem - afterFirst == 1)
            #expect(server.requests[afterItem - 1].target == "/pages?page=5&per_page=5")
            #expect(throws: CancellationError.self) { try cancelled.get() }
            #expect(server.requests.count - afterItem == 1)
        }
    }

    @Test(
        "a next link to another origin ends the walk with PaginationError; that origin receives nothing", arguments: TransportKind.allCases)
    func linkToAnotherOrigin(kind: TransportKind) async throws {
        let away = try await TestServer.start { _ in ScriptedResponse(status: 200, body: Data("[]".utf8)) }
        do {
            try await withServer(kind, respond: Self.responder(away: away.baseURL)) { transport, server in
                // Given
                let api = Api(transport: transport)

                // When
                var seen: [Int] = []
                let error = await #expect(throws: PaginationError.self) {
                    for try await item in Paginated(api.links, from: LinkRequest(), by: .linkHeader(\.url, items: \.self)) {
                        seen.append(item.id)
                    }
                }

                // Then
                #expect(seen == Array(0..<5))
                #expect(error?.page == 1)
                #expect(error?.description.contains("leads to another origin than the page") == true)
                #expect(server.requests.count == 1)
            }
            #expect(away.requests.isEmpty)
            await away.stop()
        } catch {
            await away.stop()
            throw error
        }
    }

    @Test("a failing page surfaces from the iterator with its position and the server's error", arguments: TransportKind.allCases)
    func failingPage(kind: TransportKind) async throws {
        let responder = Self.responder()
        try await withServer(
            kind, respond: { request in request.target.contains("page=3&") ? ScriptedResponse(status: 503) : responder(request) }
        ) { transport, _ in
            // Given
            let api = Api(transport: transport)

            // When
            var seen = 0
            let error = await #expect(throws: PaginationError.self) {
                for try await _ in Paginated(api.pages, from: PageRequest(), by: .pageNumber(\.page, pageSize: \.perPage, items: \.self)) {
                    seen += 1
                }
            }

            // Then
            #expect(seen == 10)
            #expect(error?.page == 2)
            #expect((error?.underlyingError as? HTTPError)?.statusCode == 503)
        }
    }
}
