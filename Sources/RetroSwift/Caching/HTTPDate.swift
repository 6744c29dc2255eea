import Foundation

/// HTTP dates (RFC 9110 §5.6.7): `Date`, `Expires` and `Last-Modified` for the cache, `Retry-After` for retries.
enum HTTPDate {
    /// The date `value` spells, in any of the three formats recipients must accept: IMF-fixdate
    /// (`Sun, 06 Nov 1994 08:49:37 GMT`), the obsolete RFC 850 form and asctime; `nil` for anything else.
    ///
    /// - Parameters:
    ///   - value: A field value, untrusted.
    ///   - now: The current time, which places RFC 850's two-digit years.
    static func parse(_ value: String, now: Date) -> Date? {
        let value = value.trimmingCharacters(in: .whitespaces)
        if let date = parseFixdate(value) { return date }
        // HTTP dates are printable ASCII. Anything else never reaches DateFormatter, which traps on some combining
        // marks (`T` followed by U+0334) in swift-corelibs-foundation: a server must not be able to crash the client.
        guard value.utf8.count <= 256, value.utf8.allSatisfy({ $0 >= 0x20 && $0 < 0x7F }) else { return nil }
        let collapsed = value.split(separator: " ", omittingEmptySubsequences: true).joined(separator: " ")
        for format in ["EEE, dd MMM yyyy HH:mm:ss zzz", "EEEE, dd-MMM-yy HH:mm:ss zzz", "EEE MMM d HH:mm:ss yyyy"] {
            let formatter = DateFormatter()
            formatter.locale = Locale(identifier: "en_US_POSIX")
            formatter.timeZone = TimeZone(identifier: "GMT")
            formatter.dateFormat = format
            if format.hasPrefix("EEEE") {
                // RFC 850's two-digit year: RFC 9110 reads one more than 50 years ahead as the past century.
                formatter.twoDigitStartDate = now.addingTimeInterval(-50 * 365.25 * 86_400)
            }
            if let date = formatter.date(from: collapsed) { return date }
        }
        return nil
    }

    /// IMF-fixdate, the form every current server sends, read without a formatter: a cache reads two or three dates
    /// per response it stores.
    private static func parseFixdate(_ value: String) -> Date? {
        let bytes = Array(value.utf8)
        // "Sun, 06 Nov 1994 08:49:37 GMT"
        guard bytes.count == 29, bytes[3] == UInt8(ascii: ","), bytes[4] == 0x20, bytes[7] == 0x20, bytes[11] == 0x20,
            bytes[16] == 0x20, bytes[19] == UInt8(ascii: ":"), bytes[22] == UInt8(ascii: ":"), bytes[25] == 0x20,
            bytes[26...] == [UInt8(ascii: "G"), UInt8(ascii: "M"), UInt8(ascii: "T")],
            let day = number(bytes[5..<7]), let year = number(bytes[12..<16]), let hour = number(bytes[17..<19]),
            let minute = number(bytes[20..<22]), let second = number(bytes[23..<25]),
            let month = months.firstIndex(of: String(decoding: bytes[8..<11], as: UTF8.self)),
            (1...31).contains(day), hour < 24, minute < 60, second <= 60
        else { return nil }
        let days = daysFromCivil(year: year, month: month + 1, day: day)
        return Date(timeIntervalSince1970: TimeInterval(days * 86_400 + hour * 3600 + minute * 60 + second))
    }

    private static let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]

    private static func number(_ digits: ArraySlice<UInt8>) -> Int? {
        var result = 0
        for digit in digits {
            guard (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(digit) else { return nil }
            result = result * 10 + Int(digit - UInt8(ascii: "0"))
        }
        return result
    }

    /// Days since 1970-01-01 of a proleptic Gregorian date (Howard Hinnant's `days_from_civil`).
    private static func daysFromCivil(year: Int, month: Int, day: Int) -> Int {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yearOfEra = y - era * 400
        let dayOfYear = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }
}
