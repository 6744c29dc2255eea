#if NIO
    import NIOConcurrencyHelpers
    import NIOCore
    import NIOPosix

    /// The transport's connections, per ``OriginKey``: at most `connectionsPerOrigin` of them (streams have an allowance
    /// of their own), reused while they stay open, closed after `idleTimeout` unused, and a FIFO of calls waiting for
    /// one, each until its head deadline.
    ///
    /// The decisions are ``ConnectionPoolStateMachine``'s, a value behind one lock, touched briefly by calls from any
    /// thread and by connections from their event loops; this shell turns each event into the machine's, and runs the
    /// actions it returns (run a call, start a stream, open or close a connection, fail a call) after the lock is
    /// released.
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

        typealias Machine = ConnectionPoolStateMachine<OriginKey, PooledCall, NIOTransportFailure>

        /// A connection the machine knows by its id.
        enum PooledConnection: Sendable {
            case http1(HTTP1Connection)
            case http2(HTTP2Connection)

            var channel: any Channel {
                switch self {
                case .http1(let connection): connection.channel
                case .http2(let connection): connection.channel
                }
            }
        }

        struct State: Sendable {
            var machine: Machine
            /// Every connection open, by the id the machine gave it: to run its actions, and to close them at shutdown.
            var connections: [ConnectionID: PooledConnection] = [:]
        }

        let settings: Settings
        let tls: TLSConnector
        let state: NIOLockedValueBox<State>

        init(settings: Settings, tls: TLSConnector) {
            self.settings = settings
            self.tls = tls
            let version = settings.httpVersion
            let configuration = Machine.Configuration(
                connectionsPerOrigin: settings.connectionsPerOrigin,
                streamConnectionsPerOrigin: settings.streamConnectionsPerOrigin,
                speaksHTTP2WithPriorKnowledge: { key in
                    // With prior knowledge to a plain origin reached directly or through a tunnel; a forward proxy takes
                    // HTTP/1.1 requests only.
                    version == .http2PriorKnowledge && !key.isTLS && !Self.isForwarded(key)
                },
                assumedStreams: HTTP2Connection.assumedStreams)
            self.state = NIOLockedValueBox(State(machine: Machine(configuration: configuration)))
        }

        /// Whether `key`'s requests go to a forward proxy rather than through a tunnel.
        static func isForwarded(_ key: OriginKey) -> Bool {
            key.proxy.map { !ProxyRoute.tunnels(key, through: $0) } ?? false
        }

        /// Whether a connection's channel may take a call: one the server closed is never handed out, even before its
        /// handler has seen the close and removed it (but for the mutant that keeps handing HTTP/2 ones out).
        func aliveness(_ connections: [ConnectionID: PooledConnection]) -> (ConnectionID) -> Bool {
            let ignoresEnd = settings.http2Fault == .ignoresConnectionEnd
            return { id in
                switch connections[id] {
                case .http1(let connection): connection.channel.isActive
                case .http2(let connection): ignoresEnd || connection.channel.isActive
                case nil: false
                }
            }
        }

        // MARK: Calls

        /// Finds `call` a connection: an idle one, a new one while the origin is under its limit, or else the first that
        /// comes free; it then runs on it. `freshConnection` opens one of its own for it whatever the limit (the one
        /// retry of a request whose reused connection failed).
        func lease(_ call: NIOCall, freshConnection: Bool = false) {
            let (actions, connections) = state.withLockedValue { state in
                let connections = state.connections
                let actions = state.machine.lease(
                    PooledCall(call), to: call.request.origin, freshConnection: freshConnection,
                    isAlive: aliveness(connections))
                return (actions, connections)
            }
            execute(actions, connections, connectingOn: call.callersEventLoop)
        }

        /// The event loop the calling thread runs, when it is one of the pool's group (a task inside
        /// `NIOTransport.withCallsOnEventLoop`); `nil` on any other thread.
        func callersEventLoop() -> (any EventLoop)? {
            guard let current = MultiThreadedEventLoopGroup.currentEventLoop else { return nil }
            return settings.group.makeIterator().contains { $0 === current } ? current : nil
        }

        /// The calling task was cancelled while `call` waited.
        func forget(_ call: NIOCall) {
            state.withLockedValue { $0.machine.cancelled(PooledCall(call), to: call.request.origin) }
        }

        /// `call`'s head deadline passed: it fails if it still waits.
        private func deadlinePassed(_ call: NIOCall) {
            let actions = state.withLockedValue { $0.machine.deadlinePassed(PooledCall(call), to: call.request.origin) }
            execute(actions, [:])
        }

        /// Arms the timer that fails `call` if no connection takes it before its head deadline, whether it waits in
        /// the queue or for a connection being opened for it.
        private func startWaiting(_ call: NIOCall) {
            let timer = settings.group.any().scheduleTask(deadline: call.headDeadline) { [self] in
                deadlinePassed(call)
            }
            if !call.wait(timer: timer) {
                // Taken by a connection already, or over: the timer has nothing to do.
                timer.cancel()
            }
        }

        // MARK: Connections

        /// Opens connection `id` to `key` on `eventLoop`.
        private func connect(_ key: OriginKey, id: ConnectionID, on eventLoop: any EventLoop) {
            let origin = PooledOrigin(key: key, connection: id)
            let version = settings.httpVersion
            if version != .http1Only, !Self.isForwarded(key), key.isTLS || version == .http2PriorKnowledge {
                // HTTP/2 by ALPN over TLS (or HTTP/1.1 if the server picks it), or with prior knowledge; a forward proxy
                // takes HTTP/1.1 requests only.
                HTTP2Connection.connect(to: origin, on: eventLoop, pool: self) { [self] result in
                    switch result {
                    case .success(.http1(let connection)): connected(connection)
                    case .success(.http2(let connection)): connected(connection)
                    case .failure(let failure): connectFailed(id, failure)
                    }
                }
                return
            }
            HTTP1Connection.connect(to: origin, on: eventLoop, pool: self) { [self] result in
                switch result {
                case .success(let connection): connected(connection)
                case .failure(let failure): connectFailed(id, failure)
                }
            }
        }

        private func connected(_ connection: HTTP1Connection) {
            let id = connection.origin.connection
            let (actions, connections) = state.withLockedValue { state in
                state.connections[id] = .http1(connection)
                return (state.machine.connectedHTTP1(id), state.connections)
            }
            execute(actions, connections)
        }

        private func connectFailed(_ id: ConnectionID, _ failure: NIOTransportFailure) {
            let actions = state.withLockedValue { $0.machine.connectFailed(id, failure) }
            execute(actions, [:])
        }

        /// A connection is free again: it runs the first waiting call, or waits for one.
        func release(_ connection: HTTP1Connection) {
            let actions = state.withLockedValue { $0.machine.released(connection.origin.connection) }
            execute(actions, [connection.origin.connection: .http1(connection)])
        }

        /// Closes `connection` if it is still idle: its idle timeout passed.
        func closeIfIdle(_ connection: HTTP1Connection) {
            let actions = state.withLockedValue { $0.machine.idleTimeoutPassed(connection.origin.connection) }
            execute(actions, [connection.origin.connection: .http1(connection)])
        }

        /// `connection` closed, or will: it leaves the pool, and a waiting call may get a new one in its place.
        func remove(_ connection: HTTP1Connection) {
            removed(connection.origin.connection)
        }

        func removed(_ id: ConnectionID) {
            let actions = state.withLockedValue { state in
                guard state.connections.removeValue(forKey: id) != nil else { return Machine.Actions() }
                return state.machine.connectionClosed(id)
            }
            execute(actions, [:])
        }

        /// How many connections are open, running a call or idle: what a test waits on to know the pool has seen a
        /// server close a connection.
        var openConnectionCount: Int {
            state.withLockedValue { $0.connections.count }
        }

        /// The event loops of the open connections; for tests.
        var openConnectionEventLoops: [any EventLoop] {
            state.withLockedValue { $0.connections.values.map(\.channel.eventLoop) }
        }

        // MARK: Actions

        /// Runs the machine's actions, after the lock; `connections` is the pool's map of them as the event left it. A
        /// connection opened is made on `connectingOn` when given (the event loop of the task whose call asked for it, so
        /// that its answers reach the task on the thread that reads them), else on the group's next.
        func execute(
            _ actions: Machine.Actions, _ connections: [ConnectionID: PooledConnection], connectingOn: (any EventLoop)? = nil
        ) {
            for action in actions {
                switch action {
                case .run(let call, let id):
                    if case .http1(let connection) = connections[id] {
                        connection.run(call.call)
                    } else {
                        // Gone in the meantime: nothing of the call was written.
                        lease(call.call)
                    }
                case .startStream(let call, let id):
                    if case .http2(let connection) = connections[id] {
                        connection.startStream(call.call)
                    } else {
                        lease(call.call)
                    }
                case .wait(let call):
                    startWaiting(call.call)
                case .connect(let key, let id, _):
                    connect(key, id: id, on: connectingOn ?? settings.group.next())
                case .connectLater(_, let id, let delay):
                    settings.group.any().scheduleTask(in: delay) { [self] in
                        execute(state.withLockedValue { $0.machine.backoffPassed(id) }, [:])
                    }
                case .fail(let call, let failure):
                    switch failure {
                    case .shutDown: call.call.finish(.failure(NIOTransportFailure.shutDown))
                    case .timedOut: call.call.finish(.failure(NIOTransportFailure.timedOut))
                    case .connectFailed(let failure): call.call.finish(.failure(failure))
                    }
                case .close(let id):
                    switch connections[id] {
                    case .http1(let connection): connection.close()
                    case .http2(let connection): connection.close()
                    case nil: break
                    }
                case .becameIdle(let id):
                    switch connections[id] {
                    case .http1(let connection): connection.becameIdle()
                    case .http2(let connection): connection.becameIdle()
                    case nil: break
                    }
                }
            }
        }

        // MARK: Shutdown

        /// Fails the waiting calls, closes every connection and waits for them to close; later calls fail.
        func shutdown() async throws {
            let (actions, connections) = state.withLockedValue { state in
                (state.machine.shutdown(), state.connections)
            }
            execute(actions, connections)
            for connection in connections.values {
                try? await connection.channel.closeFuture.get()
            }
        }
    }

    /// A call as the pool's machine knows it: the same object, the same call.
    struct PooledCall: Hashable, Sendable {
        let call: NIOCall

        init(_ call: NIOCall) {
            self.call = call
        }

        static func == (lhs: PooledCall, rhs: PooledCall) -> Bool {
            lhs.call === rhs.call
        }

        func hash(into hasher: inout Hasher) {
            hasher.combine(ObjectIdentifier(call))
        }
    }

    /// What a connection of the pool knows of it: where it goes, and its name in the pool.
    struct PooledOrigin: Sendable {
        let key: OriginKey
        let connection: ConnectionID
    }
#endif
