#if NIO
    import NIOCore

    /// The pool's HTTP/2 connections: each carries calls up to its server's `SETTINGS_MAX_CONCURRENT_STREAMS`, one per
    /// stream; past it ``ConnectionPool/lease(_:freshConnection:)`` opens another (up to the connections per origin)
    /// before a call waits. A connection the server sent GOAWAY on takes no new stream and closes once its streams end.
    extension ConnectionPool.State {
        /// An HTTP/2 connection to `key`'s origin with a stream to spare. Streamed answers and other calls share one,
        /// though over HTTP/1.1 they keep to connections of their own: on a stream of its own, an answer nobody reads
        /// holds only that stream's flow-control window, and the calls beside it keep flowing.
        func http2Connection(sparing key: OriginKey) -> HTTP2Connection? {
            var twin = key
            twin.forStreams.toggle()
            return origins[key]?.http2.first(where: \.hasCapacity) ?? origins[twin]?.http2.first(where: \.hasCapacity)
        }
    }

    extension ConnectionPool {
        /// Whether a connection opened to `origin` will speak HTTP/2: with prior knowledge to a plain origin reached
        /// directly or through a tunnel, or where a connection negotiated it by ALPN before (pool lock).
        func speaksHTTP2(_ origin: OriginPool) -> Bool {
            if origin.negotiatedHTTP2 { return true }
            let forwarded = origin.key.proxy.map { !ProxyRoute.tunnels(origin.key, through: $0) } ?? false
            return settings.httpVersion == .http2PriorKnowledge && !origin.key.isTLS && !forwarded
        }

        /// A new HTTP/2 connection is ready: it takes the call that asked for it, then the waiting calls, up to its
        /// streams.
        func connected(_ connection: HTTP2Connection, owner: NIOCall?) {
            let origin = connection.origin
            var another = false
            let calls = state.withLockedValue { state -> [NIOCall]? in
                origin.connecting -= 1
                if state.isShutDown { return nil }
                origin.negotiatedHTTP2 = true
                state.http2Connections[ObjectIdentifier(connection)] = connection
                origin.http2.append(connection)
                var calls: [NIOCall] = []
                if let owner {
                    connection.activeStreams += 1
                    calls.append(owner)
                }
                while connection.hasCapacity, let waiter = origin.waiters.popFirst() {
                    connection.activeStreams += 1
                    calls.append(waiter)
                }
                // Calls past the server's limit: another connection opens for them before they wait for a stream.
                if origin.needsConnection, origin.open < limit(of: origin.key) {
                    origin.open += 1
                    origin.connecting += 1
                    another = true
                }
                return calls
            }
            if another { reconnect(origin) }
            guard let calls else {
                connection.close()
                owner?.finish(.failure(NIOTransportFailure.shutDown))
                return
            }
            if calls.isEmpty { connection.becameIdle() }
            for call in calls { connection.startStream(call) }
        }

        /// A stream of `connection` closed: the first waiting call takes its place, or the connection idles, or, when
        /// draining, closes with its last stream.
        func streamClosed(on connection: HTTP2Connection) {
            enum Next {
                case run(NIOCall)
                case idle
                case close
                case nothing
            }
            let origin = connection.origin
            let next = state.withLockedValue { state -> Next in
                connection.activeStreams -= 1
                if state.isShutDown { return .nothing }
                if connection.isDraining { return connection.activeStreams == 0 ? .close : .nothing }
                if let waiter = origin.waiters.popFirst() {
                    connection.activeStreams += 1
                    return .run(waiter)
                }
                return connection.activeStreams == 0 ? .idle : .nothing
            }
            switch next {
            case .run(let call): connection.startStream(call)
            case .idle: connection.becameIdle()
            case .close: connection.close()
            case .nothing: break
            }
        }

        /// The server's SETTINGS changed how many streams `connection` may carry: waiting calls take any new room.
        func settingsChanged(on connection: HTTP2Connection, maxStreams: Int) {
            let origin = connection.origin
            let calls = state.withLockedValue { state -> [NIOCall] in
                connection.maxStreams = maxStreams
                var calls: [NIOCall] = []
                while !state.isShutDown, connection.hasCapacity, let waiter = origin.waiters.popFirst() {
                    connection.activeStreams += 1
                    calls.append(waiter)
                }
                return calls
            }
            for call in calls { connection.startStream(call) }
        }

        /// The server sent GOAWAY on `connection`: it takes no new stream, and closes once its streams have ended.
        func goingAway(_ connection: HTTP2Connection) {
            let origin = connection.origin
            let close = state.withLockedValue { _ -> Bool in
                connection.isDraining = true
                origin.http2.removeAll { $0 === connection }
                return connection.activeStreams == 0
            }
            if close { connection.close() }
        }

        /// Closes `connection` if it still runs no stream: its idle timeout passed.
        func closeIfIdle(_ connection: HTTP2Connection) {
            let origin = connection.origin
            let close = state.withLockedValue { _ -> Bool in
                guard connection.activeStreams == 0, !connection.isDraining else { return false }
                connection.isDraining = true
                origin.http2.removeAll { $0 === connection }
                return true
            }
            if close { connection.close() }
        }

        /// `connection` closed: it leaves the pool, and a waiting call may get a new one in its place.
        func remove(_ connection: HTTP2Connection) {
            let origin = connection.origin
            let replace = state.withLockedValue { state -> Bool in
                guard state.http2Connections.removeValue(forKey: ObjectIdentifier(connection)) != nil else { return false }
                defer { state.dropIfUnused(origin) }
                origin.open -= 1
                connection.isDraining = true
                origin.http2.removeAll { $0 === connection }
                guard origin.needsConnection, origin.open < limit(of: origin.key), !state.isShutDown else { return false }
                origin.open += 1
                origin.connecting += 1
                return true
            }
            if replace { reconnect(origin) }
        }
    }
#endif
