import Foundation
import RetroSwift
import RetroSwiftTestServer
import RetroSwiftTesting
import Testing

/// The rules of RFC 9111 as ``HTTPCache`` applies them, against a scripted transport and a clock the test moves.
/// The same rules against real servers, on every transport, are in `CacheEndToEndTests`.
@Suite("HTTPCache follows RFC 9111")
struct HTTPCacheTests {
    struct Note: Codable, Equatable {
        var text: String
    }

    struct Lookup {
        @Header("Authorization") var authorization: String? = nil
        @Header("Accept-Language") var language: String? = nil
        @Header("Cache-Control") var cacheControl: String? = nil
    }

    struct Edit {
        @JsonBody var note = Note(text: "new")
    }

    // @unchecked Sendable: endpoint wrappers only, set up in init and never reassigned.
    final class Api: Domain, @unchecked Sendable {
        @Get("/notes") var notes: () async throws -> HTTPResponse<Note>
        @Get("/notes") var lookup: (Lookup) async throws -> HTTPResponse<Note>
        @Get("/notes", cache: .revalidate) var revalidated: () async throws -> HTTPResponse<Note>
        @Get("/notes", cache: .disabled) var uncached: () async throws -> HTTPResponse<Note>
        @Get("/other") var other: () async throws -> HTTPResponse<Note>
        @Post("/notes") var create: (Edit) async throws -> HTTPResponse<Empty>
        @Delete("/notes") var delete: () async throws -> HTTPResponse<Empty>
        @Get("/notes/{n}") var numbered: (Numbered) async throws -> HTTPResponse<Note>
    }

    struct Numbered {
        @Path var n: Int
    }

    /// A clock the test moves by hand.
    final class Clock: Sendable {
        private let seconds = Protected<TimeInterval>(1_790_000_000)
        var now: Date { Date(timeIntervalSince1970: seconds.mutate { $0 }) }
        func advance(_ by: TimeInterval) { seconds.mutate { $0 += by } }
    }

    /// A transport answering each request with the next of `answers` (the last one repeats), a cache on the clock,
    /// and the domain using both.
    static func setUp(
        _ answers: [HttpOperationResult], cache: (Clock) -> HTTPCache = { clock in HTTPCache(now: { clock.now }) }
    ) -> (Api, RecordingTransport, Clock, HTTPCache) {
        let remaining = Protected(answers)
        let transport = RecordingTransport { _ in
            remaining.mutate { $0.count > 1 ? $0.removeFirst() : $0[0] }
        }
        let clock = Clock()
        let api = Api(transport: transport)
        api.baseURL = URL(string: "http://127.0.0.1:8080/v1")!
        let made = cache(clock)
        api.httpCache = made
        return (api, transport, clock, made)
    }

    static func note(_ text: String, _ headers: [String: String], status: Int = 200) -> HttpOperationResult {
        .json(#"{"text":"\#(text)"}"#, status: status, headers: headers)
    }

    static func notModified(_ headers: [String: String] = [:]) -> HttpOperationResult {
        HttpOperationResult(statusCode: 304, headers: HTTPHeaderFields(headers))
    }

    @Test("a fresh response answers without the network, with its Age; once stale without a validator, it is fetched again")
    func freshThenStale() async throws {
        // Given
        let (api, transport, clock, cache) = Self.setUp([
            Self.note("first", ["Cache-Control": "max-age=60"]), Self.note("second", ["Cache-Control": "max-age=60"]),
        ])

        // When
        let first = try await api.notes()
        clock.advance(30)
        let hit = try await api.notes()
        clock.advance(31)
        let refetched = try await api.notes()

        // Then
        #expect(transport.requests.count == 2)
        #expect(first.source == .network && first.body.text == "first")
        #expect(hit.source == .cache && hit.body.text == "first" && hit.header("Age") == "30")
        #expect(refetched.source == .network && refetched.body.text == "second")
        #expect(cache.count == 1)
    }

    @Test("a stale response with an ETag is revalidated; a 304 answers with the stored body and its new fields")
    func revalidatedWithETag() async throws {
        // Given
        let (api, transport, clock, _) = Self.setUp([
            Self.note("stored", ["Cache-Control": "max-age=10", "ETag": #""v1""#, "X-Version": "1"]),
            Self.notModified(["Cache-Control": "max-age=100", "X-Version": "2", "Content-Length": "0"]),
        ])

        // When
        _ = try await api.notes()
        clock.advance(11)
        let revalidated = try await api.notes()
        clock.advance(50)
        let hit = try await api.notes()

        // Then
        #expect(transport.requests.count == 2)
        #expect(transport.requests[1].header("If-None-Match") == #""v1""#)
        #expect(revalidated.source == .revalidatedCache && revalidated.statusCode == 200 && revalidated.body.text == "stored")
        #expect(revalidated.header("X-Version") == "2" && revalidated.header("Content-Length") == nil)
        #expect(hit.source == .cache && hit.header("X-Version") == "2")
    }

    @Test("Last-Modified revalidates with If-Modified-Since; a full answer replaces the stored one")
    func revalidatedWithLastModified() async throws {
        // Given
        let modified = "Tue, 15 Nov 1994 12:45:26 GMT"
        let (api, transport, _, _) = Self.setUp([
            Self.note("old", ["Last-Modified": modified]), Self.note("new", ["Last-Modified": modified, "Cache-Control": "max-age=5"]),
        ])

        // When
        _ = try await api.notes()
        let replaced = try await api.notes()
        let hit = try await api.notes()

        // Then
        #expect(transport.requests.count == 2)
        #expect(transport.requests[1].header("If-Modified-Since") == modified)
        #expect(replaced.source == .network && replaced.body.text == "new")
        #expect(hit.source == .cache && hit.body.text == "new")
    }

    @Test("no-store on the response or the request keeps it out; no-cache stores it but asks every time")
    func noStoreAndNoCache() async throws {
        // Given
        let (api, transport, _, cache) = Self.setUp([
            Self.note("a", ["Cache-Control": "no-store, max-age=60"]),
            Self.note("b", ["Cache-Control": "no-cache, max-age=60", "ETag": "\"b\""]), Self.notModified(),
            Self.note("c", ["Cache-Control": "max-age=60"]),
        ])

        // When
        _ = try await api.notes()
        let afterNoStore = cache.count
        _ = try await api.notes()
        let revalidated = try await api.notes()
        let bypassed = try await api.lookup(Lookup(cacheControl: "no-store"))

        // Then
        #expect(afterNoStore == 0)
        #expect(transport.requests.count == 4)
        #expect(revalidated.source == .revalidatedCache && revalidated.body.text == "b")
        #expect(transport.requests[3].header("If-None-Match") == nil)
        #expect(bypassed.source == .network)
    }

    @Test("Expires against Date gives the freshness; an Age on arrival counts; an Expires that is no date is stale")
    func expiresDateAndAge() async throws {
        // Given: the transport's responses dated by the test's clock
        let clock = Clock()
        let date = Self.httpDate(clock.now)
        let expires = Self.httpDate(clock.now.addingTimeInterval(100))
        let (api, transport, _, _) = Self.setUp(
            [
                Self.note("expires", ["Date": date, "Expires": expires]), Self.note("aged", ["Cache-Control": "max-age=100", "Age": "90"]),
                Self.note("invalid", ["Expires": "0"]),
            ], cache: { _ in HTTPCache(now: { clock.now }) })

        // When
        _ = try await api.notes()
        clock.advance(99)
        let beforeExpiry = try await api.notes()
        clock.advance(2)
        _ = try await api.notes()
        clock.advance(9)
        let agedHit = try await api.notes()
        clock.advance(2)
        _ = try await api.notes()
        _ = try await api.notes()

        // Then
        #expect(beforeExpiry.source == .cache && beforeExpiry.header("Age") == "99")
        #expect(agedHit.source == .cache && agedHit.header("Age") == "99")
        #expect(transport.requests.count == 4)
    }

    @Test("Vary: an entry answers only the same values of the varied fields; Vary: * is never stored")
    func vary() async throws {
        // Given
        let (api, transport, _, cache) = Self.setUp([
            Self.note("en", ["Cache-Control": "max-age=60", "Vary": "Accept-Language"]),
            Self.note("fr", ["Cache-Control": "max-age=60", "Vary": "Accept-Language"]),
            Self.note("star", ["Cache-Control": "max-age=60", "Vary": "*"]),
        ])

        // When
        let english = try await api.lookup(Lookup(language: "en"))
        let french = try await api.lookup(Lookup(language: "fr"))
        let englishAgain = try await api.lookup(Lookup(language: "en"))
        let frenchAgain = try await api.lookup(Lookup(language: "fr"))
        let variants = cache.count
        _ = try await api.other()
        _ = try await api.other()

        // Then
        #expect([english, french, englishAgain, frenchAgain].map(\.body.text) == ["en", "fr", "en", "fr"])
        #expect([englishAgain, frenchAgain].allSatisfy { $0.source == .cache })
        #expect(variants == 2 && cache.count == 2)
        #expect(transport.requests.count == 4)
    }

    @Test("an entry answers only the Authorization it was fetched with, unless the response is public")
    func credentials() async throws {
        // Given
        let (api, transport, _, _) = Self.setUp([
            Self.note("alice", ["Cache-Control": "max-age=60"]), Self.note("bob", ["Cache-Control": "max-age=60"]),
            Self.note("anonymous", ["Cache-Control": "max-age=60"]), Self.note("public", ["Cache-Control": "public, max-age=60"]),
        ])

        // When
        let alice = try await api.lookup(Lookup(authorization: "Bearer alice"))
        let bob = try await api.lookup(Lookup(authorization: "Bearer bob"))
        let aliceAgain = try await api.lookup(Lookup(authorization: "Bearer alice"))
        let anonymous = try await api.lookup(Lookup())
        _ = try await api.other()
        let carol = try await api.lookup(Lookup(authorization: "Bearer carol"))

        // Then: nobody got another's answer, not even the anonymous one
        #expect([alice, bob, aliceAgain, anonymous].map(\.body.text) == ["alice", "bob", "alice", "anonymous"])
        #expect(aliceAgain.source == .cache && anonymous.source == .network)
        #expect(carol.source == .network && carol.body.text == "public")
        #expect(transport.requests.count == 5)
    }

    @Test("a public response answers every Authorization")
    func publicShared() async throws {
        // Given
        let (api, transport, _, _) = Self.setUp([Self.note("public", ["Cache-Control": "public, max-age=60"])])

        // When
        _ = try await api.lookup(Lookup(authorization: "Bearer alice"))
        let bob = try await api.lookup(Lookup(authorization: "Bearer bob"))
        let anonymous = try await api.lookup(Lookup())

        // Then
        #expect(bob.source == .cache && anonymous.source == .cache)
        #expect(transport.requests.count == 1)
    }

    @Test("a successful POST or DELETE removes its URL and its same-origin Location; a failed one does not")
    func unsafeMethodsInvalidate() async throws {
        // Given
        let (api, transport, _, cache) = Self.setUp([
            Self.note("notes", ["Cache-Control": "max-age=60"]), Self.note("other", ["Cache-Control": "max-age=60"]),
            HttpOperationResult(statusCode: 500), HttpOperationResult(statusCode: 201, headers: ["Location": "/v1/other"]),
            Self.note("notes again", ["Cache-Control": "max-age=60"]),
        ])
        _ = try await api.notes()
        _ = try await api.other()

        // When: a failed POST, then a successful one
        await #expect(throws: HTTPError.self) { try await api.create(Edit()) }
        let afterFailure = cache.count
        _ = try await api.create(Edit())

        // Then
        #expect(afterFailure == 2 && cache.count == 0)
        let refetched = try await api.notes()
        #expect(refetched.source == .network && refetched.body.text == "notes again")
        #expect(transport.requests.count == 5)
    }

    @Test("max-stale lets a stale response answer, unless it says must-revalidate; max-age and min-fresh ask sooner")
    func requestDirectives() async throws {
        // Given
        let (api, transport, clock, _) = Self.setUp([
            Self.note("lenient", ["Cache-Control": "max-age=10"]), Self.note("strict", ["Cache-Control": "max-age=10, must-revalidate"]),
        ])
        _ = try await api.notes()
        clock.advance(15)

        // When
        let stale = try await api.lookup(Lookup(cacheControl: "max-stale=10"))
        let tooStale = try await api.lookup(Lookup(cacheControl: "max-stale=2"))
        clock.advance(15)
        let mustRevalidate = try await api.lookup(Lookup(cacheControl: "max-stale"))
        clock.advance(1)
        let fresh = try await api.notes()
        let tooOld = try await api.lookup(Lookup(cacheControl: "max-age=0"))
        clock.advance(1)
        let notFreshEnough = try await api.lookup(Lookup(cacheControl: "min-fresh=20"))

        // Then
        #expect(stale.source == .cache && stale.body.text == "lenient")
        #expect(tooStale.source == .network && tooStale.body.text == "strict")
        #expect(mustRevalidate.source == .network)
        #expect(fresh.source == .cache)
        #expect(tooOld.source == .network && notFreshEnough.source == .network)
        #expect(transport.requests.count == 5)
    }

    @Test("only-if-cached: the stored response, or a 504 the cache makes without asking the server")
    func onlyIfCached() async throws {
        // Given
        let (api, transport, _, _) = Self.setUp([Self.note("stored", ["Cache-Control": "max-age=60"])])

        // When
        let error = await #expect(throws: HTTPError.self) { try await api.lookup(Lookup(cacheControl: "only-if-cached")) }
        _ = try await api.notes()
        let stored = try await api.lookup(Lookup(cacheControl: "only-if-cached"))

        // Then
        #expect(error?.statusCode == 504)
        #expect(stored.source == .cache)
        #expect(transport.requests.count == 1)
    }

    @Test("an endpoint's cache: .revalidate asks every time, .disabled neither reads nor stores")
    func endpointModes() async throws {
        // Given
        let (api, transport, _, cache) = Self.setUp([
            Self.note("stored", ["Cache-Control": "max-age=60", "ETag": "\"1\""]), Self.notModified(),
            Self.note("fresh", ["Cache-Control": "max-age=60", "ETag": "\"2\""]),
        ])
        _ = try await api.notes()

        // When
        let revalidated = try await api.revalidated()
        let uncached = try await api.uncached()
        let stored = try await api.notes()

        // Then: the uncached answer neither came from the cache nor went into it
        #expect(revalidated.source == .revalidatedCache)
        #expect(uncached.source == .network && uncached.body.text == "fresh")
        #expect(stored.source == .cache && stored.body.text == "stored")
        #expect(transport.requests.count == 3)
        #expect(transport.requests[2].header("If-None-Match") == nil)
        #expect(cache.count == 1)
    }

    @Test("a 304 naming another ETag than the stored one is not used: the call asks again without conditions")
    func mismatchedNotModified() async throws {
        // Given
        let (api, transport, _, _) = Self.setUp([
            Self.note("v1", ["ETag": "\"v1\""]), Self.notModified(["ETag": "\"v2\""]), Self.note("v2", ["ETag": "\"v2\""]),
        ])

        // When
        _ = try await api.notes()
        let answer = try await api.notes()

        // Then
        #expect(answer.body.text == "v2" && answer.source == .network)
        #expect(transport.requests.map { $0.header("If-None-Match") } == [nil, "\"v1\"", nil])
    }

    @Test("the store keeps within maxBytes, the least recently used response leaving first")
    func leastRecentlyUsedLeaves() async throws {
        // Given: room for about two entries of 1 KB
        let big = String(repeating: "x", count: 1_000)
        let (api, transport, _, cache) = Self.setUp(
            [Self.note(big, ["Cache-Control": "max-age=60"])], cache: { clock in HTTPCache(maxBytes: 3_000, now: { clock.now }) })

        // When: 1 and 2 are stored, 1 is used again, 3 arrives
        _ = try await api.numbered(Numbered(n: 1))
        _ = try await api.numbered(Numbered(n: 2))
        let one = try await api.numbered(Numbered(n: 1))
        _ = try await api.numbered(Numbered(n: 3))
        let oneAgain = try await api.numbered(Numbered(n: 1))
        let two = try await api.numbered(Numbered(n: 2))

        // Then: 2 left, 1 stayed
        #expect(one.source == .cache && oneAgain.source == .cache && two.source == .network)
        #expect(cache.byteCount <= 3_000 && cache.count == 2)
        #expect(transport.requests.count == 4)
    }

    @Test("stale-while-revalidate, when enabled, answers at once and revalidates in the background")
    func staleWhileRevalidate() async throws {
        // Given
        let (api, transport, clock, _) = Self.setUp(
            [
                Self.note("stale", ["Cache-Control": "max-age=10, stale-while-revalidate=30", "ETag": "\"1\""]),
                Self.notModified(["Cache-Control": "max-age=10, stale-while-revalidate=30"]),
            ], cache: { clock in HTTPCache(servesStaleWhileRevalidating: true, now: { clock.now }) })
        _ = try await api.notes()
        clock.advance(20)

        // When
        let stale = try await api.notes()
        let waited = try await eventually { transport.requests.count == 2 }
        #expect(waited)
        let fresh = try await api.notes()
        clock.advance(60)
        let tooStale = try await api.notes()

        // Then
        #expect(stale.source == .staleCache && stale.body.text == "stale")
        #expect(transport.requests.count == 3)
        #expect(transport.requests[1].header("If-None-Match") == "\"1\"")
        #expect(fresh.source == .cache)
        #expect(tooStale.source == .revalidatedCache)
    }

    @Test("heuristic freshness, off by default, gives a tenth of the time since Last-Modified")
    func heuristicFreshness() async throws {
        for heuristic in [false, true] {
            // Given: modified 1,000 s before the response's Date
            let clock = Clock()
            let answer = Self.note(
                "doc", ["Date": Self.httpDate(clock.now), "Last-Modified": Self.httpDate(clock.now.addingTimeInterval(-1_000))])
            let (api, transport, _, _) = Self.setUp(
                [answer, answer], cache: { _ in HTTPCache(usesHeuristicFreshness: heuristic, now: { clock.now }) })

            // When
            _ = try await api.notes()
            clock.advance(50)
            let second = try await api.notes()

            // Then
            #expect(second.source == (heuristic ? .cache : .network))
            #expect(transport.requests.count == (heuristic ? 1 : 2))
        }
    }

    @Test("concurrent calls for one URL leave one whole entry, every answer a body the server sent")
    func concurrentCalls() async throws {
        // Given: each answer's body and ETag agree
        let counter = Protected(0)
        let transport = RecordingTransport { request in
            if request.header("If-None-Match") != nil { return HttpOperationResult(statusCode: 304) }
            let n = counter.mutate {
                $0 += 1
                return $0
            }
            return Self.note("\(n)", ["ETag": "\"\(n)\"", "Cache-Control": "max-age=0"])
        }
        let api = Api(transport: transport)
        api.baseURL = URL(string: "http://127.0.0.1:8080/v1")!
        let cache = HTTPCache()
        api.httpCache = cache

        // When
        let answers = try await withThrowingTaskGroup(of: HTTPResponse<Note>.self) { group in
            for _ in 0..<200 { group.addTask { try await api.notes() } }
            return try await group.reduce(into: []) { $0.append($1) }
        }

        // Then
        #expect(answers.count == 200)
        for answer in answers { #expect(answer.header("ETag") == "\"\(answer.body.text)\"") }
        #expect(cache.count == 1)
    }

    static func httpDate(_ date: Date) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "GMT")
        formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss 'GMT'"
        return formatter.string(from: date)
    }
}
