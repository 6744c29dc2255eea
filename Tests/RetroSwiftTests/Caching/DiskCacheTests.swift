import Foundation
import RetroSwift
import RetroSwiftTesting
import Testing

@testable import RetroSwift

/// ``HTTPCache`` on disk: what survives a restart, what is dropped, what is never written down.
@Suite("HTTPCache on disk survives restarts, drops broken entries and keeps no credentials")
struct DiskCacheTests {
    typealias Api = HTTPCacheTests.Api
    typealias Lookup = HTTPCacheTests.Lookup

    /// A fresh directory, deleted after `body`.
    static func withDirectory(_ body: (URL) async throws -> Void) async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("retroswift-cache-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        try await body(directory)
    }

    /// An API on a transport answering `answer`, with `cache`.
    static func api(_ cache: HTTPCache, answering answer: HttpOperationResult) -> (Api, RecordingTransport) {
        let transport = RecordingTransport { _ in answer }
        let api = Api(transport: transport)
        api.baseURL = URL(string: "http://127.0.0.1:8080/v1")!
        api.httpCache = cache
        return (api, transport)
    }

    static func files(in directory: URL) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: directory.path).sorted()
    }

    @Test("a response stored by one process answers the next one's call, under the same Authorization only")
    func survivesRestart() async throws {
        try await Self.withDirectory { directory in
            // Given: a process stored alice's answer
            let first = try HTTPCache(directory: directory)
            let (api, _) = Self.api(first, answering: HTTPCacheTests.note("alice's", ["Cache-Control": "max-age=600"]))
            _ = try await api.lookup(Lookup(authorization: "Bearer alice-secret-token"))

            // When: the next process opens the directory
            let reopened = try HTTPCache(directory: directory)
            let (again, transport) = Self.api(reopened, answering: HTTPCacheTests.note("network", ["Cache-Control": "max-age=600"]))
            let alice = try await again.lookup(Lookup(authorization: "Bearer alice-secret-token"))
            let bob = try await again.lookup(Lookup(authorization: "Bearer bob"))

            // Then
            #expect(alice.source == .cache && alice.body.text == "alice's")
            #expect(bob.source == .network)
            #expect(transport.requests.count == 1)
            // No file holds the credential itself.
            for name in try Self.files(in: directory) {
                let bytes = try Data(contentsOf: directory.appendingPathComponent(name))
                #expect(bytes.range(of: Data("alice-secret-token".utf8)) == nil, "\(name) holds the token")
            }
        }
    }

    @Test("a head that does not decode, a body cut short and a body without a head are deleted when the cache opens")
    func brokenEntriesDropped() async throws {
        try await Self.withDirectory { directory in
            // Given: three stored entries, then damage to two of them and a stray body
            let cache = try HTTPCache(directory: directory)
            let (api, _) = Self.api(cache, answering: HTTPCacheTests.note("stored", ["Cache-Control": "max-age=600"]))
            for n in 1...3 { _ = try await api.numbered(HTTPCacheTests.Numbered(n: n)) }
            let names = Set(try Self.files(in: directory).map { $0.split(separator: ".")[0] }).sorted()
            #expect(names.count == 3)
            try Data("not a property list".utf8).write(to: directory.appendingPathComponent(names[0] + ".head"))
            try Data("{".utf8).write(to: directory.appendingPathComponent(names[1] + ".body"))
            try Data("stray".utf8).write(to: directory.appendingPathComponent("stray.body"))

            // When
            let reopened = try HTTPCache(directory: directory)

            // Then: one entry left, its two files the only ones
            #expect(reopened.count == 1)
            #expect(try Self.files(in: directory) == [names[2] + ".body", names[2] + ".head"])
        }
    }

    @Test("a body file that goes missing makes a miss, not an error, and its entry leaves")
    func missingBodyIsAMiss() async throws {
        try await Self.withDirectory { directory in
            // Given
            let cache = try HTTPCache(directory: directory)
            let (api, transport) = Self.api(cache, answering: HTTPCacheTests.note("stored", ["Cache-Control": "max-age=600"]))
            _ = try await api.notes()
            for name in try Self.files(in: directory) where name.hasSuffix(".body") {
                try FileManager.default.removeItem(at: directory.appendingPathComponent(name))
            }

            // When
            let answer = try await api.notes()

            // Then: fetched again and stored again
            #expect(answer.source == .network && transport.requests.count == 2)
            #expect(try cache.count == 1 && Self.files(in: directory).count == 2)
        }
    }

    @Test("an entry replaced between its lookup and the read of its body answers with the newer entry, not a miss")
    func replacedWhileReading() async throws {
        try await Self.withDirectory { directory in
            // Given: an entry stored for a URL
            let cache = try HTTPCache(directory: directory)
            let requester = CacheStore.Requester([])
            let key = "http://127.0.0.1:8080/v1/notes"
            func entry(_ text: String) -> CacheEntry {
                CacheEntry(
                    HTTPCacheTests.note(text, ["Cache-Control": "no-cache", "ETag": "\"1\""]), for: requester, requestTime: Date(),
                    responseTime: Date(), heuristics: false)
            }
            cache.save(entry("older"), for: key, replacing: requester)

            // When: another call stores a newer answer, deleting the older one's files, after the lookup found the
            // older one and before its body was read
            var lookups = 0
            let found = cache.withBody(key: key) {
                lookups += 1
                let stored = cache.store.withLock { $0.entry(for: key, answering: requester) }
                if lookups == 1 { cache.save(entry("newer"), for: key, replacing: requester) }
                return stored
            }

            // Then: the lookup was made again and found the newer entry, which stays stored
            #expect(found.map { String(decoding: $0.body, as: UTF8.self) } == #"{"text":"newer"}"#)
            #expect(lookups == 2 && cache.count == 1)
            #expect(try Self.files(in: directory).count == 2)
        }
    }

    @Test("the directory stays within maxBytes: evicted entries' files are deleted, also when a smaller limit opens it")
    func bounded() async throws {
        try await Self.withDirectory { directory in
            // Given: entries of about 1.3 KB in a 4 KB cache
            let big = String(repeating: "x", count: 1_000)
            let cache = try HTTPCache(directory: directory, maxBytes: 4_000)
            let (api, _) = Self.api(cache, answering: HTTPCacheTests.note(big, ["Cache-Control": "max-age=600"]))

            // When
            for n in 1...10 { _ = try await api.numbered(HTTPCacheTests.Numbered(n: n)) }
            let smaller = try HTTPCache(directory: directory, maxBytes: 1_500)

            // Then
            #expect(cache.count == 3 && cache.byteCount <= 4_000)
            #expect(try smaller.count == 1 && Self.files(in: directory).count == 2)
        }
    }

    @Test("a 304's new freshness is written down: the next process answers from the revalidated entry")
    func freshenedHeadRewritten() async throws {
        try await Self.withDirectory { directory in
            // Given: a stored entry, revalidated with a 304 that makes it fresh for an hour
            let answers = Protected([
                HTTPCacheTests.note("stored", ["ETag": "\"1\""]), HTTPCacheTests.notModified(["Cache-Control": "max-age=3600"]),
            ])
            let transport = RecordingTransport { _ in answers.mutate { $0.count > 1 ? $0.removeFirst() : $0[0] } }
            let api = Api(transport: transport)
            api.baseURL = URL(string: "http://127.0.0.1:8080/v1")!
            api.httpCache = try HTTPCache(directory: directory)
            _ = try await api.notes()
            let revalidated = try await api.notes()

            // When
            let (next, nextTransport) = Self.api(try HTTPCache(directory: directory), answering: HttpOperationResult(statusCode: 500))
            let answer = try await next.notes()

            // Then
            #expect(revalidated.source == .revalidatedCache)
            #expect(answer.source == .cache && answer.body.text == "stored" && nextTransport.requests.isEmpty)
        }
    }

    @Test(
        "SHA-256 gives FIPS 180-4's digests",
        arguments: [
            ("", "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"),
            ("abc", "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"),
            (
                "abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq",
                "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1"
            ),
            (String(repeating: "a", count: 1_000), "41edece42d63e8d9bf515a9ba6932e1c20cbc9f5a5d134645adb5db1b9737ea3"),
        ])
    func sha256(text: String, digest: String) {
        #expect(SHA256.hex(text) == digest)
    }
}
