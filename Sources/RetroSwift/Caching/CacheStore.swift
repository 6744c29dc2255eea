import Foundation

/// The index of one ``HTTPCache``: its entries by URL, bounded by bytes, least recently used first out. In memory
/// the entries hold their bodies; for a disk store they hold the name of the files their bodies are in, and every
/// method that removes entries returns those names for the caller to delete outside the lock.
///
/// Each URL holds its variants (other `Vary` values, other credentials). Eviction looks for the least recently used
/// entry with a scan, linear in the number of entries: it runs only when the store is full, and a cache of a few
/// thousand responses scans in microseconds.
struct CacheStore: Sendable {
    let maxBytes: Int
    private(set) var byteCount = 0
    private var entries: [String: [Stored]] = [:]
    private var clock: UInt64 = 0

    struct Stored: Sendable {
        var entry: CacheEntry
        var lastUse: UInt64
        /// The name of its files in a disk store; `nil` in memory.
        var file: String?
    }

    /// Who a request is, for selecting variants: its fields and the digest of its credentials.
    struct Requester {
        let fields: [HTTPHeader]
        let credential: String?

        init(_ fields: [HTTPHeader]) {
            self.fields = fields
            credential = CacheEntry.credential(in: fields)
        }
    }

    init(maxBytes: Int) {
        self.maxBytes = max(0, maxBytes)
    }

    /// The number of stored responses.
    var count: Int {
        entries.values.reduce(0) { $0 + $1.count }
    }

    /// The most recently stored entry for `key` that answers `requester`, marked as used.
    mutating func entry(for key: String, answering requester: Requester) -> Stored? {
        guard let index = index(of: key, answering: requester) else { return nil }
        clock += 1
        entries[key]?[index].lastUse = clock
        return entries[key]?[index]
    }

    /// Stores `entry` for `key` (its body in `file`, for a disk store), replacing the variant `requester` selected,
    /// then evicts until the store fits. Returns the files of what left, `file` itself when the entry does not fit.
    mutating func store(_ entry: CacheEntry, file: String?, for key: String, replacing requester: Requester) -> [String] {
        remove(key, answering: requester) + insert(entry, file: file, for: key)
    }

    /// Adds `entry`, read back from `file` at start-up, beside what is there; returns the files of what left to fit.
    mutating func restore(_ entry: CacheEntry, file: String, for key: String) -> [String] {
        insert(entry, file: file, for: key)
    }

    /// Adds `entry` as the most recently used, then evicts until the store fits; returns the files of what left,
    /// `file` itself when the entry does not fit.
    private mutating func insert(_ entry: CacheEntry, file: String?, for key: String) -> [String] {
        guard entry.byteCount <= maxBytes else { return [file].compactMap { $0 } }
        clock += 1
        entries[key, default: []].append(Stored(entry: entry, lastUse: clock, file: file))
        byteCount += entry.byteCount
        var removed: [String] = []
        while byteCount > maxBytes, let evicted = evictLeastRecentlyUsed() { removed += [evicted].compactMap { $0 } }
        return removed
    }

    /// Replaces the variant of `key` that `requester` selects with `update(entry)`, when it is still there and
    /// `update` says it changed it; returns what is stored now.
    mutating func update(_ key: String, answering requester: Requester, _ update: (inout CacheEntry) -> Bool) -> Stored? {
        guard let index = index(of: key, answering: requester), var stored = entries[key]?[index], update(&stored.entry) else {
            return nil
        }
        byteCount += stored.entry.byteCount - (entries[key]?[index].entry.byteCount ?? 0)
        clock += 1
        stored.lastUse = clock
        entries[key]?[index] = stored
        return stored
    }

    /// Removes the variant of `key` that `requester` selects; returns its file.
    mutating func remove(_ key: String, answering requester: Requester) -> [String] {
        guard let index = index(of: key, answering: requester) else { return [] }
        return [removeEntry(key, at: index)?.file].compactMap { $0 }
    }

    /// Removes exactly `file`'s entry, if it is still there: one whose body could not be read back. Returns whether
    /// it was there; when it was not, another call replaced it meanwhile.
    @discardableResult
    mutating func remove(_ key: String, file: String) -> Bool {
        guard let index = entries[key]?.firstIndex(where: { $0.file == file }) else { return false }
        removeEntry(key, at: index)
        return true
    }

    /// Removes every variant stored for `key`; returns their files.
    mutating func removeAll(for key: String) -> [String] {
        guard let removed = entries.removeValue(forKey: key) else { return [] }
        byteCount -= removed.reduce(0) { $0 + $1.entry.byteCount }
        return removed.compactMap(\.file)
    }

    /// Removes everything; returns the files.
    mutating func removeAll() -> [String] {
        let files = entries.values.flatMap { $0.compactMap(\.file) }
        entries = [:]
        byteCount = 0
        return files
    }

    private func index(of key: String, answering requester: Requester) -> Int? {
        entries[key]?.lastIndex { $0.entry.matches(requester.fields, credential: requester.credential) }
    }

    /// Evicts the least recently used entry; returns its file (`.some(nil)` in memory), `nil` when empty.
    private mutating func evictLeastRecentlyUsed() -> String?? {
        var oldest: (key: String, index: Int, lastUse: UInt64)?
        for (key, variants) in entries {
            for (index, stored) in variants.enumerated() where stored.lastUse < oldest?.lastUse ?? .max {
                oldest = (key, index, stored.lastUse)
            }
        }
        guard let oldest, let stored = removeEntry(oldest.key, at: oldest.index) else { return nil }
        return .some(stored.file)
    }

    /// Removes the variant at `index` of `key` (an index the caller just found), keeping the byte count and dropping
    /// an empty key.
    @discardableResult
    private mutating func removeEntry(_ key: String, at index: Int) -> Stored? {
        guard let stored = entries[key]?.remove(at: index) else { return nil }
        if entries[key]?.isEmpty == true { entries[key] = nil }
        byteCount -= stored.entry.byteCount
        return stored
    }
}
