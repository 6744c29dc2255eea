import Foundation
import RetroSwiftTesting
import Testing

@testable import RetroSwift

@Suite("Paginated: walking paged endpoints")
struct PaginationTests {
    struct Item: Decodable, Equatable, Sendable {
        var id: Int
    }

    struct PageRequest: Sendable {
        @Query var page: Int = 1
        @Query("per_page") var perPage: Int = 5
    }

    struct LinkRequest: Sendable {
        @Url var url: String = "/link"
    }

    // @unchecked Sendable: the fixture adds only endpoint wrappers, set up in init and never reassigned.
    final class Api: Domain, @unchecked Sendable {
        @Get("/pages") var pages: (PageRequest) async throws -> [Item]
        @Get() var linked: (LinkRequest) async throws -> HTTPResponse<[Item]>
    }

    /// Serves `count` items, five per page, as `/pages?page=N` and as `/link` pages chained by the `Link` header
    /// that `link` writes for a page number.
    static func api(count: Int = 12, link: @escaping @Sendable (Int) -> String? = { "</link?page=\($0 + 1)>; rel=\"next\"" })
        -> (Api, RecordingTransport)
    {
        let transport = RecordingTransport { params in
            let page = Int(params.queryItems.first { $0.name == "page" }?.value ?? "1") ?? 1
            let ids = Array(((page - 1) * 5)..<min(page * 5, count))
            let body = "[" + ids.map { #"{"id":\#($0)}"# }.joined(separator: ",") + "]"
            var headers: [String: String] = [:]
            if params.encodedPath == "/link", page * 5 < count, let value = link(page) { headers["Link"] = value }
            return .json(body, headers: headers)
        }
        transport.setConfiguration(baseURL: URL(string: "https://api.example")!, sharedHeaders: nil)
        return (Api(transport: transport), transport)
    }

    @Test("nothing is fetched before iteration; each page only when the one before is used up")
    func lazy() async throws {
        // Given
        let (api, transport) = Self.api()
        let items = Paginated(api.pages, from: PageRequest(), by: .pageNumber(\.page, pageSize: \.perPage, items: \.self))

        // When
        let before = transport.requests.count
        let firstSeven = try await items.prefix(7).reduce(into: []) { $0.append($1.id) }
        let afterPrefix = transport.requests.count
        let found = try await items.first { $0.id == 10 }
        let all = try await items.reduce(into: []) { $0.append($1.id) }

        // Then
        #expect(before == 0)
        #expect(firstSeven == Array(0..<7))
        #expect(afterPrefix == 2)
        #expect(found?.id == 10)
        #expect(all == Array(0..<12))
        #expect(
            transport.requests.map(\.encodedPathAndQuery).suffix(3) == [
                "/pages?page=1&per_page=5", "/pages?page=2&per_page=5", "/pages?page=3&per_page=5",
            ])
        #expect(transport.requests.count == 2 + 3 + 3)
    }

    @Test("a full last page costs one more request, which comes back empty and ends the walk")
    func fullLastPage() async throws {
        // Given
        let (api, transport) = Self.api(count: 10)

        // When
        let all = try await Paginated(api.pages, from: PageRequest(), by: .pageNumber(\.page, pageSize: \.perPage, items: \.self))
            .reduce(into: []) { $0.append($1.id) }

        // Then
        #expect(all == Array(0..<10))
        #expect(transport.requests.count == 3)
    }

    @Test(
        "Link headers: followed as given, relative or absolute, whatever the parameters around rel=next",
        arguments: [
            #"</link?page=NEXT>; rel="next""#,
            #"<https://api.example/link?page=NEXT>; REL=next"#,
            #"</first>; rel="first", </link?page=NEXT>; title="a, b; c"; rel="next last""#,
            #"</link?page=NEXT>; rel="next"; rel="prev""#,
            #"</other>; rel="x,next", </link?page=NEXT>;rel=next"#,
        ])
    func linkHeaders(template: String) async throws {
        // Given
        let (api, transport) = Self.api { page in template.replacingOccurrences(of: "NEXT", with: String(page + 1)) }

        // When
        let all = try await Paginated(api.linked, from: LinkRequest(), by: .linkHeader(\.url, items: \.self))
            .reduce(into: []) { $0.append($1.id) }

        // Then
        #expect(all == Array(0..<12))
        #expect(
            transport.requests.map { $0.url.absoluteString } == [
                "https://api.example/link", "https://api.example/link?page=2", "https://api.example/link?page=3",
            ])
    }

    @Test("a next link to another origin ends the walk, after the linking page's items, with PaginationError; never requested")
    func linkToAnotherOrigin() async throws {
        // Given
        let (api, transport) = Self.api { _ in #"<https://evil.example/link?page=2>; rel="next""# }

        // When
        var seen: [Int] = []
        let error = await #expect(throws: PaginationError.self) {
            for try await item in Paginated(api.linked, from: LinkRequest(), by: .linkHeader(\.url, items: \.self)) {
                seen.append(item.id)
            }
        }

        // Then
        #expect(seen == Array(0..<5))
        #expect(error?.page == 1)
        #expect(
            error?.description == """
                page 1 (counting from 0): RetroSwift: the next page's link 'https://evil.example/link?page=2' leads to \
                another origin than the page (https://api.example/link); it was not followed
                """)
        #expect(error?.localizedDescription == error?.description)
        #expect(transport.requests.count == 1)
    }

    @Test("any Link header is either followed on the page's origin, ignored, or refused; never a crash (property test, 2,000 headers)")
    func anyLinkHeader() async throws {
        // Given: headers drawn from Link syntax and the bytes that could confuse it
        let pieces = [
            "<", ">", "/link?page=2", "https://api.example/link?page=2", "https://evil.example/", ";", ",", " ", "rel", "=",
            "\"", "next", "\\", "title", "é", "\t", "\"next\"", "rel=next", "<>",
        ]
        var generator = SeededGenerator(state: 8288)
        for _ in 0..<2_000 {
            let header = (0..<Int(generator.next() % 10)).map { _ in pieces[Int(generator.next() % UInt64(pieces.count))] }.joined()
            let (api, transport) = Self.api { _ in header }

            // When
            var count = 0
            var failure: (any Error)?
            do {
                for try await _ in Paginated(api.linked, from: LinkRequest(), by: .linkHeader(\.url, items: \.self)).prefix(20) {
                    count += 1
                }
            } catch {
                failure = error
            }

            // Then: every request stayed on the origin; a failure is a PaginationError
            for request in transport.requests {
                #expect(request.url.host == "api.example", "\(header)")
            }
            if let failure { #expect(failure is PaginationError, "\(header)") }
            #expect(count <= 20)
        }
    }

    @Test("offset and cursor strategies walk every item once, in order")
    func offsetAndCursor() async throws {
        // Given
        struct OffsetRequest: Sendable {
            @Query var offset: Int = 0
            @Query var limit: Int = 4
        }
        struct CursorRequest: Sendable {
            @Query var cursor: String? = nil
        }
        struct Results: Decodable, Sendable {
            var results: [Item]
            var next: String?
        }
        final class ListApi: Domain, @unchecked Sendable {
            @Get("/offset") var byOffset: (OffsetRequest) async throws -> Results
            @Get("/cursor") var byCursor: (CursorRequest) async throws -> Results
        }
        let transport = RecordingTransport { params in
            let query = Dictionary(params.queryItems.map { ($0.name, $0.value) }) { first, _ in first }
            let start = Int(query["offset"] ?? query["cursor"].map { String($0.dropFirst()) } ?? "0") ?? 0
            let size = Int(query["limit"] ?? "3") ?? 3
            let ids = Array(start..<min(start + size, 10))
            let next = start + size < 10 ? #""c\#(start + size)""# : "null"
            return .json(#"{"results":[\#(ids.map { #"{"id":\#($0)}"# }.joined(separator: ","))],"next":\#(next)}"#)
        }
        transport.setConfiguration(baseURL: URL(string: "https://api.example")!, sharedHeaders: nil)
        let api = ListApi(transport: transport)

        // When
        let byOffset = try await Paginated(api.byOffset, from: OffsetRequest(), by: .offset(\.offset, limit: \.limit, items: \.results))
            .reduce(into: []) { $0.append($1.id) }
        let byCursor = try await Paginated(api.byCursor, from: CursorRequest(), by: .cursor(\.cursor, next: \.next, items: \.results))
            .reduce(into: []) { $0.append($1.id) }

        // Then
        #expect(byOffset == Array(0..<10))
        #expect(byCursor == Array(0..<10))
        #expect(
            transport.requests.map(\.encodedPathAndQuery) == [
                "/offset?offset=0&limit=4", "/offset?offset=4&limit=4", "/offset?offset=8&limit=4",
                "/cursor", "/cursor?cursor=c3", "/cursor?cursor=c6", "/cursor?cursor=c9",
            ])
    }

    @Test("pages gives whole responses; a mocked endpoint walks its mock; a failing page names its position")
    func pagesMocksAndErrors() async throws {
        // Given
        let (api, transport) = Self.api()
        api.pages = { request in
            if request.page == 3 { throw URLError(.timedOut) }
            return [Item(id: request.page * 100)]
        }
        let walk = Paginated(api.pages, from: PageRequest(perPage: 1), by: .pageNumber(\.page, pageSize: \.perPage, items: \.self))

        // When
        var pages: [[Item]] = []
        let error = await #expect(throws: PaginationError.self) {
            for try await page in walk.pages { pages.append(page) }
        }

        // Then
        #expect(pages == [[Item(id: 100)], [Item(id: 200)]])
        #expect(error?.page == 2)
        #expect((error?.underlyingError as? URLError)?.code == .timedOut)
        #expect(transport.requests.isEmpty)
    }

    @Test("positions and page numbers past Int.max end the walk instead of trapping")
    func extremePositions() async throws {
        // Given: a walk that starts on the last page number Int can hold, and every page full
        let transport = RecordingTransport { _ in .json(#"[{"id":1},{"id":2},{"id":3},{"id":4},{"id":5}]"#) }
        transport.setConfiguration(baseURL: URL(string: "https://api.example")!, sharedHeaders: nil)
        let api = Api(transport: transport)
        let fromTheLastPage = Paginated(
            api.pages, from: PageRequest(page: .max), by: .pageNumber(\.page, pageSize: \.perPage, items: \.self))
        let byPage = Paginated(api.pages, from: PageRequest(page: 2), by: .pageNumber(\.page, pageSize: \.perPage, items: \.self))

        // When
        let walked = try await fromTheLastPage.reduce(into: 0) { count, _ in count += 1 }
        let atTheEnd = try await byPage.item(at: .max)
        let nearTheEnd = try await byPage.items(in: (Int.max - 3)..<Int.max)

        // Then: one page, then no page number after Int.max; the last positions Int can hold are on pages it can name
        #expect(walked == 5)
        #expect(atTheEnd == nil)
        #expect(nearTheEnd.map(\.id) == [5, 1, 2])
        #expect(
            transport.requests.map { $0.queryItems.first { $0.name == "page" }?.value } == [
                "\(Int.max)", "\(2 + (Int.max - 3) / 5)", "\(3 + (Int.max - 3) / 5)",
            ])
    }

    @Test("item(at:) and items(in:) fetch only the pages that hold them when the strategy can name pages; walk otherwise")
    func randomAccess() async throws {
        // Given
        let (api, transport) = Self.api(count: 23)
        let byPage = Paginated(api.pages, from: PageRequest(), by: .pageNumber(\.page, pageSize: \.perPage, items: \.self))
        let byLink = Paginated(api.linked, from: LinkRequest(), by: .linkHeader(\.url, items: \.self))

        // When
        let seventh = try await byPage.item(at: 7)
        let afterSeventh = transport.requests.map(\.encodedPathAndQuery)
        let middle = try await byPage.items(in: 9..<16)
        let pastTheEnd = try await byPage.items(in: 20..<40)
        let negative = try await byPage.item(at: -1)
        let requestsBeforeLink = transport.requests.count
        let walked = try await byLink.item(at: 11)

        // Then
        #expect(seventh?.id == 7)
        #expect(afterSeventh == ["/pages?page=2&per_page=5"])
        #expect(middle.map(\.id) == Array(9..<16))
        #expect(pastTheEnd.map(\.id) == Array(20..<23))
        #expect(negative == nil)
        #expect(
            transport.requests.prefix(requestsBeforeLink).map(\.encodedPathAndQuery) == [
                "/pages?page=2&per_page=5", "/pages?page=2&per_page=5", "/pages?page=3&per_page=5", "/pages?page=4&per_page=5",
                "/pages?page=5&per_page=5",
            ])
        #expect(walked?.id == 11)
        #expect(transport.requests.count - requestsBeforeLink == 3)
    }

    @Test("two walks of one endpoint at once, from two tasks, each get every item: walks share no state")
    func concurrentWalks() async throws {
        // Given
        let (api, transport) = Self.api(count: 40)
        @Sendable func walkAll() async throws -> [Int] {
            try await Paginated(api.pages, from: PageRequest(), by: .pageNumber(\.page, pageSize: \.perPage, items: \.self))
                .reduce(into: []) { $0.append($1.id) }
        }

        // When
        async let first = walkAll()
        async let second = walkAll()
        let (a, b) = try await (first, second)

        // Then
        #expect(a == Array(0..<40) && b == Array(0..<40))
        #expect(transport.requests.count == 2 * 9)
    }

    @Test("cancelling the walking task stops it before the next page is requested")
    func cancellation() async throws {
        // Given
        let (api, transport) = Self.api(count: 100)
        let walk = Paginated(api.pages, from: PageRequest(), by: .pageNumber(\.page, pageSize: \.perPage, items: \.self))

        // When
        let task = Task {
            var seen = 0
            for try await _ in walk {
                seen += 1
                if seen == 5 { withUnsafeCurrentTask { $0?.cancel() } }
            }
            return seen
        }
        let result = await task.result

        // Then
        #expect(throws: CancellationError.self) { try result.get() }
        #expect(transport.requests.count == 1)
    }
}
