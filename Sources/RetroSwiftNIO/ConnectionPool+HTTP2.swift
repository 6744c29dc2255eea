#if NIO
    import NIOCore

    /// The pool's HTTP/2 events: each connection carries calls up to its server's `SETTINGS_MAX_CONCURRENT_STREAMS`, one
    /// per stream; past it ``ConnectionPool/lease(_:freshConnection:)`` opens another (up to the connections per origin)
    /// before a call waits. A connection the server sent GOAWAY on takes no new stream and closes once its streams end.
    /// The counting is ``ConnectionPoolStateMachine``'s.
    extension ConnectionPool {
        /// A new HTTP/2 connection is ready: it takes the call that asked for it, then the waiting calls, up to its
        /// streams.
        func connected(_ connection: HTTP2Connection) {
            let id = connection.origin.connection
            let (actions, connections) = state.withLockedValue { state in
                state.connections[id] = .http2(connection)
                let connections = state.connections
                let actions = state.machine.connectedHTTP2(
                    id, maxStreams: connection.maxStreams, isAlive: aliveness(connections))
                return (actions, connections)
            }
            execute(actions, connections)
        }

        /// A stream of `connection` closed: the first waiting call takes its place, or the connection idles, or, when
        /// draining, closes with its last stream.
        func streamClosed(on connection: HTTP2Connection) {
            let id = connection.origin.connection
            let actions = state.withLockedValue { $0.machine.streamClosed(on: id) }
            execute(actions, [id: .http2(connection)])
        }

        /// The server's SETTINGS changed how many streams `connection` may carry: waiting calls take any new room.
        func settingsChanged(on connection: HTTP2Connection, maxStreams: Int) {
            let id = connection.origin.connection
            let actions = state.withLockedValue { state in
                let isAlive = aliveness(state.connections)
                return state.machine.settingsChanged(on: id, maxStreams: maxStreams, isAlive: isAlive)
            }
            execute(actions, [id: .http2(connection)])
        }

        /// The server sent GOAWAY on `connection`: it takes no new stream, and closes once its streams have ended.
        func goingAway(_ connection: HTTP2Connection) {
            let id = connection.origin.connection
            let actions = state.withLockedValue { $0.machine.goingAway(id) }
            execute(actions, [id: .http2(connection)])
        }

        /// Closes `connection` if it still runs no stream: its idle timeout passed.
        func closeIfIdle(_ connection: HTTP2Connection) {
            let id = connection.origin.connection
            let actions = state.withLockedValue { $0.machine.idleTimeoutPassed(id) }
            execute(actions, [id: .http2(connection)])
        }

        /// `connection` closed: it leaves the pool, and a waiting call may get a new one in its place.
        func remove(_ connection: HTTP2Connection) {
            removed(connection.origin.connection)
        }
    }
#endif
