import Foundation

/// What a disk store writes for an entry besides its body: a small property list read back at start-up, so the
/// index is rebuilt without reading a single body.
struct CacheEntryHead: Codable, Sendable {
    /// Heads of another version are dropped, not misread.
    static let currentVersion = 1

    struct Varied: Codable, Sendable {
        var name: String
        var value: String?
    }

    var version: Int
    var key: String
    var statusCode: Int
    var fields: [[String]]
    var url: String?
    var varied: [Varied]
    var credential: String?
    var freshnessLifetime: Double
    var initialAge: Double
    var responseTime: Date
    var bodyCount: Int
}
