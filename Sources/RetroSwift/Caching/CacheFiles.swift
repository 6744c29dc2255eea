import Foundation

/// The files of a disk ``HTTPCache``: for each entry a body file and a head file (a binary property list of
/// ``CacheEntryHead``), named by a random identifier, in the cache's own directory.
///
/// The body is written before the head, each atomically, so an entry whose head exists has its whole body; a head
/// without its body, a body without its head, or a head that does not decode is dropped when the cache opens.
struct CacheFiles: Sendable {
    let directory: URL

    /// Opens `directory`, creating it if needed.
    init(directory: URL) throws {
        self.directory = directory
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    }

    /// Writes `entry`'s body and head; returns the name of its files, or `nil` when they could not be written (a
    /// full disk): the response is then simply not stored.
    func write(_ entry: CacheEntry, key: String) -> String? {
        let name = UUID().uuidString.lowercased()
        do {
            try entry.body.write(to: url(name, Self.bodyExtension), options: .atomic)
            try Self.encoder().encode(entry.head(key: key)).write(to: url(name, Self.headExtension), options: .atomic)
            return name
        } catch {
            delete([name])
            return nil
        }
    }

    /// Writes `entry`'s head again, after a `304` freshened it.
    func rewriteHead(of entry: CacheEntry, key: String, name: String) {
        guard FileManager.default.fileExists(atPath: url(name, Self.bodyExtension).path),
            let head = try? Self.encoder().encode(entry.head(key: key))
        else { return }
        try? head.write(to: url(name, Self.headExtension), options: .atomic)
    }

    /// The body in file `name`, or `nil` when it is gone or not the size its head says.
    func body(of name: String, count: Int) -> Data? {
        guard let data = try? Data(contentsOf: url(name, Self.bodyExtension)), data.count == count else { return nil }
        return data
    }

    /// Deletes the files of the entries `names`.
    func delete(_ names: [String]) {
        for name in names {
            try? FileManager.default.removeItem(at: url(name, Self.headExtension))
            try? FileManager.default.removeItem(at: url(name, Self.bodyExtension))
        }
    }

    /// Every entry the directory holds, oldest first, without bodies; deletes the files of broken ones.
    func load() -> [(key: String, entry: CacheEntry, name: String)] {
        let contents = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
        let heads = Set(
            contents.filter { $0.hasSuffix("." + Self.headExtension) }.map { String($0.dropLast(Self.headExtension.count + 1)) })
        let bodies = Set(
            contents.filter { $0.hasSuffix("." + Self.bodyExtension) }.map { String($0.dropLast(Self.bodyExtension.count + 1)) })
        delete(Array(bodies.subtracting(heads)))
        var loaded: [(key: String, entry: CacheEntry, name: String)] = []
        for name in heads {
            let bodySize = (try? FileManager.default.attributesOfItem(atPath: url(name, Self.bodyExtension).path))?[.size] as? Int
            guard let data = try? Data(contentsOf: url(name, Self.headExtension)),
                let head = try? PropertyListDecoder().decode(CacheEntryHead.self, from: data),
                let entry = CacheEntry(restoring: head), bodySize == head.bodyCount
            else {
                delete([name])
                continue
            }
            loaded.append((head.key, entry, name))
        }
        return loaded.sorted { $0.entry.responseTime < $1.entry.responseTime }
    }

    private func url(_ name: String, _ fileExtension: String) -> URL {
        directory.appendingPathComponent(name + "." + fileExtension)
    }

    private static func encoder() -> PropertyListEncoder {
        let encoder = PropertyListEncoder()
        encoder.outputFormat = .binary
        return encoder
    }

    private static let headExtension = "head"
    private static let bodyExtension = "body"
}
