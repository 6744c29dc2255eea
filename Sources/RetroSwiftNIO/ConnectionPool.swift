#if NIO
    import NIOConcurrencyHelpers
    import NIOCore
    import NIOPosix

    /// The transport's connections, one pool per ``OriginKey``: at most `connectionsPerOrigin` of them (streams have an
    /// allowance of their own), reused while they stay open, closed after `idleTimeout` unused, and a FIFO of calls
    /// waiting for one, each until its head deadline.
    ///
    /// Its state is behind one lock, touched briefly by calls from any thread and by connections from their event loops;
    /// connections and calls are told what to do after the lock is released. Each origin's part of it is an object that
    /// its connections point to, so that handing a connection back looks nothing up, and a call finds its origin by
    /// comparing its key with the last one used before it hashes anything (a `ServerTrust` hashes every byte of its
    /// certificates).
    final class ConnectionPool: Sendable {
        /// What the pool was configured with.
        struct Settings: Sendable {
            var group: any EventLoopGroup
            var connectionsPerOrigin: Int
            var streamConnectionsPerOrigin: Int
            var idleTimeout: TimeAmount
            var connectTimeout: TimeAmount
            var httpVersion: NIOTransport.HTTPVersion = .automatic
            var resendsUnprocessedStreams = true
            var http2Fault: HTTP2Fault?
        }

        struct State {
            var origins: [OriginKey: OriginPool] = [:]
            /// The origin the last call went to: most transports talk to one.
            var lastOrigin: OriginPool?
            /// Every connection open, to close them at shutdown.
            var connections: [ObjectIdentifier: HTTP1Connection] = [:]
            /// Every HTTP/2 connection open (ConnectionPool+HTTP2.swift).
            var http2Connections: [ObjectIdentifier: HTTP2Connection] = [:]
            var isShutDown = false

            /// The origin of `key`, made when none is open.
            mutating func origin(of key: OriginKey) -> OriginPool {
                if let lastOrigin, lastOrigin.key == key { return lastOrigin }
                let origin = origins[key] ?? OriginPool(key: key)
                origins[key] = origin
                lastOrigin = origin
                return origin
            }

            /// Drops `origin` once nothing is open or waiting there: an origin nobody reaches leaves no entry behind.
            mutating func dropIfUnused(_ origin: OriginPool) {
                guard origin.open == 0, origin.waiters.isEmpty, origin.idle.isEmpty else { return }
                if origins[origin.key] === origin { origins[origin.key] = nil }
                if lastOrigin === origin { lastOrigin = nil }
            }
        }

        let settings: Settings
        let tls: TLSConnector
        let state = NIOLockedValueBox(State())

        init(settings: Settings, tls: TLSConnector) {
            self.settings = settings
            self.tls = tls
        }

        func limit(of key: OriginKey) -> Int {
            key.forStreams ? settings.streamConnectionsPerOrigin : settings.connectionsPerOrigin
        }

        // MARK: Calls

        /// Finds `call` a connection: an idle one, a new one while the origin is under its limit, or else the first that
        /// comes free; it then runs on it. `freshConnection` opens one of its own for it whatever the limit (the one
        /// retry of a request whose reused connection failed).
        func lease(_ call: NIOCall, freshConnection: Bool = false) {
            enum Next {
                case run(HTTP1Connection)
                case runStream(HTTP2Connection)
                case connect(OriginPool, owner: NIOCall?)
                case wait
                case fail(NIOTransportFailure)
            }
            let key = call.request.origin
            let next = state.withLockedValue { state -> Next in
                if state.isShutDown { return .fail(.shutDown) }
                let origin = state.origin(of: key)
                if freshConnection {
                    origin.open += 1
                    origin.connecting += 1
                    return .connect(origin, owner: call)
                }
                // An HTTP/2 connection with a stream to spare comes first: it needs no connection of its own.
                if let connection = state.http2Connection(sparing: key) {
                    connection.activeStreams += 1
                    return .runStream(connection)
                }
                while let connection = origin.idle.popLast() {
                    // A connection the server closed while idle is never handed out, even before its handler has seen
                    // the close and removed it.
                    if connection.channel.isActive { return .run(connection) }
                }
                origin.waiters.append(call)
                // A connection being opened with prior knowledge speaks HTTP/2: it takes the waiting calls up to its
                // server's limit, so a burst of calls opens one connection, not one each.
                if speaksHTTP2(origin), origin.waiters.count <= origin.connecting * HTTP2Connection.assumedStreams { return .wait }
                if origin.open < limit(of: key) {
                    origin.open += 1
                    origin.connecting += 1
                    return .connect(origin, owner: nil)
                }
                return .wait
            }
            switch next {
            case .run(let connection):
                connection.run(call)
            case .runStream(let connection):
                connection.startStream(call)
            case .connect(let origin, let owner):
                startWaiting(call)
                connect(origin, owner: owner)
            case .wait:
                startWaiting(call)
            case .fail(let failure):
                call.finish(.failure(failure))
            }
        }

        /// Arms the timer that fails `call` if no connection takes it before its head deadline, whether it waits in
        /// the queue or for a connection being opened for it.
        private func startWaiting(_ call: NIOCall) {
            let timer = settings.group.any().scheduleTask(deadline: call.headDeadline) { [self] in
                if call.expireIfWaiting() { _ = remove(waiter: call) }
            }
            if !call.wait(timer: timer) {
                // Taken by a connection already, or over: the timer has nothing to do.
                timer.cancel()
            }
        }

        /// The calling task was cancelled while `call` waited.
        func forget(_ call: NIOCall) {
            _ = remove(waiter: call)
        }

        private func remove(waiter call: NIOCall) -> Bool {
            state.withLockedValue { state in
                guard let origin = state.origins[call.request.origin],
                    let index = origin.waiters.firstIndex(where: { $0 === call })
                else { return false }
                origin.waiters.remove(at: index)
                state.dropIfUnused(origin)
                return true
            }
        }

        // MARK: Connections

        private func connect(_ origin: OriginPool, owner: NIOCall?) {
            let eventLoop = settings.group.next()
            let version = settings.httpVersion
            let forwarded = origin.key.proxy.map { !ProxyRoute.tunnels(origin.key, through: $0) } ?? false
            if version != .http1Only, !forwarded, origin.key.isTLS || version == .http2PriorKnowledge {
                // HTTP/2 by ALPN over TLS (or HTTP/1.1 if the server picks it), or with prior knowledge; a forward proxy
                // takes HTTP/1.1 requests only.
                HTTP2Connection.connect(to: origin, on: eventLoop, pool: self) { [self] result in
                    switch result {
                    case .success(.http1(let connection)): connected(connection, owner: owner)
                    case .success(.http2(let connection)): connected(connection, owner: owner)
                    case .failure(let failure): connectFailed(origin, failure, owner: owner)
                    }
                }
                return
            }
            HTTP1Connection.connect(to: origin, on: eventLoop, pool: self) { [self] result in
                switch result {
                case .success(let connection): connected(connection, owner: owner)
                case .failure(let failure): connectFailed(origin, failure, owner: owner)
                }
            }
        }

        private func connected(_ connection: HTTP1Connection, owner: NIOCall?) {
            let accepted = state.withLockedValue { state -> Bool in
                connection.origin.connecting -= 1
                if state.isShutDown { return false }
                state.connections[ObjectIdentifier(connection)] = connection
                return true
            }
            guard accepted else {
                connection.close()
                owner?.finish(.failure(NIOTransportFailure.shutDown))
                return
            }
            if let owner {
                connection.run(owner)
            } else {
                release(connection)
            }
        }

        func connectFailed(_ origin: OriginPool, _ failure: NIOTransportFailure, owner: NIOCall?) {
            // The failure answers the call that asked for the connection, or the first waiting; the next waiting call,
            // if any, gets an attempt of its own, so that every call learns the outcome promptly.
            let (failed, reconnect) = state.withLockedValue { state -> (NIOCall?, Bool) in
                origin.open -= 1
                origin.connecting -= 1
                defer { state.dropIfUnused(origin) }
                if let owner { return (owner, false) }
                let failed = origin.waiters.popFirst()
                guard !origin.waiters.isEmpty, origin.open < limit(of: origin.key), !state.isShutDown else {
                    return (failed, false)
                }
                origin.open += 1
                origin.connecting += 1
                return (failed, true)
            }
            failed?.finish(.failure(failure))
            if reconnect { connect(origin, owner: nil) }
        }

        /// A connection is free again: it runs the first waiting call, or waits for one.
        func release(_ connection: HTTP1Connection) {
            enum Next {
                case run(NIOCall)
                case idle
                case close
            }
            let origin = connection.origin
            let next = state.withLockedValue { state -> Next in
                guard !state.isShutDown else { return .close }
                if let waiter = origin.waiters.popFirst() { return .run(waiter) }
                origin.idle.append(connection)
                return .idle
            }
            switch next {
            case .run(let waiter): connection.run(waiter)
            case .idle: connection.becameIdle()
            case .close: connection.close()
            }
        }

        /// Closes `connection` if it is still idle: its idle timeout passed.
        func closeIfIdle(_ connection: HTTP1Connection) {
            let origin = connection.origin
            let removed = state.withLockedValue { _ -> Bool in
                guard let index = origin.idle.firstIndex(where: { $0 === connection }) else { return false }
                origin.idle.remove(at: index)
                return true
            }
            if removed { connection.close() }
        }

        /// `connection` closed, or will: it leaves the pool, and a waiting call may get a new one in its place.
        func remove(_ connection: HTTP1Connection) {
            let origin = connection.origin
            let reconnect = state.withLockedValue { state -> Bool in
                guard state.connections.removeValue(forKey: ObjectIdentifier(connection)) != nil else { return false }
                defer { state.dropIfUnused(origin) }
                origin.open -= 1
                origin.idle.removeAll { $0 === connection }
                guard origin.needsConnection, origin.open < limit(of: origin.key), !state.isShutDown else { return false }
                origin.open += 1
                origin.connecting += 1
                return true
            }
            if reconnect { connect(origin, owner: nil) }
        }

        /// Opens a connection for the waiting calls of `origin`, already counted in its `open`.
        func reconnect(_ origin: OriginPool) {
            connect(origin, owner: nil)
        }

        /// How many connections are open, running a call or idle: what a test waits on to know the pool has seen a
        /// server close a connection.
        var openConnectionCount: Int {
            state.withLockedValue { $0.connections.count + $0.http2Connections.count }
        }

        // MARK: Shutdown

        /// Fails the waiting calls, closes every connection and waits for them to close; later calls fail.
        func shutdown() async throws {
            let (waiters, connections, http2) = state.withLockedValue { state -> ([NIOCall], [HTTP1Connection], [HTTP2Connection]) in
                state.isShutDown = true
                var waiters: [NIOCall] = []
                for origin in state.origins.values {
                    waiters += origin.waiters
                    origin.waiters.removeAll()
                }
                return (waiters, Array(state.connections.values), Array(state.http2Connections.values))
            }
            for waiter in waiters { waiter.finish(.failure(NIOTransportFailure.shutDown)) }
            for connection in connections {
                connection.close()
                try? await connection.channel.closeFuture.get()
            }
            for connection in http2 {
                connection.close()
                try? await connection.channel.closeFuture.get()
            }
        }
    }

    /// One origin's part of the pool: its idle connections, how many are open, and the calls waiting.
    // @unchecked Sendable: every property is read and written only under ConnectionPool's lock; connections hold a
    // reference to it (to find their origin without a look-up) but never touch it themselves.
    final class OriginPool: @unchecked Sendable {
        let key: OriginKey
        /// Connections waiting for a call, the most recently used last (reused first, so the others can idle out).
        var idle: [HTTP1Connection] = []
        /// Connections open or being opened, counted against the limit.
        var open = 0
        /// Calls waiting for a connection, in the order they came.
        var waiters = CircularBuffer<NIOCall>()
        /// HTTP/2 connections that take new streams (a draining one leaves), counted in ``open`` too.
        var http2: [HTTP2Connection] = []
        /// Connections being opened, counted in ``open`` too.
        var connecting = 0
        /// Whether a connection here negotiated HTTP/2 by ALPN: the next ones will too.
        var negotiatedHTTP2 = false

        /// Whether a connection closing leaves calls waiting that no connection being opened will take: each takes one
        /// at least, so a closed connection is replaced only past them (else one call may open two).
        var needsConnection: Bool { waiters.count > connecting }

        init(key: OriginKey) {
            self.key = key
        }
    }
#endif
