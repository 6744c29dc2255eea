import Foundation

/// How a `Date` goes on the wire by default, everywhere: whole milliseconds since 1970, rounded to the nearest
/// (halves away from zero), so a `Date` with sub-millisecond precision never sends a fraction that a Java or
/// Kotlin server reading a `Long` would refuse.
enum EpochMilliseconds {
    /// A date whose milliseconds since 1970 are not a 64-bit integer: NaN, infinite, or more than about 292 million
    /// years from 1970.
    struct OutOfRange: Error {
        let date: Date

        /// Why the date cannot be sent, for the error that names the field.
        var reason: String {
            let seconds = date.timeIntervalSince1970
            let value = seconds.isNaN ? "NaN" : seconds.isInfinite ? (seconds < 0 ? "-infinity" : "infinity") : "\(seconds)"
            return "the date \(value) seconds since 1970 cannot be sent: its milliseconds since 1970 must fit a 64-bit "
                + "integer (about 292 million years either side of 1970)"
        }
    }

    /// `date` in whole milliseconds since 1970.
    ///
    /// - Throws: ``OutOfRange`` when the milliseconds are NaN, infinite or outside `Int64`.
    static func of(_ date: Date) throws(OutOfRange) -> Int64 {
        let milliseconds = (date.timeIntervalSince1970 * 1000).rounded()
        // `Int64(exactly:)` is `nil` for NaN, the infinities and anything outside the range: the conversion never traps.
        guard let whole = Int64(exactly: milliseconds) else { throw OutOfRange(date: date) }
        return whole
    }

    /// The default `@JsonBody` date strategy: ``of(_:)`` as a JSON integer; a date out of range is an `EncodingError`.
    static let encodingStrategy = JSONEncoder.DateEncodingStrategy.custom { date, encoder in
        let milliseconds: Int64
        do throws(OutOfRange) {
            milliseconds = try of(date)
        } catch {
            throw EncodingError.invalidValue(
                date, EncodingError.Context(codingPath: encoder.codingPath, debugDescription: error.reason))
        }
        var container = encoder.singleValueContainer()
        try container.encode(milliseconds)
    }
}
