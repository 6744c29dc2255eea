#if NIO
    extension NIOTransport {
        /// Which HTTP versions ``NIOTransport`` speaks to an origin.
        public enum HTTPVersion: Sendable, Hashable {
            /// HTTP/2 where the server chooses it: a TLS connection offers `h2`, then `http/1.1`, by ALPN and speaks what
            /// the server picks (HTTP/1.1 when it picks none); `http://` origins get HTTP/1.1. The default.
            case automatic
            /// HTTP/1.1 on every connection; TLS offers only `http/1.1`.
            case http1Only
            /// HTTP/2 with prior knowledge on `http://` origins (h2c): the connection opens with HTTP/2's preface, and
            /// never asks for `Upgrade: h2c`, which RFC 9113 dropped. For servers known to speak cleartext HTTP/2; a TLS
            /// origin negotiates as with ``automatic``.
            case http2PriorKnowledge
        }
    }
#endif
