#if NIO
    import NIOConcurrencyHelpers
    import NIOCore
    import NIOPosix

    /// The transport's connections, one pool per ``OriginKey``: at most `connectionsPerOrigin` of them (streams have an
    /// allowance of their own), reused while they stay open, closed after `idleTimeout` unused, and a FIFO of calls
    /// waiting for one, each until its head deadline.
    ///
    /// Its state is behind one lock, touched briefly by calls from any thread and by connections from their event loops;
    /// connections and calls are told what to do after the lock is released.
    final class ConnectionPool: Sendable {
        /// What the pool was configured with.
        struct Settings: Sendable {
            var group: any EventLoopGroup
            var connectionsPerOrigin: Int
            var streamConnectionsPerOrigin: Int
            var idleTimeout: TimeAmount
            var connectTimeout: TimeAmount
        }

        private struct Origin {
            /// Connections waiting for a call, the most recently used last (reused first, so the others can idle out).
            var idle: [HTTP1Connection] = []
            /// Connections open or being opened, counted against the limit.
            var open = 0
            /// Calls waiting for a connection, in the order they came.
            var waiters = CircularBuffer<NIOCall>()
        }

        private struct State {
            var origins: [OriginKey: Origin] = [:]
            /// Every connection open, to close them at shutdown.
            var connections: [ObjectIdentifier: HTTP1Connection] = [:]
            var isShutDown = false
        }

        let settings: Settings
        let tls: TLSConnector
        private let state = NIOLockedValueBox(State())

        init(settings: Settings, tls: TLSConnector) {
            self.settings = settings
            self.tls = tls
        }

        private func limit(of key: OriginKey) -> Int {
            key.forStreams ? settings.streamConnectionsPerOrigin : settings.connectionsPerOrigin
        }

        // MARK: Calls

        /// Finds `call` a connection: an idle one, a new one while the origin is under its limit, or else the first that
        /// comes free; it then runs on it. `freshConnection` opens one of its own for it whatever the limit (the one
        /// retry of a request whose reused connection failed).
        func lease(_ call: NIOCall, freshConnection: Bool = false) {
            enum Next {
                case run(HTTP1Connection)
                case connect(owner: NIOCall?)
                case wait
                case fail(NIOTransportFailure)
            }
            let key = call.request.origin
            let next = state.withLockedValue { state -> Next in
                if state.isShutDown { return .fail(.shutDown) }
                var origin = state.origins[key] ?? Origin()
                defer { state.origins[key] = origin }
                if freshConnection {
                    origin.open += 1
                    return .connect(owner: call)
                }
                while let connection = origin.idle.popLast() {
                    // A connection the server closed while idle is never handed out, even before its handler has seen
                    // the close and removed it.
                    if connection.channel.isActive { return .run(connection) }
                }
                origin.waiters.append(call)
                if origin.open < limit(of: key) {
                    origin.open += 1
                    return .connect(owner: nil)
                }
                return .wait
            }
            switch next {
            case .run(let connection):
                connection.run(call)
            case .connect(let owner):
                startWaiting(call)
                connect(key, owner: owner)
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
                let key = call.request.origin
                guard var origin = state.origins[key], let index = origin.waiters.firstIndex(where: { $0 === call }) else {
                    return false
                }
                origin.waiters.remove(at: index)
                state.origins[key] = origin
                return true
            }
        }

        // MARK: Connections

        private func connect(_ key: OriginKey, owner: NIOCall?) {
            let eventLoop = settings.group.next()
            HTTP1Connection.connect(to: key, on: eventLoop, pool: self) { [self] result in
                switch result {
                case .success(let connection): connected(connection, owner: owner)
                case .failure(let failure): connectFailed(key, failure, owner: owner)
                }
            }
        }

        private func connected(_ connection: HTTP1Connection, owner: NIOCall?) {
            let accepted = state.withLockedValue { state -> Bool in
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

        private func connectFailed(_ key: OriginKey, _ failure: NIOTransportFailure, owner: NIOCall?) {
            // The failure answers the call that asked for the connection, or the first waiting; the next waiting call,
            // if any, gets an attempt of its own, so that every call learns the outcome promptly.
            let (failed, reconnect) = state.withLockedValue { state -> (NIOCall?, Bool) in
                guard var origin = state.origins[key] else { return (owner, false) }
                origin.open -= 1
                defer {
                    // An origin nobody reaches leaves no entry behind.
                    let isEmpty = origin.open == 0 && origin.waiters.isEmpty && origin.idle.isEmpty
                    state.origins[key] = isEmpty ? nil : origin
                }
                if let owner { return (owner, false) }
                let failed = origin.waiters.popFirst()
                guard !origin.waiters.isEmpty, origin.open < limit(of: key), !state.isShutDown else { return (failed, false) }
                origin.open += 1
                return (failed, true)
            }
            failed?.finish(.failure(failure))
            if reconnect { connect(key, owner: nil) }
        }

        /// A connection is free again: it runs the first waiting call, or waits for one.
        func release(_ connection: HTTP1Connection) {
            enum Next {
                case run(NIOCall)
                case idle
                case close
            }
            let key = connection.key
            let next = state.withLockedValue { state -> Next in
                guard !state.isShutDown, var origin = state.origins[key] else { return .close }
                defer { state.origins[key] = origin }
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
            let removed = state.withLockedValue { state -> Bool in
                let key = connection.key
                guard var origin = state.origins[key], let index = origin.idle.firstIndex(where: { $0 === connection }) else {
                    return false
                }
                origin.idle.remove(at: index)
                state.origins[key] = origin
                return true
            }
            if removed { connection.close() }
        }

        /// `connection` closed, or will: it leaves the pool, and a waiting call may get a new one in its place.
        func remove(_ connection: HTTP1Connection) {
            let key = connection.key
            let reconnect = state.withLockedValue { state -> Bool in
                guard state.connections.removeValue(forKey: ObjectIdentifier(connection)) != nil else { return false }
                guard var origin = state.origins[key] else { return false }
                defer {
                    if origin.open == 0 && origin.waiters.isEmpty && origin.idle.isEmpty {
                        state.origins[key] = nil
                    } else {
                        state.origins[key] = origin
                    }
                }
                origin.open -= 1
                origin.idle.removeAll { $0 === connection }
                guard !origin.waiters.isEmpty, origin.open < limit(of: key), !state.isShutDown else { return false }
                origin.open += 1
                return true
            }
            if reconnect { connect(key, owner: nil) }
        }

        // MARK: Shutdown

        /// Fails the waiting calls, closes every connection and waits for them to close; later calls fail.
        func shutdown() async throws {
            let (waiters, connections) = state.withLockedValue { state -> ([NIOCall], [HTTP1Connection]) in
                state.isShutDown = true
                let waiters = state.origins.values.flatMap { Array($0.waiters) }
                for key in state.origins.keys { state.origins[key]?.waiters.removeAll() }
                return (waiters, Array(state.connections.values))
            }
            for waiter in waiters { waiter.finish(.failure(NIOTransportFailure.shutDown)) }
            for connection in connections {
                connection.close()
                try? await connection.channel.closeFuture.get()
            }
        }
    }
#endif
