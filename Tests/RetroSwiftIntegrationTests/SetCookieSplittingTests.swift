import Foundation
import Testing

@testable import RetroSwiftURLSession

/// URLSession joins repeated `Set-Cookie` fields with `, `; the transport splits them back. The joined text comes from
/// a server, so the splitter gets a property test over generated cookies, attributes and dates.
@Suite("Set-Cookie values joined by URLSession split back exactly")
struct SetCookieSplittingTests {
    private struct SeededGenerator: RandomNumberGenerator {
        var state: UInt64

        mutating func next() -> UInt64 {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return state
        }
    }

    private static let nameCharacters = Array("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-.!#$%&'*+^`|~")
    // cookie-octet (RFC 6265 §4.1.1): no space, DQUOTE, comma, semicolon or backslash.
    private static let valueCharacters = Array("abcdefghijklmnopqrstuvwxyz0123456789!#$%&'()*+-./:<=>?@[]^_`{|}~")

    private static func cookie(_ random: inout SeededGenerator) -> String {
        let name = String((0..<Int.random(in: 1...8, using: &random)).map { _ in nameCharacters.randomElement(using: &random)! })
        let value = String((0..<Int.random(in: 0...12, using: &random)).map { _ in valueCharacters.randomElement(using: &random)! })
        let attributes = [
            "Expires=\(["Mon", "Tue", "Wed"].randomElement(using: &random)!), 0\(Int.random(in: 1...9, using: &random)) Oct 2015 07:28:00 GMT",
            "Max-Age=\(Int.random(in: 0...99_999, using: &random))", "Path=/a/b", "Domain=example.com", "Secure", "HttpOnly",
            "SameSite=Lax",
        ]
        let chosen = attributes.filter { _ in Bool.random(using: &random) }
        return ([name + "=" + value] + chosen).joined(separator: "; ")
    }

    @Test("any list of cookies, joined with commas, splits into exactly that list", arguments: 0..<200)
    func roundTrip(seed: UInt64) {
        // Given
        var random = SeededGenerator(state: seed)
        let cookies = (0..<Int.random(in: 1...5, using: &random)).map { _ in Self.cookie(&random) }

        // When
        let split = SessionTaskRunner.splitSetCookie(cookies.joined(separator: ", "))

        // Then
        #expect(split == cookies)
    }

    @Test(
        "a single cookie, with or without a date, is one value",
        arguments: [
            "a=1", "a=", "id=a3fWa; Expires=Wed, 21 Oct 2015 07:28:00 GMT", "n=v; Path=/; Secure",
        ])
    func single(cookie: String) {
        #expect(SessionTaskRunner.splitSetCookie(cookie) == [cookie])
    }
}
