#if NIO
    import Foundation
    import RetroSwift

    extension NIOTransport {
        /// A proxy that `NIOTransport` connects through: an HTTP proxy (a `CONNECT` tunnel, or a forward proxy for `http`
        /// origins), reached over plain TCP or over TLS, or a SOCKS5 proxy, with the credentials it asks for.
        ///
        /// Its ``description`` never shows the password: `http://alice:<redacted>@proxy.internal:3128`.
        ///
        /// A proxy reached over TLS whose certificate comes from a company's own authority is trusted through ``trust``:
        ///
        /// ```
        /// var proxy = try NIOTransport.Proxy(url: "https://proxy.corp.example:8443")
        /// proxy.trust = try ServerTrust(certificateAuthoritiesPEM: String(contentsOfFile: "/etc/corp/ca.pem", encoding: .utf8))
        /// let transport = NIOTransport(.init(proxies: .all(proxy)))
        /// ```
        public struct Proxy: Sendable, Hashable, CustomStringConvertible {
            /// How the transport talks to the proxy.
            public enum Kind: Sendable, Hashable {
                /// An HTTP proxy over plain TCP: `https` origins through a `CONNECT` tunnel, `http` origins by a
                /// request in absolute form (a forward proxy) unless ``Proxy/tunnelsPlainHTTP`` asks for a tunnel too.
                case http
                /// An HTTP proxy reached over TLS (curl's `https://` proxy): the connection to the proxy is TLS, its
                /// certificate verified against ``Proxy/trust`` for the proxy's host, and everything ``http`` sends goes
                /// inside it, so the credentials and the `CONNECT` line are never in clear. An `https` origin's own TLS
                /// runs inside that session, verified against the origin's chain as without a proxy. The domain's client
                /// certificate is presented to the origin only, never to the proxy.
                case https
                /// A SOCKS5 proxy (RFC 1928), with username and password authentication (RFC 1929) when credentials are
                /// given. The origin's host name is sent to the proxy, which resolves it (what curl calls `socks5h`).
                case socks5
            }

            /// How the transport talks to the proxy.
            public var kind: Kind
            /// The proxy's host name or IP address (an IPv6 address without brackets).
            public var host: String
            /// The proxy's port.
            public var port: Int
            /// The user name sent to the proxy (`Proxy-Authorization: Basic`, or SOCKS5's RFC 1929), if any.
            public var username: String?
            /// The password sent with ``username``; never shown in descriptions, logs or errors.
            public var password: String?
            /// Whether `http` origins go through a `CONNECT` tunnel too, rather than a forward request; `false` by default.
            /// Ignored by SOCKS5 proxies, which always tunnel.
            public var tunnelsPlainHTTP: Bool
            /// What the proxy's own certificate is checked against when ``kind`` is ``Kind/https``: the system's
            /// authorities by default, or a private authority's (a company proxy's internal CA), and pins if any; always
            /// for the proxy's host name. Ignored by the other kinds. Origins are checked against the domain's
            /// `ServerTrust`, never this one.
            public var trust: ServerTrust

            /// Creates a proxy.
            ///
            /// - Parameters:
            ///   - kind: An HTTP or a SOCKS5 proxy.
            ///   - host: Its host name or IP address.
            ///   - port: Its port.
            ///   - username: The user name it asks for, if any.
            ///   - password: The password it asks for, if any.
            ///   - tunnelsPlainHTTP: Whether `http` origins go through a `CONNECT` tunnel rather than a forward request.
            ///   - trust: What an ``Kind/https`` proxy's own certificate is checked against; the system's authorities by
            ///     default.
            public init(
                _ kind: Kind, host: String, port: Int, username: String? = nil, password: String? = nil,
                tunnelsPlainHTTP: Bool = false, trust: ServerTrust = .system
            ) {
                self.kind = kind
                self.host = host
                self.port = port
                self.username = username
                self.password = password
                self.tunnelsPlainHTTP = tunnelsPlainHTTP
                self.trust = trust
            }

            /// Reads a proxy URL as curl does: `http://[user:password@]host[:port]`, `https://…` (an HTTP proxy reached
            /// over TLS, ``Kind/https``), `socks5://…` or `socks5h://…` (both resolve the origin's name at the proxy), or
            /// a bare `host:port`, which is an HTTP proxy. The port is 443 for `https://` and 1080 otherwise when not
            /// written, as curl's; user name and password are percent-decoded.
            ///
            /// - Parameters:
            ///   - url: The proxy's URL, as `HTTPS_PROXY` or a configuration file holds it.
            ///   - trust: What an `https://` proxy's own certificate is checked against; the system's authorities by
            ///     default.
            /// - Throws: ``NIOProxyError`` of kind ``NIOProxyError/Kind/unsupported`` for a scheme other than `http`,
            ///   `https`, `socks5` or `socks5h`, or a URL with no host or a port that is not a number from 1 to 65535.
            public init(url: String, trust: ServerTrust = .system) throws {
                var rest = url.trimmingCharacters(in: .whitespaces)
                var kind = Kind.http
                if let schemeEnd = rest.range(of: "://") {
                    let scheme = rest[..<schemeEnd.lowerBound].lowercased()
                    switch scheme {
                    case "http": kind = .http
                    case "https": kind = .https
                    case "socks5", "socks5h": kind = .socks5
                    default:
                        throw NIOProxyError(
                            .unsupported, proxy: Self.redacted(url),
                            reason: "a \(scheme):// proxy is not supported (http://, https://, socks5:// and socks5h:// are)")
                    }
                    rest = String(rest[schemeEnd.upperBound...])
                }
                // Only the authority counts: a path (`http://proxy:3128/`) means nothing to a proxy.
                if let slash = rest.firstIndex(of: "/") { rest = String(rest[..<slash]) }
                var username: String?
                var password: String?
                if let at = rest.lastIndex(of: "@") {
                    let userInfo = rest[..<at]
                    if let colon = userInfo.firstIndex(of: ":") {
                        username = String(userInfo[..<colon]).removingPercentEncoding ?? String(userInfo[..<colon])
                        let secret = userInfo[userInfo.index(after: colon)...]
                        password = String(secret).removingPercentEncoding ?? String(secret)
                    } else {
                        username = String(userInfo).removingPercentEncoding ?? String(userInfo)
                    }
                    rest = String(rest[rest.index(after: at)...])
                }
                guard let (host, port) = ProxyAuthority.split(rest, defaultPort: kind == .https ? 443 : 1080) else {
                    throw NIOProxyError(.unsupported, proxy: Self.redacted(url), reason: "the proxy URL has no valid host and port")
                }
                self.init(kind, host: host, port: port, username: username, password: password, trust: trust)
            }

            /// `http://alice:<redacted>@proxy.internal:3128`: the password is never shown.
            public var description: String {
                let scheme =
                    switch kind {
                    case .http: "http"
                    case .https: "https"
                    case .socks5: "socks5"
                    }
                let shownHost = host.contains(":") ? "[\(host)]" : host
                guard let username else { return "\(scheme)://\(shownHost):\(port)" }
                return "\(scheme)://\(username)\(password == nil ? "" : ":<redacted>")@\(shownHost):\(port)"
            }

            /// A URL as written, with anything between `://` and the last `@` past its first `:` hidden, for errors about
            /// a URL that could not be read.
            static func redacted(_ url: String) -> String {
                guard let at = url.lastIndex(of: "@") else { return url }
                let start = url.range(of: "://")?.upperBound ?? url.startIndex
                guard start < at, let colon = url[start..<at].firstIndex(of: ":") else { return url }
                return String(url[..<colon]) + ":<redacted>" + String(url[at...])
            }

            /// The `Proxy-Authorization` field's value for these credentials, if any.
            var basicAuthorization: String? {
                guard let username else { return nil }
                return "Basic " + Data("\(username):\(password ?? "")".utf8).base64EncodedString()
            }
        }

        /// Which proxy each origin goes through: one for `http` origins, one for `https` origins, and the hosts that go
        /// direct.
        ///
        /// Set it in ``NIOTransport/Configuration/proxies``; ``fromEnvironment(_:proxyTrust:)`` reads it as curl does, from
        /// `HTTPS_PROXY`, `HTTP_PROXY`, `ALL_PROXY` and `NO_PROXY`, when the app opts in:
        ///
        /// ```
        /// let transport = NIOTransport(.init(proxies: .fromEnvironment()))
        /// ```
        public struct ProxySettings: Sendable, Hashable {
            /// The proxy of `http://` origins, if any.
            public var httpProxy: Proxy?
            /// The proxy of `https://` origins, if any.
            public var httpsProxy: Proxy?
            /// The hosts that go direct, as `NO_PROXY` lists them: see ``NoProxy``.
            public var noProxy: NoProxy

            /// Creates settings.
            ///
            /// - Parameters:
            ///   - httpProxy: The proxy of `http://` origins, if any.
            ///   - httpsProxy: The proxy of `https://` origins, if any.
            ///   - noProxy: The hosts that go direct.
            public init(httpProxy: Proxy? = nil, httpsProxy: Proxy? = nil, noProxy: NoProxy = NoProxy()) {
                self.httpProxy = httpProxy
                self.httpsProxy = httpsProxy
                self.noProxy = noProxy
            }

            /// No proxy: every origin is connected to directly. The default.
            public static let none = ProxySettings()

            /// One proxy for every origin, but those `noProxy` lists.
            ///
            /// - Parameters:
            ///   - proxy: The proxy of `http` and `https` origins.
            ///   - noProxy: The hosts that go direct.
            /// - Returns: The settings.
            public static func all(_ proxy: Proxy, noProxy: NoProxy = NoProxy()) -> ProxySettings {
                ProxySettings(httpProxy: proxy, httpsProxy: proxy, noProxy: noProxy)
            }

            /// The proxies the environment names, as curl reads them: `https_proxy` (or `HTTPS_PROXY`) for `https`
            /// origins, `http_proxy` (or `HTTP_PROXY`) for `http` origins, `all_proxy` (or `ALL_PROXY`) for either when
            /// its own is not set, and `no_proxy` (or `NO_PROXY`) for the hosts that go direct; the lower-case name wins
            /// when both are set. An empty variable counts as unset. `HTTP_PROXY` in upper case is ignored when
            /// `REQUEST_METHOD` is set, as in a CGI program, where a request's `Proxy:` header would set it (httpoxy).
            ///
            /// - Parameters:
            ///   - environment: The variables to read; the process's by default.
            ///   - proxyTrust: What the certificate of an `https://` proxy the variables name is checked against (what
            ///     curl's `--proxy-cacert` sets); the system's authorities by default.
            /// - Returns: The settings they describe.
            /// - Throws: ``NIOProxyError`` of kind ``NIOProxyError/Kind/unsupported`` when a variable holds a proxy URL
            ///   that cannot be read, so a typo never silently sends traffic direct.
            public static func fromEnvironment(
                _ environment: [String: String] = ProcessInfo.processInfo.environment, proxyTrust: ServerTrust = .system
            ) throws -> ProxySettings {
                func value(_ name: String, upperCaseAllowed: Bool = true) -> String? {
                    if let lower = environment[name.lowercased()], !lower.isEmpty { return lower }
                    if upperCaseAllowed, let upper = environment[name.uppercased()], !upper.isEmpty { return upper }
                    return nil
                }
                let all = value("all_proxy")
                let isCGI = environment["REQUEST_METHOD"] != nil
                let http = value("http_proxy", upperCaseAllowed: !isCGI) ?? all
                let https = value("https_proxy") ?? all
                return ProxySettings(
                    httpProxy: try http.map { try Proxy(url: $0, trust: proxyTrust) },
                    httpsProxy: try https.map { try Proxy(url: $0, trust: proxyTrust) },
                    noProxy: NoProxy(value("no_proxy") ?? ""))
            }

            /// The proxy a connection to the origin goes through, or `nil` when it goes direct.
            ///
            /// - Parameters:
            ///   - isTLS: Whether the origin is `https`.
            ///   - host: The origin's host, in lower case, an IPv6 address without brackets.
            ///   - port: The origin's port.
            /// - Returns: The proxy, or `nil`.
            public func proxy(isTLS: Bool, host: String, port: Int) -> Proxy? {
                guard let proxy = isTLS ? httpsProxy : httpProxy else { return nil }
                return noProxy.matches(host: host, port: port) ? nil : proxy
            }
        }
    }

    /// Splits `host[:port]` or `[IPv6][:port]`.
    enum ProxyAuthority {
        static func split(_ authority: String, defaultPort: Int) -> (host: String, port: Int)? {
            var host = Substring(authority)
            var portText: Substring?
            if host.hasPrefix("[") {
                guard let close = host.firstIndex(of: "]") else { return nil }
                let after = host[host.index(after: close)...]
                if after.hasPrefix(":") { portText = after.dropFirst() } else if !after.isEmpty { return nil }
                host = host[host.index(after: host.startIndex)..<close]
            } else if let colon = host.lastIndex(of: ":") {
                // More than one colon without brackets: an IPv6 address with no port.
                if host[..<colon].contains(":") {
                    portText = nil
                } else {
                    portText = host[host.index(after: colon)...]
                    host = host[..<colon]
                }
            }
            guard !host.isEmpty else { return nil }
            var port = defaultPort
            if let portText {
                guard let parsed = Int(portText), (1...65535).contains(parsed) else { return nil }
                port = parsed
            }
            return (host.lowercased(), port)
        }
    }
#endif
