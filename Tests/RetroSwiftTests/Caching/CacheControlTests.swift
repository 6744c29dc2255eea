import Foundation
import Testing

@testable import RetroSwift

/// The field parsers the cache reads untrusted responses with: `Cache-Control` and HTTP dates.
@Suite("Cache-Control and HTTP dates are read as RFC 9111 and RFC 9110 say, whatever the server sends")
struct CacheControlTests {
    @Test("directives in any case, with token and quoted values, a comma inside quotes kept")
    func directives() {
        // Given
        let field = #"Public, MAX-AGE=60, no-cache="Set-Cookie, X-Foo", must-revalidate , stale-while-revalidate = 30"#

        // When
        let control = CacheControl(field)

        // Then
        #expect(control.isPublic && control.noCache && control.mustRevalidate)
        #expect(control.maxAge == 60 && control.staleWhileRevalidate == 30)
        #expect(!control.noStore && !control.isPrivate)
        #expect(
            CacheControl.directives(in: field).map(\.name) == [
                "public", "max-age", "no-cache", "must-revalidate", "stale-while-revalidate",
            ])
    }

    @Test(
        "a max-age that is no number, or that repeats with another value, is 0; a huge one is 2^31",
        arguments: [
            ("max-age=abc", 0), ("max-age=-5", 0), ("max-age=", 0), ("max-age=60, max-age=120", 0), ("max-age=60, max-age=60", 60),
            ("max-age=99999999999999999999999", 2_147_483_648), (#"max-age="60""#, 60),
        ])
    func maxAge(field: String, expected: Int) {
        #expect(CacheControl(field).maxAge == expected)
    }

    @Test("max-stale without a value accepts any staleness; unknown directives are ignored")
    func maxStale() {
        #expect(CacheControl("max-stale").maxStale == Int.max)
        #expect(CacheControl("max-stale=5, x-unknown=\"a,b\", only-if-cached").maxStale == 5)
        #expect(CacheControl("x-unknown=\"a,b\", only-if-cached").onlyIfCached)
    }

    @Test("hostile fields end in bounded time without a wrong directive: an open quote, 20,000 commas, a long name")
    func hostile() {
        #expect(CacheControl(#"no-cache="unterminated, max-age=60"#).maxAge == nil)
        #expect(CacheControl(String(repeating: ",", count: 20_000) + "max-age=5").maxAge == 5)
        #expect(CacheControl(String(repeating: "a", count: 100_000) + "=1").maxAge == nil)
        #expect(CacheControl(#"no-store="\"#).noStore)
    }

    @Test("IMF-fixdate read by hand agrees with the obsolete forms read by DateFormatter")
    func httpDates() throws {
        // Given
        let now = Date(timeIntervalSince1970: 1_790_000_000)
        let expected = Date(timeIntervalSince1970: 784_111_777)

        // Then: RFC 9110 §5.6.7's three spellings of one instant
        #expect(HTTPDate.parse("Sun, 06 Nov 1994 08:49:37 GMT", now: now) == expected)
        #expect(HTTPDate.parse("Sunday, 06-Nov-94 08:49:37 GMT", now: now) == expected)
        #expect(HTTPDate.parse("Sun Nov  6 08:49:37 1994", now: now) == expected)
        #expect(HTTPDate.parse("Tue, 29 Feb 2028 23:59:59 GMT", now: now) == Date(timeIntervalSince1970: 1_835_481_599))
    }

    @Test(
        "what is no date is nil: 0, -1, a wrong month, an hour of 24, non-ASCII",
        arguments: [
            "0", "-1", "", "Sun, 06 Foo 1994 08:49:37 GMT", "Sun, 06 Nov 1994 24:00:00 GMT",
            "Sun, 06 Nov 1994 08:49:37 GMT\u{334}", String(repeating: "9", count: 1_000),
        ])
    func notDates(value: String) {
        #expect(HTTPDate.parse(value, now: Date()) == nil)
    }
}
