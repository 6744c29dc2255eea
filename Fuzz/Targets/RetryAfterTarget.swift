// Target for `Retry-After` parsing (`RetryInterceptor.retryAfter`, Sources/RetroSwift/Sending/Interceptors/RetryInterceptor.swift):
// delay-seconds or an HTTP date in any of its three formats, measured against a fixed clock.
//
// Invariants, for any header value:
// - the delay is nil, or finite and not negative;
// - a value of ASCII digits only (delay-seconds) always gives a delay, the number it spells (at most the largest finite);
// - for an ASCII value, spaces and tabs around it change nothing (they are optional whitespace in HTTP).

import Foundation

enum FuzzRetryAfter {
    /// 2024-11-19T07:06:40Z; RFC 850 two-digit years are read against it too.
    static let now = Date(timeIntervalSince1970: 1_732_000_000)
    static let interceptor = RetryInterceptor(now: { now })

    static func run(_ bytes: [UInt8]) {
        let value = String(decoding: bytes, as: UTF8.self)
        let delay = delay(value)
        let shown = value.debugDescription
        if let delay {
            fuzzCheck(delay.isFinite && delay >= 0, "retry-after: \(shown) gives a delay of \(delay)")
        }
        if !bytes.isEmpty, bytes.allSatisfy({ (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }) {
            // Hundreds of digits spell infinity, read as the largest finite delay.
            let spelled = Double(value).map { min($0, .greatestFiniteMagnitude) }
            fuzzCheck(delay != nil && delay == spelled, "retry-after: delay-seconds \(shown) gives \(delay.debugDescription)")
        }
        if bytes.allSatisfy({ $0 < 0x80 }) {
            let padded = self.delay(" \t" + value + "\t ")
            fuzzCheck(
                padded == delay, "retry-after: \(shown) gives \(delay.debugDescription), with spaces around \(padded.debugDescription)")
        }
    }

    static func delay(_ value: String) -> TimeInterval? {
        interceptor.retryAfter(HttpOperationResult(statusCode: 503, headers: ["Retry-After": value]))
    }
}
