#if NIO
    import Testing

    @testable import RetroSwiftNIO

    /// The pool's decisions without a socket: each event given to ``ConnectionPoolStateMachine`` and the actions it
    /// returns, as text ("run 1 on 0": call 1 runs on connection 0).
    @Suite("NIOTransport's connection pool state machine")
    struct ConnectionPoolStateMachineTests {
        @Test("a call with nothing open opens a connection and runs on it; the next call reuses it")
        func firstCallConnects() {
            // Given a pool with nothing open
            var machine = PoolMachine.make()

            // When a call comes, its connection opens, and the call ends
            let leased = machine.lease(1, to: .plain)
            let connected = machine.connectedHTTP1(connection(0))
            let released = machine.released(connection(0))
            let next = machine.lease(2, to: .plain)

            // Then the call waits for one connection, runs on it, which idles, and the next call runs on it at once
            #expect(describe(leased) == ["wait 1", "connect 0 to plain"])
            #expect(describe(connected) == ["run 1 on 0"])
            #expect(describe(released) == ["idle 0"])
            #expect(describe(next) == ["run 2 on 0"])
        }

        @Test("calls past the limit wait, and the first connection free runs the first of them")
        func callsPastTheLimitWait() {
            // Given a pool of two connections per origin
            var machine = PoolMachine.make(connections: 2)

            // When three calls come at once and the connections open
            let leases = [1, 2, 3].map { describe(machine.lease($0, to: .plain)) }
            let first = machine.connectedHTTP1(connection(0))
            let second = machine.connectedHTTP1(connection(1))
            let released = machine.released(connection(0))

            // Then two connections open, the third call waits and runs on the first connection back
            #expect(leases == [["wait 1", "connect 0 to plain"], ["wait 2", "connect 1 to plain"], ["wait 3"]])
            #expect(describe(first) == ["run 1 on 0"])
            #expect(describe(second) == ["run 2 on 1"])
            #expect(describe(released) == ["run 3 on 0"])
            #expect(machine.openConnections(to: .plain) == 2)
        }

        @Test("a burst of calls with HTTP/2 prior knowledge opens one connection, and another past its streams")
        func priorKnowledgeBurstOpensOneConnection() {
            // Given an origin spoken to with HTTP/2 prior knowledge
            var machine = PoolMachine.make(connections: 2)

            // When five calls come before its connection opens, and its server allows two streams
            let leases = (1...5).map { describe(machine.lease($0, to: .h2c)) }
            let first = machine.connectedHTTP2(connection(0), maxStreams: 2)
            let second = machine.connectedHTTP2(connection(1), maxStreams: 100)

            // Then one connection opens for them all, takes two, and a second one opens for the other three
            #expect(leases == [["wait 1", "connect 0 to h2c"], ["wait 2"], ["wait 3"], ["wait 4"], ["wait 5"]])
            #expect(describe(first) == ["stream 1 on 0", "stream 2 on 0", "connect 1 to h2c"])
            #expect(describe(second) == ["stream 3 on 1", "stream 4 on 1", "stream 5 on 1"])
        }

        @Test("a fresh connection for a retry opens whatever the limit, and runs its call first")
        func freshConnectionIgnoresTheLimit() {
            // Given a pool of one connection per origin, busy
            var machine = PoolMachine.make(connections: 1)
            _ = machine.lease(1, to: .plain)
            _ = machine.connectedHTTP1(connection(0))

            // When a retry asks for a fresh connection, which opens
            let leased = machine.lease(2, to: .plain, freshConnection: true)
            let connected = machine.connectedHTTP1(connection(1))

            // Then it opens past the limit, for that call
            #expect(describe(leased) == ["wait 2", "connect 1 to plain for 2"])
            #expect(describe(connected) == ["run 2 on 1"])
            #expect(machine.openConnections(to: .plain) == 2)
        }

        @Test("streamed answers share an HTTP/2 connection with calls to the same origin, never an HTTP/1.1 one")
        func twinsShareHTTP2Only() {
            // Given an HTTP/2 connection and an idle HTTP/1.1 one, each to an origin of its own
            var machine = PoolMachine.make()
            _ = machine.lease(1, to: .h2c)
            _ = machine.connectedHTTP2(connection(0), maxStreams: 100)
            _ = machine.lease(2, to: .plain)
            _ = machine.connectedHTTP1(connection(1))
            _ = machine.released(connection(1))

            // When a streamed answer is asked of each origin
            let overHTTP2 = machine.lease(3, to: TestOrigin.h2c.twin)
            let overHTTP1 = machine.lease(4, to: TestOrigin.plain.twin)

            // Then the HTTP/2 connection carries it on a stream, and the HTTP/1.1 origin opens a connection of its own
            #expect(describe(overHTTP2) == ["stream 3 on 0"])
            #expect(describe(overHTTP1) == ["wait 4", "connect 2 to plain/streams"])
        }

        @Test("a closed connection is replaced only past the waiting calls a connection being opened will take")
        func closedConnectionReplacedOnlyPastConnecting() {
            // Given one connection running a call and one being opened for the call waiting
            var machine = PoolMachine.make(connections: 2)
            _ = machine.lease(1, to: .plain)
            _ = machine.lease(2, to: .plain)
            _ = machine.connectedHTTP1(connection(0))

            // When the running connection closes, then a call more comes
            let closed = machine.connectionClosed(connection(0))
            let third = machine.lease(3, to: .plain)

            // Then nothing opens in its place (the one being opened takes call 2), and call 3 opens one
            #expect(describe(closed) == [])
            #expect(describe(third) == ["wait 3", "connect 2 to plain"])
            #expect(describe(machine.connectedHTTP1(connection(1))) == ["run 2 on 1"])
        }

        @Test("a failed connect answers the first waiting call at once, and the next one gets an attempt after a backoff")
        func connectFailureAnswersOneCall() {
            // Given two calls waiting for the one connection allowed
            var machine = PoolMachine.make(connections: 1)
            _ = machine.lease(1, to: .plain)
            _ = machine.lease(2, to: .plain)

            // When the connection cannot be opened, and the backoff passes
            let failed = machine.connectFailed(connection(0), TestConnectFailure())
            let passed = machine.backoffPassed(connection(1))

            // Then the first call fails with that failure, and a connection opens for the second after 100 ms
            #expect(describe(failed) == ["fail 1: refused", "connect 1 to plain after 100 ms"])
            #expect(describe(passed) == ["connect 1 to plain"])
        }

        @Test("the backoff grows with each failed connect, holds new calls back, and a connection that opens resets it")
        func backoffGrowsAndResets() {
            // Given four calls waiting for the one connection allowed, whose connects fail twice
            var machine = PoolMachine.make(connections: 1)
            for call in 1...4 { _ = machine.lease(call, to: .plain) }
            let first = machine.connectFailed(connection(0), TestConnectFailure())
            let during = machine.lease(5, to: .plain)
            _ = machine.backoffPassed(connection(1))
            let second = machine.connectFailed(connection(1), TestConnectFailure())
            _ = machine.backoffPassed(connection(2))

            // When the third opens, closes, and the connect in its place fails
            let connected = machine.connectedHTTP1(connection(2))
            let closed = machine.connectionClosed(connection(2))
            let third = machine.connectFailed(connection(3), TestConnectFailure())

            // Then the waits are 100 ms, then 150 ms; a call during one waits for it; after the success, 100 ms again
            #expect(describe(first) == ["fail 1: refused", "connect 1 to plain after 100 ms"])
            #expect(describe(during) == ["wait 5"])
            #expect(describe(second) == ["fail 2: refused", "connect 2 to plain after 150 ms"])
            #expect(describe(connected) == ["run 3 on 2"])
            #expect(describe(closed) == ["connect 3 to plain"])
            #expect(describe(third) == ["fail 4: refused", "connect 4 to plain after 100 ms"])
        }

        @Test("the backoff is capped, and its jitter draws each wait between half and all of its step")
        func backoffCappedWithJitter() {
            // Given backoffs with the least and the most jitter
            let least = PoolMachine.make(jitter: { 0.999_999 }).configuration.backoff
            let most = PoolMachine.make(jitter: { 0 }).configuration.backoff

            // When many connects failed one after the other
            let capped = least.delay(afterFailures: 40)
            let halved = most.delay(afterFailures: 2)

            // Then the wait is at most 3 s, and at least half its step
            #expect(capped <= .seconds(3) && capped > .milliseconds(2_999))
            #expect(halved == .milliseconds(75))
        }

        @Test("a backoff that passes with no call waiting any more opens nothing")
        func backoffWithoutCalls() {
            // Given a call waiting for the backoff after a failed connect
            var machine = PoolMachine.make(connections: 1)
            _ = machine.lease(1, to: .plain)
            _ = machine.lease(2, to: .plain)
            _ = machine.connectFailed(connection(0), TestConnectFailure())

            // When its deadline passes, then the backoff
            let expired = machine.deadlinePassed(2, to: .plain)
            let passed = machine.backoffPassed(connection(1))

            // Then it fails with a timeout, and no connection is opened or left counted
            #expect(describe(expired) == ["fail 2: timed out"])
            #expect(describe(passed) == [])
            #expect(machine.openConnections(to: .plain) == 0)
        }

        @Test("a fresh connection that fails answers its own call only")
        func freshConnectFailureAnswersItsCall() {
            // Given a call waiting and a retry's fresh connection being opened
            var machine = PoolMachine.make(connections: 1)
            _ = machine.lease(1, to: .plain)
            _ = machine.connectedHTTP1(connection(0))
            _ = machine.lease(2, to: .plain)
            _ = machine.lease(3, to: .plain, freshConnection: true)

            // When the fresh connection cannot be opened
            let failed = machine.connectFailed(connection(1), TestConnectFailure())

            // Then its call fails, and the waiting call still waits
            #expect(describe(failed) == ["fail 3: refused"])
            #expect(machine.waitingCalls(to: .plain) == 1)
        }

        @Test("a call past its deadline fails if it still waits, and never once it runs")
        func deadlineFailsOnlyWaitingCalls() {
            // Given a call running and one waiting, and a retry's fresh connection being opened
            var machine = PoolMachine.make(connections: 1)
            _ = machine.lease(1, to: .plain)
            _ = machine.lease(2, to: .plain)
            _ = machine.connectedHTTP1(connection(0))
            _ = machine.lease(3, to: .plain, freshConnection: true)

            // When each one's deadline passes, then the fresh connection opens
            let running = machine.deadlinePassed(1, to: .plain)
            let waiting = machine.deadlinePassed(2, to: .plain)
            let owner = machine.deadlinePassed(3, to: .plain)
            let connected = machine.connectedHTTP1(connection(1))

            // Then the waiting ones fail with a timeout, and the fresh connection, its call gone, idles
            #expect(describe(running) == [])
            #expect(describe(waiting) == ["fail 2: timed out"])
            #expect(describe(owner) == ["fail 3: timed out"])
            #expect(describe(connected) == ["idle 1"])
        }

        @Test("a cancelled waiting call leaves the queue without an answer from the pool")
        func cancelledCallLeavesTheQueue() {
            // Given a call waiting behind a busy connection
            var machine = PoolMachine.make(connections: 1)
            _ = machine.lease(1, to: .plain)
            _ = machine.connectedHTTP1(connection(0))
            _ = machine.lease(2, to: .plain)

            // When its task cancels it, and the connection comes free
            machine.cancelled(2, to: .plain)
            let released = machine.released(connection(0))

            // Then the connection idles
            #expect(describe(released) == ["idle 0"])
        }

        @Test("after GOAWAY a connection takes no new stream and closes with its last one")
        func goAwayDrains() {
            // Given an HTTP/2 connection carrying one call
            var machine = PoolMachine.make()
            _ = machine.lease(1, to: .h2c)
            _ = machine.connectedHTTP2(connection(0), maxStreams: 100)

            // When its server sends GOAWAY, another call comes, and the first call's stream closes
            let goingAway = machine.goingAway(connection(0))
            let next = machine.lease(2, to: .h2c)
            let closed = machine.streamClosed(on: connection(0))

            // Then the new call gets a new connection, and the old one closes
            #expect(describe(goingAway) == [])
            #expect(describe(next) == ["wait 2", "connect 1 to h2c"])
            #expect(describe(closed) == ["close 0"])
        }

        @Test("a SETTINGS frame that raises the streams lets waiting calls onto the connection")
        func settingsRaiseStreams() {
            // Given one HTTP/2 connection allowed, whose server allows one stream, and a call waiting
            var machine = PoolMachine.make(connections: 1)
            _ = machine.lease(1, to: .h2c)
            _ = machine.lease(2, to: .h2c)
            let connected = machine.connectedHTTP2(connection(0), maxStreams: 1)

            // When the server allows two
            let changed = machine.settingsChanged(on: connection(0), maxStreams: 2)

            // Then the waiting call gets the new stream
            #expect(describe(connected) == ["stream 1 on 0"])
            #expect(describe(changed) == ["stream 2 on 0"])
        }

        @Test("a SETTINGS frame that lowers the streams below those open: a stream that closes frees no place")
        func settingsLowerStreams() {
            // Given one HTTP/2 connection allowed carrying two calls, and a call waiting
            var machine = PoolMachine.make(connections: 1)
            _ = machine.lease(1, to: .h2c)
            _ = machine.lease(2, to: .h2c)
            _ = machine.connectedHTTP2(connection(0), maxStreams: 2)
            _ = machine.lease(3, to: .h2c)

            // When the server allows one stream, and the calls' streams close one after the other
            let changed = machine.settingsChanged(on: connection(0), maxStreams: 1)
            let firstClosed = machine.streamClosed(on: connection(0))
            let secondClosed = machine.streamClosed(on: connection(0))

            // Then the waiting call starts only once one stream is left open
            #expect(describe(changed) == [])
            #expect(describe(firstClosed) == [])
            #expect(describe(secondClosed) == ["stream 3 on 0"])
        }

        @Test("the idle timeout closes an idle connection only, and a connection the server closed is never handed out")
        func idleConnections() {
            // Given two idle connections
            var machine = PoolMachine.make(connections: 2)
            _ = machine.lease(1, to: .plain)
            _ = machine.lease(2, to: .plain)
            _ = machine.connectedHTTP1(connection(0))
            _ = machine.connectedHTTP1(connection(1))
            let busy = machine.idleTimeoutPassed(connection(0))
            _ = machine.released(connection(0))
            _ = machine.released(connection(1))

            // When a call comes while the server has closed the most recent one, then the other idles out
            let leased = machine.lease(3, to: .plain, isAlive: { $0 != connection(1) })
            _ = machine.released(connection(0))
            let idle = machine.idleTimeoutPassed(connection(0))

            // Then the busy connection stayed open, the call ran on the live one, which then closed
            #expect(describe(busy) == [])
            #expect(describe(leased) == ["run 3 on 0"])
            #expect(describe(idle) == ["close 0"])
        }

        @Test("shutdown fails every waiting call and closes every connection; later calls and connections end at once")
        func shutdown() {
            // Given a call running, one waiting, and one a fresh connection is being opened for
            var machine = PoolMachine.make(connections: 1)
            _ = machine.lease(1, to: .plain)
            _ = machine.connectedHTTP1(connection(0))
            _ = machine.lease(2, to: .plain)
            _ = machine.lease(3, to: .plain, freshConnection: true)

            // When the pool shuts down, then a call comes, the fresh connection opens and the running call ends
            let shutdown = machine.shutdown()
            let later = machine.lease(4, to: .plain)
            let connected = machine.connectedHTTP1(connection(1))
            let released = machine.released(connection(0))

            // Then every call not running fails, and every connection closes
            #expect(describe(shutdown) == ["fail 2: shut down", "close 0", "fail 3: shut down"])
            #expect(describe(later) == ["fail 4: shut down"])
            #expect(describe(connected) == ["close 1"])
            #expect(describe(released) == ["close 0"])
        }
    }
#endif
