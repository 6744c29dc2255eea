// Target for the fields the HTTP cache reads from responses (Sources/RetroSwift/Caching): `Cache-Control`
// (`CacheControl`), HTTP dates (`HTTPDate.parse`, also behind `Retry-After`), and the freshness a stored entry
// computes from `Cache-Control`, `Expires`, `Date`, `Age` and `Last-Modified` together.
//
// Invariants, for any field value:
// - every delta-seconds directive is nil or within 0...2^31 (`max-stale` alone may be unbounded);
// - commas and whitespace around the list change nothing, and reading it twice gives the same directives;
// - a date is nil or a finite instant, and spaces and tabs around an ASCII value change nothing;
// - an entry built from the value in every freshness field has a finite freshness lifetime and age, neither
//   negative, and never a lifetime over 2^31 seconds from `max-age`.

import Foundation

enum FuzzCacheFields {
    static let now = Date(timeIntervalSince1970: 1_732_000_000)

    static func run(_ bytes: [UInt8]) {
        let value = String(decoding: bytes, as: UTF8.self)
        let shown = value.debugDescription
        let control = CacheControl(value)
        for (name, seconds) in [("max-age", control.maxAge), ("min-fresh", control.minFresh), ("swr", control.staleWhileRevalidate)] {
            if let seconds {
                fuzzCheck((0...CacheControl.deltaSecondsCap).contains(seconds), "cache-control: \(shown) gives \(name) \(seconds)")
            }
        }
        if let maxStale = control.maxStale {
            fuzzCheck(maxStale >= 0, "cache-control: \(shown) gives max-stale \(maxStale)")
        }
        fuzzCheck(CacheControl(value) == control, "cache-control: \(shown) read twice differs")
        fuzzCheck(CacheControl(" ,\t" + value + ", ") == control, "cache-control: \(shown) differs with commas and spaces around it")

        let date = HTTPDate.parse(value, now: now)
        if let date { fuzzCheck(date.timeIntervalSince1970.isFinite, "http-date: \(shown) gives \(date)") }
        if bytes.allSatisfy({ $0 < 0x80 }) {
            fuzzCheck(HTTPDate.parse(" \t" + value + "\t ", now: now) == date, "http-date: \(shown) differs with spaces around it")
        }

        let fields: [String: String] = [
            "Cache-Control": value, "Expires": value, "Date": value, "Age": value, "Last-Modified": value, "ETag": value,
        ]
        let response = HttpOperationResult(statusCode: 200, headers: HTTPHeaderFields(fields), body: Data(bytes.prefix(64)))
        let request = HttpRequestParams(
            method: .get, encodedPath: "/", encodedQuery: nil, queryItems: [], headers: [], payload: nil, timeout: nil,
            responseDestination: .memory, endpoint: EndpointIdentity(domain: "Fuzz", name: "cache", method: .get, template: "/"))
        for heuristics in [false, true] {
            let entry = CacheEntry(
                response, for: CacheStore.Requester(request.headerFields), requestTime: now, responseTime: now.addingTimeInterval(1),
                heuristics: heuristics)
            let age = entry.age(at: now.addingTimeInterval(10))
            fuzzCheck(
                entry.freshnessLifetime.isFinite && entry.freshnessLifetime >= 0 && age.isFinite && age >= 0,
                "cache entry: \(shown) gives a lifetime of \(entry.freshnessLifetime) s and an age of \(age) s")
            if control.maxAge != nil {
                fuzzCheck(
                    entry.freshnessLifetime <= Double(CacheControl.deltaSecondsCap),
                    "cache entry: \(shown) gives a lifetime of \(entry.freshnessLifetime) s from max-age")
            }
        }
    }
}
