#if NIO
    import NIOCore
    import NIOHTTP1
    import NIOHTTPCompression
    import NIOSSL

    /// Why the connection layer failed a call, decided by type where the failure happened (connecting, the handshake,
    /// the exchange), so that `NIOTransport` maps it onto the errors callers know without reading any message.
    enum NIOTransportFailure: Error, Sendable {
        /// No connection could be made: refused, unreachable, the name not resolved.
        case cannotConnect(any Error)
        /// No connection came in time (connecting and waiting for a pooled one included), or the exchange was silent in
        /// both directions — no request byte taken, no response byte arrived — for longer than the timeout.
        case timedOut
        /// The connection closed, or failed, before the response was whole.
        case connectionLost(any Error)
        /// The server's chain did not verify, or verified without a pinned key.
        case untrustedServer
        /// The TLS handshake failed for another reason.
        case secureConnectionFailed(any Error)
        /// The response is not HTTP/1.1 as the parser reads it.
        case malformed(HTTPParserError)
        /// The response head is larger than the parser accepts.
        case headTooLarge
        /// A compressed body that does not decompress, or decompresses past the transport's backstop ratio.
        case decompression(any Error)
        /// A compressed body without a `Content-Length` grew past the call's decompression ratio.
        case decompressionRatioExceeded(ratio: Int, compressedBytes: Int)
        /// RetroSwift's checks refused the response (its head, or a body over its limits), or the request body's own file
        /// could not be read: the error is the one to throw.
        case refused(any Error)
        /// A request body stream brought more or fewer bytes than the length it declared.
        case bodyLengthMismatch(expected: Int64, sent: Int64)
        /// The calling task was cancelled, or the reader left the stream.
        case cancelled
        /// The transport was shut down.
        case shutDown
        /// The proxy, not the origin, failed the call: unreachable, asking for credentials, refusing the tunnel.
        case proxy(NIOProxyError)

        /// What an error caught on a connection means, given whether the connection was still being established.
        static func classify(_ error: any Error, connecting: Bool) -> NIOTransportFailure {
            if let failure = error as? NIOTransportFailure { return failure }
            if let proxyError = error as? NIOProxyError { return .proxy(proxyError) }
            if let parserError = error as? HTTPParserError {
                switch parserError {
                case .invalidEOFState: return .connectionLost(error)
                case .headerOverflow: return .headTooLarge
                default: return .malformed(parserError)
                }
            }
            if error is NIOHTTPDecompression.DecompressionError || error is NIOHTTPDecompression.ExtraDecompressionError {
                return .decompression(error)
            }
            if let hostError = error as? NIOSSLExtraError, hostError == .failedToValidateHostname {
                return .untrustedServer
            }
            if let tlsError = error as? NIOSSLError, case .uncleanShutdown = tlsError, !connecting {
                // The server closed the connection without TLS's close_notify: closed, like a plain connection.
                return .connectionLost(error)
            }
            if error is NIOSSLError || error is NIOSSLExtraError || error is BoringSSLError {
                return .secureConnectionFailed(error)
            }
            if let channelError = error as? ChannelError, case .connectTimeout = channelError { return .timedOut }
            return connecting ? .cannotConnect(error) : .connectionLost(error)
        }
    }
#endif
