#if NIO
    import Foundation
    import Testing

    @testable import RetroSwiftNIO

    /// The pool's machine driven by random orders of events against a model of its calls and connections, which checks
    /// after each action: every call ends exactly once (runs to its end, fails, or is cancelled), never more connections
    /// open per origin than configured (but for retries' fresh connections), no call on a connection closed, closing,
    /// being opened or busy, no stream past its connection's limit, no call still waiting once its deadline passed, and
    /// after shutdown every call ended and every connection closed. `POOL_SEED=<n>` replays one order.
    @Suite("NIOTransport's connection pool state machine, random orders of events")
    struct ConnectionPoolPropertyTests {
        static let orders = 2_000
        static let eventsPerOrder = 60

        @Test("every order of events keeps the pool's promises")
        func randomOrders() {
            // Given seeds, one per order (from POOL_SEED when replaying one)
            let replay = ProcessInfo.processInfo.environment["POOL_SEED"].flatMap(UInt64.init)
            let first = replay ?? UInt64.random(in: 0..<(UInt64.max / 2))
            let count = replay == nil ? Self.orders : 1
            for seed in first..<(first + UInt64(count)) {
                // When the machine is driven through one random order of events
                var model = PoolModel(seed: seed)
                model.run(events: Self.eventsPerOrder)

                // Then the model saw no broken promise
                if let broken = model.broken {
                    // The whole order when replaying one, else its end.
                    let events = model.trace.suffix(replay == nil ? 25 : .max).joined(separator: "\n")
                    Issue.record("seed \(seed) (replay with POOL_SEED=\(seed)): \(broken)\nlast events:\n\(events)")
                    return
                }
            }
        }
    }

    /// The calls and connections as they would be, told each action of the machine, and the source of random events.
    struct PoolModel {
        typealias Machine = PoolMachine

        enum CallState: Equatable {
            case waiting
            case running(ConnectionID)
            case ended
        }

        enum ConnectionState: Equatable {
            case connecting
            case http1(call: Int?)
            case http2(calls: Set<Int>, maxStreams: Int, draining: Bool)
        }

        struct Connection {
            let origin: TestOrigin
            /// Opened for a retry, past the limit.
            let fresh: Bool
            var state: ConnectionState
            /// The server closed it; the pool is not told yet.
            var dead = false
            /// Waiting for a backoff to pass before it is opened.
            var backingOff = false
        }

        static let origins = [TestOrigin.plain, TestOrigin.plain.twin, TestOrigin.h2c, TestOrigin.h2c.twin]
        static let connectionsPerOrigin = 2
        static let streamConnectionsPerOrigin = 1

        var random: SeededGenerator
        var machine: Machine
        var calls: [Int: CallState] = [:]
        var origins: [Int: TestOrigin] = [:]
        var connections: [ConnectionID: Connection] = [:]
        var nextCall = 0
        var trace: [String] = []
        private(set) var broken: String?

        init(seed: UInt64) {
            random = SeededGenerator(seed: seed)
            // The backoff's jitter from the same seed, so that one order replays whole.
            var jitter = SeededGenerator(seed: ~seed)
            let jitters = (0..<64).map { _ in Double.random(in: 0..<1, using: &jitter) }
            let next = Counter()
            machine = Machine.make(
                connections: Self.connectionsPerOrigin, streamConnections: Self.streamConnectionsPerOrigin,
                jitter: { jitters[next.increment() % jitters.count] })
        }

        // MARK: Events

        mutating func run(events: Int) {
            for _ in 0..<events where broken == nil {
                randomEvent()
            }
            guard broken == nil else { return }
            shutDownAndDrain()
        }

        private mutating func randomEvent() {
            // A call on a connection the server closed fails as the connection's close is seen, never ends on its own.
            let running = calls.filter {
                if case .running(let id) = $0.value { connections[id]?.dead == false } else { false }
            }.keys.sorted()
            let waiting = calls.filter { $0.value == .waiting }.keys.sorted()
            let ids = connections.keys.sorted { $0.value < $1.value }
            let connecting = ids.filter { connections[$0]!.state == .connecting && !connections[$0]!.backingOff }
            let backingOff = ids.filter { connections[$0]!.backingOff }
            let live = ids.filter { connections[$0]!.state != .connecting && !connections[$0]!.dead }
            let dead = ids.filter { connections[$0]!.dead }
            switch Int.random(in: 0..<100, using: &random) {
            case 0..<30:
                lease(fresh: Int.random(in: 0..<20, using: &random) == 0)
            case 30..<44:
                if let id = connecting.randomElement(using: &random) { connectOutcome(id) }
            case 44..<48:
                if let id = backingOff.randomElement(using: &random) { backoffPassed(id) }
            case 48..<63:
                if let call = running.randomElement(using: &random) { endRunning(call) }
            case 63..<68:
                if let id = live.randomElement(using: &random), case .http2(let streams, _, _) = connections[id]!.state {
                    let maxStreams = Int.random(in: 1...4, using: &random)
                    step("settings \(id.value) max \(maxStreams)")
                    connections[id]!.state = .http2(calls: streams, maxStreams: maxStreams, draining: isDraining(id))
                    let alive = isAlive
                    apply(machine.settingsChanged(on: id, maxStreams: maxStreams, isAlive: alive))
                }
            case 68..<72:
                if let id = live.randomElement(using: &random), case .http2(let streams, let maxStreams, _) = connections[id]!.state {
                    step("goaway \(id.value)")
                    connections[id]!.state = .http2(calls: streams, maxStreams: maxStreams, draining: true)
                    apply(machine.goingAway(id))
                }
            case 72..<77:
                if let id = live.randomElement(using: &random) {
                    step("idle timeout \(id.value)")
                    apply(machine.idleTimeoutPassed(id))
                }
            case 77..<81:
                if let id = live.randomElement(using: &random) {
                    step("server closes \(id.value)")
                    connections[id]!.dead = true
                }
            case 81..<86:
                if let id = dead.randomElement(using: &random) { closed(id) }
            case 86..<94:
                if let call = waiting.randomElement(using: &random) {
                    step("deadline \(call)")
                    apply(machine.deadlinePassed(call, to: origins[call]!))
                    if calls[call] == .waiting { fail("call \(call) still waits past its deadline") }
                }
            default:
                if let call = waiting.randomElement(using: &random) {
                    step("cancel \(call)")
                    calls[call] = .ended
                    machine.cancelled(call, to: origins[call]!)
                }
            }
        }

        private mutating func lease(fresh: Bool) {
            let call = nextCall
            nextCall += 1
            let origin = Self.origins.randomElement(using: &random)!
            calls[call] = .waiting
            origins[call] = origin
            step("lease \(call) to \(origin.name)\(origin.forStreams ? "/streams" : "")\(fresh ? " fresh" : "")")
            let alive = isAlive
            apply(machine.lease(call, to: origin, freshConnection: fresh, isAlive: alive))
        }

        private mutating func connectOutcome(_ id: ConnectionID) {
            switch Int.random(in: 0..<3, using: &random) {
            case 0:
                step("connected \(id.value) http/1.1")
                connections[id]!.state = .http1(call: nil)
                apply(machine.connectedHTTP1(id))
            case 1:
                let maxStreams = Int.random(in: 1...3, using: &random)
                step("connected \(id.value) h2 max \(maxStreams)")
                connections[id]!.state = .http2(calls: [], maxStreams: maxStreams, draining: false)
                let alive = isAlive
                apply(machine.connectedHTTP2(id, maxStreams: maxStreams, isAlive: alive))
            default:
                step("connect \(id.value) failed")
                connections[id] = nil
                apply(machine.connectFailed(id, TestConnectFailure()))
            }
        }

        private mutating func backoffPassed(_ id: ConnectionID) {
            step("backoff passed \(id.value)")
            connections[id] = nil
            apply(machine.backoffPassed(id))
        }

        /// A running call's exchange ends: its connection is handed back, or its stream closes.
        private mutating func endRunning(_ call: Int) {
            guard case .running(let id) = calls[call] else { return }
            step("call \(call) ends on \(id.value)")
            calls[call] = .ended
            switch connections[id]?.state {
            case .http1:
                connections[id]!.state = .http1(call: nil)
                apply(machine.released(id))
            case .http2(var streams, let maxStreams, let draining):
                streams.remove(call)
                connections[id]!.state = .http2(calls: streams, maxStreams: maxStreams, draining: draining)
                apply(machine.streamClosed(on: id))
            default:
                fail("call \(call) ran on \(id.value), which is not open")
            }
        }

        /// `id` closed: its calls fail, and the pool is told.
        private mutating func closed(_ id: ConnectionID) {
            guard let connection = connections.removeValue(forKey: id) else { return }
            step("closed \(id.value)")
            switch connection.state {
            case .http1(let call?): calls[call] = .ended
            case .http2(let streams, _, _): for call in streams { calls[call] = .ended }
            case .connecting, .http1(nil): break
            }
            apply(machine.connectionClosed(id))
        }

        private mutating func shutDownAndDrain() {
            step("shutdown")
            apply(machine.shutdown())
            // What was under way ends: connections being opened are reported, calls running end.
            while broken == nil, let id = connections.keys.sorted(by: { $0.value < $1.value }).first {
                switch connections[id]!.state {
                case .connecting where connections[id]!.backingOff: backoffPassed(id)
                case .connecting: connectOutcome(id)
                default: closed(id)
                }
            }
            guard broken == nil else { return }
            if let call = calls.first(where: { $0.value != .ended })?.key { fail("call \(call) never ended") }
            for origin in Self.origins where machine.openConnections(to: origin) != 0 || machine.waitingCalls(to: origin) != 0 {
                fail("\(origin.name) keeps connections or calls after shutdown")
            }
        }

        // MARK: The machine's actions

        private var isAlive: (ConnectionID) -> Bool {
            let connections = connections
            return { connections[$0].map { !$0.dead } ?? false }
        }

        private func isDraining(_ id: ConnectionID) -> Bool {
            if case .http2(_, _, true)? = connections[id]?.state { return true }
            return false
        }

        private mutating func apply(_ actions: Machine.Actions) {
            var closing: [ConnectionID] = []
            for action in actions {
                trace.append("  -> " + describe([action]).joined())
                switch action {
                case .run(let call, let id):
                    take(call, on: id)
                    guard case .http1(nil)? = connections[id]?.state, connections[id]?.dead == false else {
                        fail("call \(call) runs on \(id.value), which is \(String(describing: connections[id]))")
                        return
                    }
                    connections[id]!.state = .http1(call: call)
                case .startStream(let call, let id):
                    take(call, on: id)
                    guard case .http2(var streams, let maxStreams, false)? = connections[id]?.state,
                        connections[id]?.dead == false, streams.count < maxStreams
                    else {
                        fail("call \(call) streams on \(id.value), which is \(String(describing: connections[id]))")
                        return
                    }
                    streams.insert(call)
                    connections[id]!.state = .http2(calls: streams, maxStreams: maxStreams, draining: false)
                case .wait(let call):
                    if calls[call] != .waiting { fail("call \(call) told to wait, but is \(String(describing: calls[call]))") }
                case .connect(let origin, let id, let owner):
                    // The one a backoff held back is counted already.
                    if connections[id] != nil { fail("\(id.value) opened twice") }
                    if let owner, calls[owner] != .waiting { fail("a connection opened for call \(owner), which is over") }
                    connections[id] = Connection(origin: origin, fresh: owner != nil, state: .connecting)
                    checkLimit(of: origin)
                case .fail(let call, _):
                    if calls[call] != .waiting { fail("call \(call) failed, but is \(String(describing: calls[call]))") }
                    calls[call] = .ended
                case .connectLater(let origin, let id, let delay):
                    if connections[id] != nil { fail("\(id.value) opened twice") }
                    if delay <= .zero || delay > .seconds(3) { fail("a backoff of \(delay)") }
                    connections[id] = Connection(origin: origin, fresh: false, state: .connecting, backingOff: true)
                    checkLimit(of: origin)
                case .close(let id):
                    closing.append(id)
                case .becameIdle(let id):
                    switch connections[id]?.state {
                    case .http1(nil)?: break
                    case .http2(let streams, _, _)? where streams.isEmpty: break
                    default: fail("\(id.value) idles, but is \(String(describing: connections[id]))")
                    }
                }
            }
            for id in closing { closed(id) }
        }

        /// Never more connections open or being opened to `origin` than configured, but for retries' fresh ones.
        private mutating func checkLimit(of origin: TestOrigin) {
            let open = connections.values.filter { $0.origin == origin }
            let limit = origin.forStreams ? Self.streamConnectionsPerOrigin : Self.connectionsPerOrigin
            if open.count > limit + open.filter(\.fresh).count {
                fail("\(open.count) connections to \(origin.name)\(origin.forStreams ? "/streams" : ""), limit \(limit)")
            }
        }

        private mutating func take(_ call: Int, on id: ConnectionID) {
            if calls[call] != .waiting { fail("call \(call) runs on \(id.value), but is \(String(describing: calls[call]))") }
            calls[call] = .running(id)
        }

        private mutating func step(_ event: String) {
            trace.append(event)
        }

        private mutating func fail(_ message: String) {
            if broken == nil { broken = message }
        }
    }

    /// A count a `@Sendable` closure can step: the index of the next jitter.
    final class Counter: @unchecked Sendable {
        // Unchecked: each model, and its counter, lives on one test's thread.
        private var value = 0

        func increment() -> Int {
            defer { value += 1 }
            return value
        }
    }
#endif
