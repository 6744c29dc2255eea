#if NIO
    import NIOCore

    /// A connection of the pool, named by the pool's state machine when it asks for it to be opened.
    struct ConnectionID: Hashable, Sendable, CustomStringConvertible {
        let value: Int

        var description: String { "connection \(value)" }
    }

    /// What the pool's state machine needs of an origin: connections to one are never used for another, but streamed
    /// answers and ordinary calls to the same place (twins) share HTTP/2 connections.
    protocol PoolOrigin: Hashable, Sendable {
        /// Whether the calls here are streamed responses, counted against their own limit of connections.
        var forStreams: Bool { get }
        /// The same place for the other kind of call.
        var twin: Self { get }
    }

    extension OriginKey: PoolOrigin {
        var twin: OriginKey {
            var twin = self
            twin.forStreams.toggle()
            return twin
        }
    }

    /// The connection pool's decisions as a value: each event (a call leased, a connection opened or failed, a call
    /// released, a stream closed, a deadline passed, shutdown…) changes the state and returns what to do once the lock is
    /// released. It knows no channel and no call object: calls are values of `Call`, connections are ``ConnectionID``s,
    /// so that every order of events can be tried without a socket (ConnectionPoolStateMachineTests).
    ///
    /// Per origin: at most the configured connections open or being opened (a fresh connection for a retry excepted),
    /// idle HTTP/1.1 connections reused most recent first, HTTP/2 connections carrying calls up to their server's
    /// `SETTINGS_MAX_CONCURRENT_STREAMS`, and a FIFO of waiting calls. Origins are kept in slots, and a lease compares
    /// its origin with the last one's before it hashes anything (an `OriginKey`'s `ServerTrust` hashes every byte of its
    /// certificates).
    struct ConnectionPoolStateMachine<Origin: PoolOrigin, Call: Hashable & Sendable, ConnectFailure: Error & Sendable>: Sendable {
        /// What the machine was configured with.
        struct Configuration: Sendable {
            var connectionsPerOrigin: Int
            var streamConnectionsPerOrigin: Int
            /// Whether a connection opened to an origin where none negotiated HTTP/2 yet will speak it (prior knowledge).
            var speaksHTTP2WithPriorKnowledge: @Sendable (Origin) -> Bool = { _ in false }
            /// The streams a connection being opened that will speak HTTP/2 is taken to carry until its server says
            /// (RFC 9113 §6.5.2 recommends no fewer than 100).
            var assumedStreams = 100
            /// How long the next connect waits after connects to an origin failed.
            var backoff = Backoff()
        }

        /// The wait before the next connect for an origin's waiting calls after its connects failed one after the other:
        /// `initial`, then `multiplier` times more after each failure, at most `maximum`, each drawn between half and
        /// all of that (jitter, so that clients that failed together do not all come back at once). A success resets it.
        struct Backoff: Sendable {
            var initial: TimeAmount = .milliseconds(100)
            var multiplier = 1.5
            var maximum: TimeAmount = .seconds(3)
            /// A number in `0..<1` for each wait: its jitter.
            var random: @Sendable () -> Double = { Double.random(in: 0..<1) }

            /// The wait after `failures` consecutive failures (1 or more).
            func delay(afterFailures failures: Int) -> TimeAmount {
                let maximum = Double(maximum.nanoseconds)
                var step = Double(initial.nanoseconds)
                for _ in 1..<max(failures, 1) where step < maximum { step *= multiplier }
                step = min(step, maximum)
                return .nanoseconds(Int64(step * (0.5 + 0.5 * random())))
            }
        }

        /// Why the machine fails a call.
        enum Failure: Sendable {
            case shutDown
            /// Its deadline passed while it waited.
            case timedOut
            /// The connection opened for it, or the one it waited for, could not be opened.
            case connectFailed(ConnectFailure)
        }

        /// What the shell does after the lock, in order.
        enum Action: Sendable {
            /// Runs the call on an HTTP/1.1 connection, now busy with it.
            case run(Call, on: ConnectionID)
            /// Runs the call on a new stream of an HTTP/2 connection, counted already.
            case startStream(Call, on: ConnectionID)
            /// Arms the call's deadline: it waits for a connection.
            case wait(Call)
            /// Opens a connection to the origin, named `id`; `owner` runs on it first (a fresh connection's call).
            case connect(Origin, ConnectionID, owner: Call?)
            /// Tells the machine ``ConnectionPoolStateMachine/backoffPassed(_:)`` after the delay: connects to the
            /// origin failed, and the next attempt waits.
            case connectLater(Origin, ConnectionID, after: TimeAmount)
            case fail(Call, Failure)
            case close(ConnectionID)
            /// The connection runs nothing: its idle timer starts.
            case becameIdle(ConnectionID)
        }

        /// The actions of one event: most events have one or none, so the first is kept without an array.
        struct Actions: Sendable, Sequence {
            private var first: Action?
            private var rest: [Action] = []

            init() {}

            mutating func append(_ action: Action) {
                if first == nil { first = action } else { rest.append(action) }
            }

            var isEmpty: Bool { first == nil }

            func makeIterator() -> Iterator {
                Iterator(first: first, rest: rest.makeIterator())
            }

            struct Iterator: IteratorProtocol {
                var first: Action?
                var rest: IndexingIterator<[Action]>

                mutating func next() -> Action? {
                    if let action = first {
                        first = nil
                        return action
                    }
                    return rest.next()
                }
            }
        }

        private struct OriginState: Sendable {
            let key: Origin
            /// Idle HTTP/1.1 connections, the most recently used last (reused first, so the others can idle out).
            var idle: [ConnectionID] = []
            /// Connections open or being opened, counted against the limit.
            var open = 0
            /// Connections being opened, counted in ``open`` too.
            var connecting = 0
            /// Calls waiting for a connection, in the order they came.
            var waiters = CircularBuffer<Call>()
            /// HTTP/2 connections that take new streams (a draining one leaves), counted in ``open`` too.
            var http2: [ConnectionID] = []
            /// Whether a connection here negotiated HTTP/2 by ALPN: the next ones will too.
            var negotiatedHTTP2 = false
            /// Connects here that failed one after the other: the next waits for ``Backoff``.
            var failures = 0
            /// Connections waiting for their backoff to pass, counted in ``connecting`` too: calls wait for them.
            var backingOff = 0

            /// Whether calls wait that no connection being opened will take: each takes one at least, so a closed
            /// connection is replaced only past them (else one call may open two).
            var needsConnection: Bool { waiters.count > connecting }

            var isUnused: Bool { open == 0 && waiters.isEmpty && idle.isEmpty }
        }

        private enum ConnectionState: Sendable {
            /// Being opened; `owner` runs on it first, if it is still waiting.
            case connecting(owner: Call?)
            /// To be opened once the backoff after failed connects has passed.
            case backingOff
            /// HTTP/1.1: one call at a time.
            case http1(idle: Bool)
            /// HTTP/2: `active` streams of at most `maxStreams`; a draining one takes no new stream.
            case http2(active: Int, maxStreams: Int, draining: Bool)
        }

        private struct Connection: Sendable {
            let origin: Int
            var state: ConnectionState
        }

        let configuration: Configuration
        private var slots: [OriginState?] = []
        private var freeSlots: [Int] = []
        private var slotOf: [Origin: Int] = [:]
        private var lastSlot: Int?
        private var connections: [ConnectionID: Connection] = [:]
        private var nextConnection = 0
        /// HTTP/2 connections open: while there are none, a lease looks for none (nor hashes the twin origin).
        private var http2Count = 0
        private(set) var isShutDown = false

        init(configuration: Configuration) {
            self.configuration = configuration
        }

        // MARK: Calls

        /// A call wants a connection: an HTTP/2 connection with a stream to spare, an idle one, a new one while the
        /// origin is under its limit, or else the first that comes free. `freshConnection` opens one of its own for it
        /// whatever the limit (the one retry of a request whose reused connection failed). `isAlive` says whether a
        /// connection's channel is still open: one the server closed is never handed out, even before it is removed.
        mutating func lease(
            _ call: Call, to key: Origin, freshConnection: Bool = false, isAlive: (ConnectionID) -> Bool = { _ in true }
        ) -> Actions {
            var actions = Actions()
            if isShutDown {
                actions.append(.fail(call, .shutDown))
                return actions
            }
            let slot = slot(of: key)
            if freshConnection {
                actions.append(.wait(call))
                actions.append(openConnection(in: slot, owner: call))
                return actions
            }
            // An HTTP/2 connection with a stream to spare comes first: it needs no connection of its own.
            if http2Count > 0, let id = http2Connection(sparing: key, slot: slot, isAlive: isAlive) {
                addStream(to: id)
                actions.append(.startStream(call, on: id))
                return actions
            }
            while let id = slots[slot]!.idle.popLast() {
                // A connection the server closed while idle stays out of the idle list until it is removed.
                connections[id]?.state = .http1(idle: false)
                if isAlive(id) {
                    actions.append(.run(call, on: id))
                    return actions
                }
            }
            slots[slot]!.waiters.append(call)
            actions.append(.wait(call))
            let origin = slots[slot]!
            // A connection being opened with prior knowledge speaks HTTP/2: it takes the waiting calls up to its server's
            // limit, so a burst of calls opens one connection, not one each.
            if speaksHTTP2(origin), origin.waiters.count <= origin.connecting * configuration.assumedStreams { return actions }
            // Connects here failed: the next attempt waits for its backoff, and the calls with it.
            if origin.backingOff > 0 { return actions }
            if origin.open < limit(of: key) { actions.append(openConnection(in: slot, owner: nil)) }
            return actions
        }

        /// The call's deadline passed: it fails if it still waits (in the queue, or for the connection opened for it).
        mutating func deadlinePassed(_ call: Call, to key: Origin) -> Actions {
            var actions = Actions()
            if removeWaiter(call, to: key) { actions.append(.fail(call, .timedOut)) }
            return actions
        }

        /// The calling task cancelled the call (answered already): it leaves the queue, or the connection being opened for
        /// it takes waiting calls instead.
        mutating func cancelled(_ call: Call, to key: Origin) {
            _ = removeWaiter(call, to: key)
        }

        // MARK: Connections

        /// The connection `id` is open and speaks HTTP/1.1: it runs its owner, or the first waiting call, or idles.
        mutating func connectedHTTP1(_ id: ConnectionID) -> Actions {
            var actions = Actions()
            guard let owner = finishConnecting(id, actions: &actions) else { return actions }
            connections[id]!.state = .http1(idle: false)
            if let owner {
                actions.append(.run(owner, on: id))
                return actions
            }
            return released(id)
        }

        /// The connection `id` is open and speaks HTTP/2, with up to `maxStreams` concurrent streams: it takes its owner,
        /// then the waiting calls; calls past its streams get another connection before they wait.
        mutating func connectedHTTP2(_ id: ConnectionID, maxStreams: Int, isAlive: (ConnectionID) -> Bool = { _ in true })
            -> Actions
        {
            var actions = Actions()
            guard let owner = finishConnecting(id, actions: &actions) else { return actions }
            let slot = connections[id]!.origin
            connections[id]!.state = .http2(active: 0, maxStreams: maxStreams, draining: false)
            http2Count += 1
            slots[slot]!.negotiatedHTTP2 = true
            slots[slot]!.http2.append(id)
            var started = false
            if let owner {
                addStream(to: id)
                actions.append(.startStream(owner, on: id))
                started = true
            }
            while hasCapacity(id, isAlive: isAlive), let waiter = slots[slot]!.waiters.popFirst() {
                addStream(to: id)
                actions.append(.startStream(waiter, on: id))
                started = true
            }
            // Calls past the server's limit: another connection opens for them before they wait for a stream.
            let origin = slots[slot]!
            if origin.needsConnection, origin.open < limit(of: origin.key) {
                actions.append(openConnection(in: slot, owner: nil))
            }
            if !started { actions.append(.becameIdle(id)) }
            return actions
        }

        /// The connection `id` could not be opened: the failure answers its owner, or the first waiting call; the next
        /// waiting call, if any, gets an attempt of its own, so that every call learns the outcome promptly.
        mutating func connectFailed(_ id: ConnectionID, _ failure: ConnectFailure) -> Actions {
            var actions = Actions()
            guard let connection = connections.removeValue(forKey: id), case .connecting(let owner) = connection.state else {
                return actions
            }
            let slot = connection.origin
            slots[slot]!.open -= 1
            slots[slot]!.connecting -= 1
            defer { dropIfUnused(slot) }
            if let owner {
                actions.append(.fail(owner, .connectFailed(failure)))
                return actions
            }
            slots[slot]!.failures += 1
            if let failed = slots[slot]!.waiters.popFirst() { actions.append(.fail(failed, .connectFailed(failure))) }
            let origin = slots[slot]!
            if !origin.waiters.isEmpty, origin.open < limit(of: origin.key), !isShutDown {
                // Not at once: a server that refuses now will likely refuse again, and each call waits no longer than
                // its deadline.
                let delay = configuration.backoff.delay(afterFailures: origin.failures)
                slots[slot]!.open += 1
                slots[slot]!.connecting += 1
                slots[slot]!.backingOff += 1
                let id = ConnectionID(value: nextConnection)
                nextConnection += 1
                connections[id] = Connection(origin: slot, state: .backingOff)
                actions.append(.connectLater(origin.key, id, after: delay))
            }
            return actions
        }

        /// The backoff of `id` passed: it opens if calls still wait for it, else it is given up.
        mutating func backoffPassed(_ id: ConnectionID) -> Actions {
            var actions = Actions()
            guard let connection = connections[id], case .backingOff = connection.state else { return actions }
            let slot = connection.origin
            slots[slot]!.backingOff -= 1
            if isShutDown || slots[slot]!.waiters.isEmpty {
                connections[id] = nil
                slots[slot]!.open -= 1
                slots[slot]!.connecting -= 1
                dropIfUnused(slot)
                return actions
            }
            connections[id]!.state = .connecting(owner: nil)
            actions.append(.connect(slots[slot]!.key, id, owner: nil))
            return actions
        }

        /// The HTTP/1.1 connection `id` is free again: it runs the first waiting call, or idles.
        mutating func released(_ id: ConnectionID) -> Actions {
            var actions = Actions()
            guard !isShutDown, let connection = connections[id] else {
                actions.append(.close(id))
                return actions
            }
            let slot = connection.origin
            if let waiter = slots[slot]!.waiters.popFirst() {
                connections[id]!.state = .http1(idle: false)
                actions.append(.run(waiter, on: id))
                return actions
            }
            connections[id]!.state = .http1(idle: true)
            slots[slot]!.idle.append(id)
            actions.append(.becameIdle(id))
            return actions
        }

        /// The idle timeout of `id` passed: it closes if it still runs nothing.
        mutating func idleTimeoutPassed(_ id: ConnectionID) -> Actions {
            var actions = Actions()
            guard let connection = connections[id] else { return actions }
            switch connection.state {
            case .http1(idle: true):
                connections[id]!.state = .http1(idle: false)
                slots[connection.origin]!.idle.removeAll { $0 == id }
                actions.append(.close(id))
            case .http2(let active, let maxStreams, let draining):
                guard active == 0, !draining else { return actions }
                connections[id]!.state = .http2(active: 0, maxStreams: maxStreams, draining: true)
                slots[connection.origin]!.http2.removeAll { $0 == id }
                actions.append(.close(id))
            case .connecting, .backingOff, .http1(idle: false):
                break
            }
            return actions
        }

        /// A stream of the HTTP/2 connection `id` closed: the first waiting call takes its place, or the connection
        /// idles, or, when draining, closes with its last stream.
        mutating func streamClosed(on id: ConnectionID) -> Actions {
            var actions = Actions()
            guard let connection = connections[id], case .http2(let active, let maxStreams, let draining) = connection.state
            else { return actions }
            let left = active - 1
            connections[id]!.state = .http2(active: left, maxStreams: maxStreams, draining: draining)
            if isShutDown { return actions }
            if draining {
                if left == 0 { actions.append(.close(id)) }
                return actions
            }
            // Past a SETTINGS that lowered the limit below the streams open, a closed stream frees no place.
            if left < maxStreams, let waiter = slots[connection.origin]!.waiters.popFirst() {
                addStream(to: id)
                actions.append(.startStream(waiter, on: id))
            } else if left == 0 {
                actions.append(.becameIdle(id))
            }
            return actions
        }

        /// The server's SETTINGS changed how many streams `id` may carry: waiting calls take any new room.
        mutating func settingsChanged(on id: ConnectionID, maxStreams: Int, isAlive: (ConnectionID) -> Bool = { _ in true })
            -> Actions
        {
            var actions = Actions()
            guard let connection = connections[id], case .http2(let active, _, let draining) = connection.state else {
                return actions
            }
            connections[id]!.state = .http2(active: active, maxStreams: maxStreams, draining: draining)
            while !isShutDown, hasCapacity(id, isAlive: isAlive), let waiter = slots[connection.origin]!.waiters.popFirst() {
                addStream(to: id)
                actions.append(.startStream(waiter, on: id))
            }
            return actions
        }

        /// The server sent GOAWAY on `id` (or the connection failed): it takes no new stream, and closes once its streams
        /// have ended.
        mutating func goingAway(_ id: ConnectionID) -> Actions {
            var actions = Actions()
            guard let connection = connections[id], case .http2(let active, let maxStreams, _) = connection.state else {
                return actions
            }
            connections[id]!.state = .http2(active: active, maxStreams: maxStreams, draining: true)
            slots[connection.origin]!.http2.removeAll { $0 == id }
            if active == 0 { actions.append(.close(id)) }
            return actions
        }

        /// The connection `id` closed: it leaves the pool, and a waiting call may get a new one in its place.
        mutating func connectionClosed(_ id: ConnectionID) -> Actions {
            var actions = Actions()
            guard let connection = connections.removeValue(forKey: id) else { return actions }
            let slot = connection.origin
            defer { dropIfUnused(slot) }
            switch connection.state {
            case .connecting, .backingOff:
                // Reported as a failure to connect, never as a close; counted there.
                connections[id] = connection
                return actions
            case .http1:
                slots[slot]!.idle.removeAll { $0 == id }
            case .http2:
                http2Count -= 1
                slots[slot]!.http2.removeAll { $0 == id }
            }
            slots[slot]!.open -= 1
            let origin = slots[slot]!
            if origin.needsConnection, origin.open < limit(of: origin.key), !isShutDown {
                actions.append(openConnection(in: slot, owner: nil))
            }
            return actions
        }

        // MARK: Shutdown

        /// Fails every waiting call (and every call a connection is being opened for) and closes every open
        /// connection; later calls fail, and connections that open from now on close at once.
        mutating func shutdown() -> Actions {
            var actions = Actions()
            isShutDown = true
            for slot in slots.indices {
                while let waiter = slots[slot]?.waiters.popFirst() { actions.append(.fail(waiter, .shutDown)) }
            }
            for (id, connection) in connections.sorted(by: { $0.key.value < $1.key.value }) {
                switch connection.state {
                case .connecting(let owner?):
                    connections[id]!.state = .connecting(owner: nil)
                    actions.append(.fail(owner, .shutDown))
                case .connecting(nil), .backingOff:
                    // Closed as it opens; given up as its backoff passes.
                    break
                case .http1, .http2:
                    actions.append(.close(id))
                }
            }
            return actions
        }

        // MARK: Reading

        /// How many connections are open or being opened to `key`.
        func openConnections(to key: Origin) -> Int {
            slotOf[key].flatMap { slots[$0]?.open } ?? 0
        }

        /// How many calls wait for a connection to `key`.
        func waitingCalls(to key: Origin) -> Int {
            slotOf[key].flatMap { slots[$0]?.waiters.count } ?? 0
        }

        // MARK: Inside

        private func limit(of key: Origin) -> Int {
            key.forStreams ? configuration.streamConnectionsPerOrigin : configuration.connectionsPerOrigin
        }

        private func speaksHTTP2(_ origin: OriginState) -> Bool {
            origin.negotiatedHTTP2 || configuration.speaksHTTP2WithPriorKnowledge(origin.key)
        }

        private mutating func slot(of key: Origin) -> Int {
            if let lastSlot, let origin = slots[lastSlot], origin.key == key { return lastSlot }
            if let slot = slotOf[key] {
                lastSlot = slot
                return slot
            }
            let origin = OriginState(key: key)
            let slot: Int
            if let free = freeSlots.popLast() {
                slot = free
                slots[slot] = origin
            } else {
                slot = slots.count
                slots.append(origin)
            }
            slotOf[key] = slot
            lastSlot = slot
            return slot
        }

        /// Drops an origin nothing is open or waiting at: an origin nobody reaches leaves no entry behind.
        private mutating func dropIfUnused(_ slot: Int) {
            guard let origin = slots[slot], origin.isUnused else { return }
            slotOf[origin.key] = nil
            slots[slot] = nil
            freeSlots.append(slot)
            if lastSlot == slot { lastSlot = nil }
        }

        private mutating func openConnection(in slot: Int, owner: Call?) -> Action {
            slots[slot]!.open += 1
            slots[slot]!.connecting += 1
            let id = ConnectionID(value: nextConnection)
            nextConnection += 1
            connections[id] = Connection(origin: slot, state: .connecting(owner: owner))
            return .connect(slots[slot]!.key, id, owner: owner)
        }

        /// Ends the opening of `id`: its owner (`.some(nil)` when it has none), or `nil` when the pool is shut down (the
        /// connection then closes).
        private mutating func finishConnecting(_ id: ConnectionID, actions: inout Actions) -> Call?? {
            guard let connection = connections[id], case .connecting(let owner) = connection.state else {
                actions.append(.close(id))
                return nil
            }
            slots[connection.origin]!.connecting -= 1
            slots[connection.origin]!.failures = 0
            if isShutDown {
                // Its owner failed at shutdown; counted open until it is reported closed.
                connections[id]!.state = .http1(idle: false)
                actions.append(.close(id))
                return nil
            }
            return .some(owner)
        }

        private func hasCapacity(_ id: ConnectionID, isAlive: (ConnectionID) -> Bool) -> Bool {
            guard case .http2(let active, let maxStreams, let draining)? = connections[id]?.state else { return false }
            return !draining && active < maxStreams && isAlive(id)
        }

        private mutating func addStream(to id: ConnectionID) {
            guard case .http2(let active, let maxStreams, let draining)? = connections[id]?.state else { return }
            connections[id]!.state = .http2(active: active + 1, maxStreams: maxStreams, draining: draining)
        }

        /// An HTTP/2 connection to `key`'s origin with a stream to spare. Streamed answers and other calls share one,
        /// though over HTTP/1.1 they keep to connections of their own: on a stream of its own, an answer nobody reads
        /// holds only that stream's flow-control window, and the calls beside it keep flowing.
        private func http2Connection(sparing key: Origin, slot: Int, isAlive: (ConnectionID) -> Bool) -> ConnectionID? {
            if let id = slots[slot]!.http2.first(where: { hasCapacity($0, isAlive: isAlive) }) { return id }
            guard let twin = slotOf[key.twin] else { return nil }
            return slots[twin]!.http2.first(where: { hasCapacity($0, isAlive: isAlive) })
        }

        /// Takes `call` out of the queue of `key`, or from the connection being opened for it; whether it was there.
        private mutating func removeWaiter(_ call: Call, to key: Origin) -> Bool {
            if let slot = slotOf[key], let index = slots[slot]!.waiters.firstIndex(of: call) {
                slots[slot]!.waiters.remove(at: index)
                dropIfUnused(slot)
                return true
            }
            let owned = connections.first { _, connection in
                if case .connecting(let owner?) = connection.state { return owner == call }
                return false
            }
            guard let id = owned?.key else { return false }
            connections[id]!.state = .connecting(owner: nil)
            return true
        }
    }
#endif
