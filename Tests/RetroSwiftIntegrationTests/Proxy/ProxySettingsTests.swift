#if NIO
    import Foundation
    import RetroSwift
    import Testing

    @testable import RetroSwiftNIO

    /// Which proxy an origin goes through, as curl reads the environment: pure, with the environment given.
    @Suite("NIOTransport proxies: settings, the environment and NO_PROXY")
    struct ProxySettingsTests {
        typealias NoProxy = NIOTransport.NoProxy
        typealias Proxy = NIOTransport.Proxy
        typealias ProxySettings = NIOTransport.ProxySettings

        @Test(
            "NO_PROXY entries match as curl's do",
            arguments: [
                // (list, host, port, matches)
                ("example.com", "example.com", 443, true),
                ("example.com", "api.example.com", 443, true),
                ("example.com", "badexample.com", 443, false),
                (".example.com", "example.com", 443, true),
                (".example.com", "a.b.example.com", 80, true),
                ("EXAMPLE.com.", "Api.Example.COM.", 80, true),
                ("example.com:8443", "example.com", 8443, true),
                ("example.com:8443", "example.com", 443, false),
                ("*", "anything.at.all", 1, true),
                ("localhost, 127.0.0.1", "127.0.0.1", 80, true),
                ("localhost,127.0.0.1", "127.0.0.2", 80, false),
                ("10.0.0.0/8", "10.200.3.4", 80, true),
                ("10.0.0.0/8", "11.0.0.1", 80, false),
                ("192.168.1.0/25", "192.168.1.127", 80, true),
                ("192.168.1.0/25", "192.168.1.128", 80, false),
                ("10.0.0.0/8", "ten.example", 80, false),
                ("::1", "::1", 80, true),
                ("[::1]:8080", "::1", 8080, true),
                ("[::1]:8080", "::1", 80, false),
                ("fd00::/8", "[fd12:3456::1]", 80, true),
                ("fd00::/8", "fe80::1", 80, false),
                ("127.0.0.1", "127.0.0.1.example.com", 80, false),
                ("", "example.com", 80, false),
            ])
        func noProxy(list: String, host: String, port: Int, matches: Bool) {
            // Given
            let noProxy = NoProxy(list)

            // When
            let matched = noProxy.matches(host: host, port: port)

            // Then
            #expect(matched == matches, "NO_PROXY=\(list) for \(host):\(port)")
        }

        @Test("a proxy URL is read as curl reads it, and its password never shows")
        func proxyURL() throws {
            // Given / When
            let full = try Proxy(url: "http://al%40ice:p%3Ass@Proxy.Internal:3128/")
            let bare = try Proxy(url: "proxy.internal")
            let socks = try Proxy(url: "socks5h://[::1]:1081")

            // Then
            #expect(full == Proxy(.http, host: "proxy.internal", port: 3128, username: "al@ice", password: "p:ss"))
            #expect(full.description == "http://al@ice:<redacted>@proxy.internal:3128")
            #expect(full.basicAuthorization == "Basic " + Data("al@ice:p:ss".utf8).base64EncodedString())
            #expect(bare == Proxy(.http, host: "proxy.internal", port: 1080))
            #expect(socks == Proxy(.socks5, host: "::1", port: 1081))
            #expect(socks.description == "socks5://[::1]:1081")
        }

        @Test("a proxy URL that cannot be used is refused, its password redacted in the error")
        func unusableProxyURL() {
            // When
            let socks4 = #expect(throws: NIOProxyError.self) { try Proxy(url: "socks4://bob:hunter2@proxy:1080") }
            let badPort = #expect(throws: NIOProxyError.self) { try Proxy(url: "http://proxy:99999") }

            // Then
            #expect(socks4?.kind == .unsupported)
            #expect(socks4?.description.contains("hunter2") == false)
            #expect(socks4?.description.contains("socks4://bob:<redacted>@proxy:1080") == true)
            #expect(badPort?.kind == .unsupported)
        }

        @Test("an https:// proxy URL is an HTTP proxy over TLS, on port 443 unless written, with the trust given, its password never shown")
        func httpsProxyURL() throws {
            // Given
            let company = try Self.companyTrust()

            // When
            let written = try Proxy(url: "HTTPS://bob:hunter2@Proxy.Corp.Example:8443/")
            let defaultPort = try Proxy(url: "https://proxy.corp.example", trust: company)

            // Then
            #expect(written == Proxy(.https, host: "proxy.corp.example", port: 8443, username: "bob", password: "hunter2"))
            #expect(written.trust == .system)
            #expect(written.description == "https://bob:<redacted>@proxy.corp.example:8443")
            #expect(defaultPort == Proxy(.https, host: "proxy.corp.example", port: 443, trust: company))
        }

        @Test("an https:// proxy from the environment takes the trust given for proxies; the trust tells proxies apart (pool keys)")
        func httpsProxyFromEnvironment() throws {
            // Given
            let company = try Self.companyTrust()
            let environment = ["https_proxy": "https://proxy.corp.example:8443", "http_proxy": "http://plain:3128"]

            // When
            let settings = try ProxySettings.fromEnvironment(environment, proxyTrust: company)
            let systemTrusted = try ProxySettings.fromEnvironment(environment)

            // Then
            #expect(settings.httpsProxy == Proxy(.https, host: "proxy.corp.example", port: 8443, trust: company))
            #expect(settings.httpProxy?.kind == .http)
            #expect(systemTrusted.httpsProxy?.trust == .system)
            // The pool's key holds the proxy: connections verified against another trust are never shared.
            #expect(settings.httpsProxy != systemTrusted.httpsProxy)
            #expect(Set([settings.httpsProxy, systemTrusted.httpsProxy]).count == 2)
        }

        /// A trust other than the system's: a pin (any 32 bytes) is all it takes.
        static func companyTrust() throws -> ServerTrust {
            try ServerTrust(pinnedPublicKeys: [Data(repeating: 7, count: 32).base64EncodedString()])
        }

        @Test("the environment: lower case first, ALL_PROXY as the fallback, empty as unset, NO_PROXY applied")
        func environment() throws {
            // Given
            let environment = [
                "HTTPS_PROXY": "http://upper:3128", "https_proxy": "http://lower:3128", "ALL_PROXY": "socks5://all:1080",
                "http_proxy": "", "NO_PROXY": "internal.example,10.0.0.0/8",
            ]

            // When
            let settings = try ProxySettings.fromEnvironment(environment)

            // Then
            #expect(settings.proxy(isTLS: true, host: "api.example.com", port: 443)?.host == "lower")
            #expect(settings.proxy(isTLS: false, host: "api.example.com", port: 80) == Proxy(.socks5, host: "all", port: 1080))
            #expect(settings.proxy(isTLS: true, host: "db.internal.example", port: 443) == nil)
            #expect(settings.proxy(isTLS: true, host: "10.1.2.3", port: 443) == nil)
            #expect(try ProxySettings.fromEnvironment([:]) == .none)
        }

        @Test("upper-case HTTP_PROXY is read, except in a CGI program, where a request's Proxy header sets it (httpoxy)")
        func httpoxy() throws {
            // Given / When
            let plain = try ProxySettings.fromEnvironment(["HTTP_PROXY": "http://proxy:3128"])
            let cgi = try ProxySettings.fromEnvironment(["HTTP_PROXY": "http://evil:3128", "REQUEST_METHOD": "GET"])

            // Then
            #expect(plain.httpProxy?.host == "proxy")
            #expect(cgi.httpProxy == nil)
        }

        @Test("a proxy variable that cannot be read fails, rather than sending traffic direct")
        func unreadableEnvironment() {
            // When
            let error = #expect(throws: NIOProxyError.self) {
                _ = try ProxySettings.fromEnvironment(["HTTPS_PROXY": "ftp://user:secret@proxy:21"])
            }

            // Then
            #expect(error?.kind == .unsupported)
            #expect(error?.description.contains("secret") == false)
        }
    }
#endif
