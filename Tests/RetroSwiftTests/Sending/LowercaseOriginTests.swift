import Foundation
import Testing

@testable import RetroSwift

/// The URL a transport hands a client that compares scheme and host with case: both lowered, every other byte kept.
@Suite("A URL's scheme and host in lower case")
struct LowercaseOriginTests {
    @Test(
        "the scheme and host are lowered, user information, port, path, query and fragment keep their bytes",
        arguments: [
            ("HTTP://127.0.0.1:8080/Items?Q=A", "http://127.0.0.1:8080/Items?Q=A"),
            ("https://LOCALHOST/A", "https://localhost/A"),
            ("HtTp://Api.Example.COM", "http://api.example.com"),
            ("http://User:PassWord@HOST:80/P#Frag", "http://User:PassWord@host:80/P#Frag"),
            ("HTTP://[FE80::A]:9/X", "http://[fe80::a]:9/X"),
            ("https://EXAMPLE.com?Q", "https://example.com?Q"),
            ("https://EXAMPLE.com#F", "https://example.com#F"),
            ("http://caf%C3%A9.Example/%C3%89", "http://caf%c3%a9.example/%C3%89"),
        ])
    func lowered(url: String, expected: String) {
        // When
        let lowered = HttpRequestParams.lowercasingSchemeAndHost(url)

        // Then
        #expect(lowered == expected)
    }

    @Test(
        "a URL already in lower case, or without an authority, comes back as it is",
        arguments: ["http://127.0.0.1:8080/Items?Q=A", "https://[::1]/P", "/Items/A", "/A/B://C", "mailto:A@B", ""])
    func unchanged(url: String) {
        // When
        let lowered = HttpRequestParams.lowercasingSchemeAndHost(url)

        // Then
        #expect(lowered == url)
    }
}
