import Foundation

/// A private HTTP cache that follows RFC 9111, kept by RetroSwift itself, so that it behaves the same on every
/// transport: set one as a domain's ``Domain/httpCache``.
///
/// ```swift
/// let api = SchedulesApi(transport: URLSessionTransport())
/// api.httpCache = HTTPCache(maxBytes: 20 * 1024 * 1024)
/// ```
///
/// What it does, for `GET` calls whose body is read into memory:
/// - A fresh stored response (by `Cache-Control: max-age`, else `Expires` against `Date`, less its `Age`) answers
///   the call without the network, with an `Age` field and ``ResponseSource/cache`` as its source.
/// - A stale one with an `ETag` or `Last-Modified` is revalidated with `If-None-Match` / `If-Modified-Since`; a
///   `304 Not Modified` answers the call with the stored body and the fields the `304` brought
///   (``ResponseSource/revalidatedCache``). `no-cache` on either side, and ``CacheMode/revalidate``, revalidate
///   every time; `must-revalidate` forbids serving it stale.
/// - `no-store` on either side keeps a response out; so does `Vary: *`. An entry answers only requests with the same
///   values of the fields its `Vary` names, and the same `Authorization` unless the response is `public`.
/// - The request's own `Cache-Control` is honoured: `max-age`, `min-fresh`, `max-stale`, `only-if-cached` (a `504`
///   when nothing stored answers it), `no-cache`, `no-store`; `Pragma: no-cache` when it has none.
/// - A `POST`, `PUT`, `PATCH` or `DELETE` answered with a `2xx` or `3xx` removes what is stored for its URL, and for
///   its `Location` and `Content-Location` on the same origin.
/// - Each redirect hop is cached on its own, so a cached `301` is followed without asking the server again.
///
/// Streamed responses and downloads to a file pass by the cache; so do requests that carry their own conditional
/// fields (`If-None-Match`, `If-Modified-Since`, …) or a `Range`. Heuristic freshness (a tenth of the time since
/// `Last-Modified`, at most a day) is off unless asked for: without it, a response without explicit freshness is
/// revalidated on every use. Interceptors run for every call, answered from the cache or not: a cached answer goes
/// back through retries and logging like any other.
///
/// The responses are held in memory for the life of the process, or on disk across launches
/// (``init(directory:maxBytes:servesStaleWhileRevalidating:usesHeuristicFreshness:now:)``), up to `maxBytes`
/// (fields and bodies counted), the least recently used leaving first. One cache may serve any number of domains
/// and calls at once.
public final class HTTPCache: Sendable {
    /// The most bytes the stored responses may take, fields and bodies together.
    let maxBytes: Int
    /// The directory a disk cache keeps its responses in; `nil` for a cache in memory.
    var directory: URL? { files?.directory }
    /// Whether a stale response within its `stale-while-revalidate` window (RFC 5861) answers the call at once while
    /// the cache revalidates it in the background. Off by default: every stale response is revalidated first.
    let servesStaleWhileRevalidating: Bool
    /// Whether a response without `max-age` or `Expires` but with `Last-Modified` counts as fresh for a tenth of the
    /// time since it last changed, at most a day (RFC 9111 §4.2.2). Off by default.
    let usesHeuristicFreshness: Bool

    let now: @Sendable () -> Date
    let store: Locked<CacheStore>
    private let files: CacheFiles?
    /// URLs being revalidated in the background, so a burst of calls starts one revalidation, not one each.
    let revalidating = Locked<Set<String>>([])

    /// Creates an empty cache in memory, for the life of the process.
    ///
    /// - Parameters:
    ///   - maxBytes: The most bytes the stored responses may take; 10 MiB by default. A response larger than this is
    ///     not stored.
    ///   - servesStaleWhileRevalidating: Whether `stale-while-revalidate` is honoured; see
    ///     `servesStaleWhileRevalidating`.
    ///   - usesHeuristicFreshness: Whether heuristic freshness is used; see this type's overview.
    ///   - now: The clock against which ages and freshness are measured; tests pass one they move themselves.
    public convenience init(
        maxBytes: Int = 10 * 1024 * 1024, servesStaleWhileRevalidating: Bool = false, usesHeuristicFreshness: Bool = false,
        now: @escaping @Sendable () -> Date = { Date() }
    ) {
        self.init(
            index: CacheStore(maxBytes: maxBytes), files: nil, servesStaleWhileRevalidating: servesStaleWhileRevalidating,
            usesHeuristicFreshness: usesHeuristicFreshness, now: now)
    }

    /// Opens a cache on disk, which keeps its responses across launches: what an earlier process stored in
    /// `directory` answers calls again, and entries whose files are broken or incomplete are deleted.
    ///
    /// Give each cache a directory of its own (inside `cachesDirectory`, for example), and open it once per process.
    /// The cache writes a body file and a small head file per response; an entry kept under credentials records only
    /// the SHA-256 of the `Authorization` value, never the value. The index (fields and times, no bodies) is read into
    /// memory when the cache opens; bodies are read when they answer a call.
    ///
    /// - Parameters:
    ///   - directory: The cache's own directory, created if missing.
    ///   - maxBytes: The most bytes the stored responses may take on disk; 50 MiB by default. When a smaller limit
    ///     meets a directory that holds more, the least recently stored entries are deleted.
    ///   - servesStaleWhileRevalidating: Whether `stale-while-revalidate` is honoured; see
    ///     `servesStaleWhileRevalidating`.
    ///   - usesHeuristicFreshness: Whether heuristic freshness is used; see this type's overview.
    ///   - now: The clock against which ages and freshness are measured.
    /// - Throws: The file system's error when the directory cannot be created.
    public convenience init(
        directory: URL, maxBytes: Int = 50 * 1024 * 1024, servesStaleWhileRevalidating: Bool = false,
        usesHeuristicFreshness: Bool = false, now: @escaping @Sendable () -> Date = { Date() }
    ) throws {
        let files = try CacheFiles(directory: directory)
        var index = CacheStore(maxBytes: maxBytes)
        var evicted: [String] = []
        for (key, entry, name) in files.load() { evicted += index.restore(entry, file: name, for: key) }
        files.delete(evicted)
        self.init(
            index: index, files: files, servesStaleWhileRevalidating: servesStaleWhileRevalidating,
            usesHeuristicFreshness: usesHeuristicFreshness, now: now)
    }

    /// The one initializer behind the public ones, which differ in where the responses are kept.
    private init(
        index: CacheStore, files: CacheFiles?, servesStaleWhileRevalidating: Bool, usesHeuristicFreshness: Bool,
        now: @escaping @Sendable () -> Date
    ) {
        maxBytes = index.maxBytes
        self.files = files
        self.servesStaleWhileRevalidating = servesStaleWhileRevalidating
        self.usesHeuristicFreshness = usesHeuristicFreshness
        self.now = now
        store = Locked(index)
    }

    /// The bytes the stored responses take now.
    public var byteCount: Int {
        store.withLock { $0.byteCount }
    }

    /// The number of responses stored now (each variant of a URL counts).
    public var count: Int {
        store.withLock { $0.count }
    }

    /// Removes every response stored for `url`, every variant of it.
    ///
    /// - Parameter url: The absolute URL of the call, query included, as it was sent.
    public func removeResponses(for url: URL) {
        removeAll(for: Self.key(for: url))
    }

    /// Removes every stored response: when the user signs out, for instance.
    public func removeAll() {
        let removed = store.withLock { $0.removeAll() }
        files?.delete(removed)
    }

    /// The key a URL's responses are kept by: the absolute URL without a fragment.
    static func key(for url: URL) -> String {
        let text = url.absoluteString
        guard let hash = text.firstIndex(of: "#") else { return text }
        return String(text[..<hash])
    }

    // MARK: - The store's operations, file work outside the lock

    /// The entry for `key` that answers `requester`, with its body; an entry whose body file is gone is dropped.
    func entry(for key: String, answering requester: CacheStore.Requester) -> CacheEntry? {
        withBody(key: key) { store.withLock { $0.entry(for: key, answering: requester) } }
    }

    /// Stores `entry` for `key` in place of what `requester` selected.
    func save(_ entry: CacheEntry, for key: String, replacing requester: CacheStore.Requester) {
        var file: String?
        if let files {
            guard let written = files.write(entry, key: key) else { return remove(key, answering: requester) }
            file = written
        }
        let indexed = files == nil ? entry : entry.withoutBody()
        let removed = store.withLock { $0.store(indexed, file: file, for: key, replacing: requester) }
        files?.delete(removed)
    }

    /// Applies `update` to the entry for `key` that `requester` selects; returns it, with its body, when it changed.
    func update(
        _ key: String, answering requester: CacheStore.Requester, _ update: (inout CacheEntry) -> Bool
    ) -> CacheEntry? {
        withBody(key: key) {
            guard let stored = store.withLock({ $0.update(key, answering: requester, update) }) else { return nil }
            if let file = stored.file { files?.rewriteHead(of: stored.entry, key: key, name: file) }
            return stored
        }
    }

    /// Removes the entry for `key` that `requester` selects.
    func remove(_ key: String, answering requester: CacheStore.Requester) {
        let removed = store.withLock { $0.remove(key, answering: requester) }
        files?.delete(removed)
    }

    /// Removes every entry for `key`.
    func removeAll(for key: String) {
        let removed = store.withLock { $0.removeAll(for: key) }
        files?.delete(removed)
    }

    /// What `lookup` finds, with its body read from disk. A body can go between the lookup and the read: another
    /// call stored a newer response for the same request and deleted the files of the one it replaced. The lookup
    /// is then made again, against the newer entry, so that concurrent calls for one URL do not see a miss (and send
    /// a second request) that no one caused; an entry whose own body is gone is dropped.
    func withBody(key: String, _ lookup: () -> CacheStore.Stored?) -> CacheEntry? {
        for _ in 0..<Self.replacedLookups {
            guard let stored = lookup() else { return nil }
            guard let file = stored.file, let files else { return stored.entry }
            if let body = files.body(of: file, count: stored.entry.bodyCount) { return stored.entry.with(body: body) }
            let wasStillStored = store.withLock { $0.remove(key, file: file) }
            files.delete([file])
            if wasStillStored { return nil }
        }
        return nil
    }

    /// How many times a lookup is made again when each one's entry was replaced before its body could be read:
    /// bounded, since a URL written to without pause could otherwise keep a reader looping.
    private static let replacedLookups = 4
}
