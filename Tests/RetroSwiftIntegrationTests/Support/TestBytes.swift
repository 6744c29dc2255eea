import Foundation

/// Test bodies whose bytes say where they are, so a dropped, repeated or reordered chunk changes the content.
enum TestBytes {
    /// The cycle the bytes repeat: a prime length, so no chunk size a transport picks (powers of two, mostly) lines a
    /// shifted chunk up with the cycle.
    private static let cycleLength = 65_521

    /// `count` bytes of a fixed pseudo-random pattern; `seed` gives another one.
    ///
    /// Only one cycle is computed byte by byte; the rest is copied. Megabytes made byte by byte in a closure take tens
    /// of seconds under the thread sanitizer and hold a thread of the shared concurrency pool all along: two such
    /// tests at once starved every other test of the run.
    static func pattern(_ count: Int, seed: Int = 0) -> Data {
        let cycle = Data((0..<min(count, cycleLength)).map { UInt8(truncatingIfNeeded: (($0 &+ seed) &* 2_654_435_761) >> 7) })
        var bytes = Data(capacity: count)
        while bytes.count < count { bytes.append(cycle.prefix(count - bytes.count)) }
        return bytes
    }
}
