import Foundation

/// How a `Date` goes on the wire by default, everywhere: whole milliseconds since 1970, rounded to the nearest
/// (halves away from zero), so a `Date` with sub-millisecond precision never sends a fraction that a Java or
/// Kotlin server reading a `Long` would refuse.
enum EpochMilliseconds {
    /// `date` in whole milliseconds since 1970.
    static func of(_ date: Date) -> Int64 {
        Int64((date.timeIntervalSince1970 * 1000).rounded())
    }

    /// The default `@JsonBody` date strategy: ``of(_:)`` as a JSON integer.
    static let encodingStrategy = JSONEncoder.DateEncodingStrategy.custom { date, encoder in
        var container = encoder.singleValueContainer()
        try container.encode(of(date))
    }
}
