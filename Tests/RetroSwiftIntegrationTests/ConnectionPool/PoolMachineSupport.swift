#if NIO
    @testable import RetroSwiftNIO

    /// An origin for the pool's machine without a socket: a name, and whether its calls are streamed responses.
    struct TestOrigin: PoolOrigin {
        var name: String
        var forStreams = false

        var twin: TestOrigin { TestOrigin(name: name, forStreams: !forStreams) }

        /// The origin whose connections speak HTTP/2 with prior knowledge in ``PoolMachine/make(connections:streamConnections:)``.
        static let h2c = TestOrigin(name: "h2c")
        static let plain = TestOrigin(name: "plain")
    }

    /// Why a connection could not be opened, in these tests.
    struct TestConnectFailure: Error, Equatable {
        var reason = "refused"
    }

    /// The machine under test: calls are numbers.
    typealias PoolMachine = ConnectionPoolStateMachine<TestOrigin, Int, TestConnectFailure>

    extension ConnectionPoolStateMachine where Origin == TestOrigin {
        /// A machine with `connections` per origin (`streamConnections` for streamed answers), where ``TestOrigin/h2c``
        /// speaks HTTP/2 with prior knowledge.
        /// Its backoff's jitter is `jitter` (in `0..<1`; 1 leaves each step whole).
        static func make(
            connections: Int = 2, streamConnections: Int = 1, jitter: @escaping @Sendable () -> Double = { 1 }
        ) -> Self {
            var configuration = Configuration(
                connectionsPerOrigin: connections, streamConnectionsPerOrigin: streamConnections,
                speaksHTTP2WithPriorKnowledge: { $0.name == "h2c" }, assumedStreams: 100)
            configuration.backoff.random = jitter
            return Self(configuration: configuration)
        }
    }

    /// An action as text, to compare lists of them in a test.
    func describe(_ actions: some Sequence<PoolMachine.Action>) -> [String] {
        actions.map { action in
            switch action {
            case .run(let call, let id): "run \(call) on \(id.value)"
            case .startStream(let call, let id): "stream \(call) on \(id.value)"
            case .wait(let call): "wait \(call)"
            case .connect(let origin, let id, let owner):
                "connect \(id.value) to \(origin.name)\(origin.forStreams ? "/streams" : "")"
                    + (owner.map { " for \($0)" } ?? "")
            case .connectLater(let origin, let id, let delay):
                "connect \(id.value) to \(origin.name) after \(delay.nanoseconds / 1_000_000) ms"
            case .fail(let call, .shutDown): "fail \(call): shut down"
            case .fail(let call, .timedOut): "fail \(call): timed out"
            case .fail(let call, .connectFailed(let failure)): "fail \(call): \(failure.reason)"
            case .close(let id): "close \(id.value)"
            case .becameIdle(let id): "idle \(id.value)"
            }
        }
    }

    /// The connection id `value`, as the machine numbers them (from 0, in the order it asks for them).
    func connection(_ value: Int) -> ConnectionID {
        ConnectionID(value: value)
    }
#endif
