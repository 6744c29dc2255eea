#if NIO
    /// A call `NIOTransport` could not make because of its proxy, never its origin: the proxy was unreachable, asked for
    /// credentials (`407`), refused to open the tunnel, presented a certificate not trusted (an `https://` proxy), or
    /// answered with something that is not a proxy's answer. It
    /// reaches the caller as the `underlyingError` of a `TransportError`, and names the proxy with its password redacted.
    public struct NIOProxyError: Error, Sendable, CustomStringConvertible {
        /// What went wrong at the proxy.
        public enum Kind: Sendable, Hashable {
            /// No connection to the proxy could be made, or it closed or fell silent before the tunnel was open.
            case unreachable
            /// The proxy asked for credentials, or refused the ones given: an HTTP proxy's `407`, or a SOCKS5 proxy
            /// that refused the authentication.
            case authenticationRequired
            /// The proxy refused to reach the origin: an HTTP status other than 2xx or 407 to `CONNECT`, or a SOCKS5
            /// reply other than success; ``NIOProxyError/status`` holds it.
            case tunnelRefused
            /// An `https://` proxy's own certificate did not verify against ``NIOTransport/Proxy/trust`` for the proxy's
            /// host name, or verified without a pinned key. The origin was never reached, and its certificate never seen.
            case untrustedCertificate
            /// The proxy answered with bytes that are not its protocol's.
            case malformedAnswer
            /// The proxy URL or configuration cannot be used.
            case unsupported
        }

        /// What went wrong at the proxy.
        public let kind: Kind
        /// The proxy, its password redacted: `http://alice:<redacted>@127.0.0.1:3128`.
        public let proxy: String
        /// The proxy's answer: the HTTP status of its reply to `CONNECT`, or the SOCKS5 reply code; `nil` when it gave
        /// none.
        public let status: Int?
        /// What happened, in words.
        public let reason: String
        /// The error beneath, such as the connection's, if any.
        public let underlyingError: (any Error)?

        /// Creates an error; `NIOTransport` makes these.
        ///
        /// - Parameters:
        ///   - kind: What went wrong.
        ///   - proxy: The proxy, already redacted.
        ///   - status: The proxy's answer, if any.
        ///   - reason: What happened.
        ///   - underlyingError: The error beneath, if any.
        init(_ kind: Kind, proxy: String, status: Int? = nil, reason: String, underlyingError: (any Error)? = nil) {
            self.kind = kind
            self.proxy = proxy
            self.status = status
            self.reason = reason
            self.underlyingError = underlyingError
        }

        /// `the proxy http://alice:<redacted>@127.0.0.1:3128 asked for credentials (407 Proxy Authentication Required)`.
        public var description: String {
            var text = "the proxy \(proxy) \(reason)"
            if let underlyingError { text += " (\(underlyingError))" }
            return text
        }
    }
#endif
