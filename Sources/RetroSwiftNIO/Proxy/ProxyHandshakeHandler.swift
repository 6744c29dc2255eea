#if NIO
    import NIOCore

    /// Opens a tunnel to the origin through a proxy before anything else on the connection runs: an HTTP `CONNECT`
    /// (RFC 9110 §9.3.6) with `Proxy-Authorization: Basic`, or a SOCKS5 `CONNECT` (RFC 1928) with username and password
    /// authentication (RFC 1929). It sits first in the pipeline and holds back `channelActive` until the tunnel is open,
    /// so that the TLS handler behind it shakes hands with the origin, through the tunnel, and the connection's handler
    /// counts the call's connect time from there; it then leaves the pipeline.
    ///
    /// Written here rather than taken from swift-nio-extras: its `NIOHTTP1ProxyConnectHandler` needs HTTP/1 codecs added
    /// and removed around it and keeps the status of a refused tunnel in its error's text only, and its NIOSOCKS client
    /// offers no authentication, which RFC 1929 proxies require.
    ///
    /// A refusal, a malformed answer, a close or a silence past `timeout` is raised as a ``NIOProxyError``, which the
    /// connection reports as the proxy's failure, never the origin's.
    final class ProxyHandshakeHandler: ChannelInboundHandler, RemovableChannelHandler {
        typealias InboundIn = ByteBuffer
        typealias InboundOut = ByteBuffer
        typealias OutboundOut = ByteBuffer

        private enum Stage {
            case waitingForActive
            case httpConnectSent
            case socksGreetingSent
            case socksAuthenticationSent
            case socksConnectSent
            case done
        }

        private let proxy: NIOTransport.Proxy
        private let host: String
        private let port: Int
        private let timeout: TimeAmount
        private var stage = Stage.waitingForActive
        private var received: ByteBuffer?
        private var timer: Scheduled<Void>?

        /// - Parameters:
        ///   - proxy: The proxy connected to.
        ///   - host: The origin's host, in lower case, an IPv6 address without brackets.
        ///   - port: The origin's port.
        ///   - timeout: The longest the proxy may take to open the tunnel.
        init(proxy: NIOTransport.Proxy, host: String, port: Int, timeout: TimeAmount) {
            self.proxy = proxy
            self.host = host
            self.port = port
            self.timeout = timeout
        }

        func channelActive(context: ChannelHandlerContext) {
            // Held back from the handlers behind: for them the connection is active once the tunnel is.
            timer = context.eventLoop.assumeIsolated().scheduleTask(in: timeout) { [self] in
                fail(context: context, .unreachable, reason: "did not open the tunnel within the connect timeout")
            }
            var buffer = context.channel.allocator.buffer(capacity: 256)
            switch proxy.kind {
            case .http, .https:
                let authority = host.contains(":") ? "[\(host)]:\(port)" : "\(host):\(port)"
                var head = "CONNECT \(authority) HTTP/1.1\r\nHost: \(authority)\r\n"
                if let authorization = proxy.basicAuthorization { head += "Proxy-Authorization: \(authorization)\r\n" }
                head += "\r\n"
                buffer.writeString(head)
                stage = .httpConnectSent
            case .socks5:
                // No authentication (0), and username/password (2) when there are credentials.
                buffer.writeBytes(proxy.username == nil ? [5, 1, 0] : [5, 2, 0, 2])
                stage = .socksGreetingSent
            }
            context.writeAndFlush(wrapOutboundOut(buffer), promise: nil)
            context.read()
        }

        func channelRead(context: ChannelHandlerContext, data: NIOAny) {
            var bytes = unwrapInboundIn(data)
            guard case .done = stage else {
                if received == nil { received = bytes } else { received!.writeBuffer(&bytes) }
                advance(context: context)
                return
            }
            context.fireChannelRead(data)
        }

        func channelReadComplete(context: ChannelHandlerContext) {
            switch stage {
            case .done: context.fireChannelReadComplete()
            case .waitingForActive: break
            default: context.read()
            }
        }

        func channelInactive(context: ChannelHandlerContext) {
            if case .done = stage {
                context.fireChannelInactive()
                return
            }
            fail(context: context, .unreachable, reason: "closed the connection before the tunnel was open")
            context.fireChannelInactive()
        }

        func errorCaught(context: ChannelHandlerContext, error: any Error) {
            if case .done = stage {
                context.fireErrorCaught(error)
                return
            }
            // The proxy's TLS session (ProxyTLSBoundaryHandler) already said what failed.
            if let proxyError = error as? NIOProxyError { return fail(context: context, proxyError) }
            fail(context: context, .unreachable, reason: "failed before the tunnel was open", underlying: error)
        }

        // MARK: The answers

        private func advance(context: ChannelHandlerContext) {
            guard var buffer = received else { return }
            switch stage {
            case .httpConnectSent:
                readHTTPAnswer(context: context, &buffer)
            case .socksGreetingSent:
                guard let reply = buffer.readBytes(length: 2) else { return }
                guard reply[0] == 5 else { return malformed(context: context, "answered the SOCKS5 greeting with another protocol") }
                switch reply[1] {
                case 0:
                    sendSOCKSConnect(context: context)
                case 2 where proxy.username != nil:
                    let user = Array((proxy.username ?? "").utf8.prefix(255))
                    let password = Array((proxy.password ?? "").utf8.prefix(255))
                    var request = context.channel.allocator.buffer(capacity: 3 + user.count + password.count)
                    request.writeBytes([1, UInt8(user.count)] + user + [UInt8(password.count)] + password)
                    context.writeAndFlush(wrapOutboundOut(request), promise: nil)
                    stage = .socksAuthenticationSent
                default:
                    return fail(
                        context: context, .authenticationRequired, status: Int(reply[1]),
                        reason: "accepts none of the SOCKS5 authentication methods offered"
                            + (proxy.username == nil ? " (no credentials are configured)" : ""))
                }
            case .socksAuthenticationSent:
                guard let reply = buffer.readBytes(length: 2) else { return }
                guard reply[1] == 0 else {
                    return fail(
                        context: context, .authenticationRequired, status: Int(reply[1]),
                        reason: "refused the SOCKS5 user name and password")
                }
                sendSOCKSConnect(context: context)
            case .socksConnectSent:
                readSOCKSReply(context: context, &buffer)
                return
            case .waitingForActive, .done:
                return
            }
            received = buffer.readableBytes > 0 ? buffer : nil
            if case .done = stage { return }
            // A proxy that sent its next answer in the same packet.
            if received != nil, stage != .httpConnectSent { advance(context: context) }
        }

        private func readHTTPAnswer(context: ChannelHandlerContext, _ buffer: inout ByteBuffer) {
            let view = buffer.readableBytesView
            guard let end = view.firstRange(of: [13, 10, 13, 10]) else {
                if view.count > 16_384 { malformed(context: context, "sent a reply head to CONNECT longer than 16 KiB") }
                return
            }
            let head = String(decoding: view[view.startIndex..<end.lowerBound], as: UTF8.self)
            let statusLine = head.prefix { $0 != "\r" }
            let parts = statusLine.split(separator: " ", maxSplits: 2)
            guard parts.count >= 2, parts[0].hasPrefix("HTTP/1."), let status = Int(parts[1]), (100...599).contains(status) else {
                return malformed(context: context, "answered CONNECT with something that is not HTTP/1.1")
            }
            let phrase = parts.count > 2 ? " " + parts[2] : ""
            switch status {
            case 200..<300:
                buffer.moveReaderIndex(forwardBy: end.upperBound - view.startIndex)
                received = buffer
                open(context: context)
            case 407, 401:
                // 401 too: only the proxy answers CONNECT, and tinyproxy answers wrong credentials with it.
                fail(
                    context: context, .authenticationRequired, status: status,
                    reason: "asked for credentials (\(status)\(phrase))"
                        + (proxy.username == nil ? ": none are configured" : ": it refused those configured"))
            default:
                fail(
                    context: context, .tunnelRefused, status: status,
                    reason: "refused to open a tunnel to \(host):\(port) (\(status)\(phrase))")
            }
        }

        private func sendSOCKSConnect(context: ChannelHandlerContext) {
            var request = context.channel.allocator.buffer(capacity: 262)
            request.writeBytes([5, 1, 0])
            if let address = NIOTransport.NoProxy.address(host) {
                request.writeInteger(UInt8(address.count == 4 ? 1 : 4))
                request.writeBytes(address)
            } else {
                let name = Array(host.utf8.prefix(255))
                request.writeBytes([3, UInt8(name.count)] + name)
            }
            request.writeInteger(UInt16(port))
            context.writeAndFlush(wrapOutboundOut(request), promise: nil)
            stage = .socksConnectSent
        }

        private func readSOCKSReply(context: ChannelHandlerContext, _ buffer: inout ByteBuffer) {
            let view = buffer.readableBytesView
            guard view.count >= 5 else { return }
            let start = view.startIndex
            guard view[start] == 5 else { return malformed(context: context, "answered SOCKS5 CONNECT with another protocol") }
            let reply = Int(view[start + 1])
            guard reply == 0 else {
                return fail(
                    context: context, .tunnelRefused, status: reply,
                    reason: "refused to open a tunnel to \(host):\(port) (SOCKS5 reply \(reply): \(Self.socksReason(reply)))")
            }
            let addressLength: Int
            switch view[start + 3] {
            case 1: addressLength = 4
            case 4: addressLength = 16
            case 3: addressLength = 1 + Int(view[start + 4])
            default: return malformed(context: context, "answered SOCKS5 CONNECT with an unknown address type")
            }
            let length = 4 + addressLength + 2
            guard view.count >= length else { return }
            buffer.moveReaderIndex(forwardBy: length)
            received = buffer
            open(context: context)
        }

        private static func socksReason(_ reply: Int) -> String {
            switch reply {
            case 1: "general failure"
            case 2: "not allowed by its rules"
            case 3: "network unreachable"
            case 4: "host unreachable"
            case 5: "connection refused"
            case 6: "TTL expired"
            case 7: "command not supported"
            case 8: "address type not supported"
            default: "unknown reply"
            }
        }

        // MARK: Outcome

        /// The tunnel is open: the handlers behind see the connection become active, then any byte that came with the
        /// answer, and this handler leaves.
        private func open(context: ChannelHandlerContext) {
            timer?.cancel()
            stage = .done
            context.fireChannelActive()
            if let rest = received, rest.readableBytes > 0 { context.fireChannelRead(wrapInboundOut(rest)) }
            received = nil
            context.pipeline.syncOperations.removeHandler(context: context, promise: nil)
        }

        private func malformed(context: ChannelHandlerContext, _ reason: String) {
            fail(context: context, .malformedAnswer, reason: reason)
        }

        private func fail(
            context: ChannelHandlerContext, _ kind: NIOProxyError.Kind, status: Int? = nil, reason: String,
            underlying: (any Error)? = nil
        ) {
            fail(
                context: context,
                NIOProxyError(kind, proxy: proxy.description, status: status, reason: reason, underlyingError: underlying))
        }

        private func fail(context: ChannelHandlerContext, _ error: NIOProxyError) {
            if case .done = stage { return }
            timer?.cancel()
            stage = .done
            received = nil
            context.fireErrorCaught(error)
            context.close(promise: nil)
        }
    }
#endif
