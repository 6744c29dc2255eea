#if NIO
    import Foundation

    #if canImport(Glibc)
        import Glibc
    #endif
    import NIOCore
    import NIOPosix
    import RetroSwiftTestServer
    import Testing

    @testable import RetroSwiftNIO

    /// A real proxy from Debian's packages, started on 127.0.0.1 by one test from a configuration of its own and stopped
    /// by it: tinyproxy (HTTP `CONNECT` and forwarding, Basic authentication) or microsocks (SOCKS5, user and
    /// password). Both ask for ``username`` and ``password``.
    final class LocalProxy: StoppableServer, Sendable {
        enum Program: String, Sendable {
            case tinyproxy
            case microsocks
        }

        static let username = "retro"
        static let password = "s3cret-proxy-pw"

        let program: Program
        let port: Int
        private let process: Process
        private let directory: URL

        private init(program: Program, port: Int, process: Process, directory: URL) {
            self.program = program
            self.port = port
            self.process = process
            self.directory = directory
        }

        /// Where a program is installed, if it is.
        static func executable(_ program: Program) -> URL? {
            ["/usr/bin", "/usr/sbin", "/usr/local/bin", "/usr/local/sbin"].map { URL(fileURLWithPath: "\($0)/\(program.rawValue)") }
                .first { FileManager.default.isExecutableFile(atPath: $0.path) }
        }

        /// Whether both proxies are installed; `.ci/run` installs them and sets `RETROSWIFT_REQUIRE_PROXIES`, under which
        /// their absence fails ``ProxyEndToEndTests``' first test instead of skipping the suites.
        static let installed = executable(.tinyproxy) != nil && executable(.microsocks) != nil

        /// Why the proxy suites are skipped, for the test report.
        static let skipReason: Comment =
            "tinyproxy and microsocks are not installed (apt-get install tinyproxy microsocks); .ci/run installs them"

        /// The proxy as `NIOTransport` is told of it, with the right credentials unless told otherwise.
        func proxy(username: String? = LocalProxy.username, password: String? = LocalProxy.password) -> NIOTransport.Proxy {
            NIOTransport.Proxy(
                program == .tinyproxy ? .http : .socks5, host: "127.0.0.1", port: port, username: username, password: password)
        }

        /// Starts `program` on a free port of 127.0.0.1 and returns once it accepts connections.
        static func start(_ program: Program) async throws -> LocalProxy {
            guard let executable = executable(program) else { throw ProxyTestError.notInstalled(program.rawValue) }
            let directory = FileManager.default.temporaryDirectory.appendingPathComponent("retroswift-proxy-\(UUID().uuidString)")
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            // A port the system just gave out, free again: another process taking it in between would fail the start.
            let port = try await freePort()
            let process = Process()
            process.executableURL = executable
            process.standardOutput = FileHandle.nullDevice
            process.standardError = FileHandle.nullDevice
            switch program {
            case .tinyproxy:
                let configuration = directory.appendingPathComponent("tinyproxy.conf")
                try """
                Port \(port)
                Listen 127.0.0.1
                Timeout 60
                MaxClients 200
                LogLevel Critical
                BasicAuth \(username) \(password)
                DisableViaHeader Yes
                """.write(to: configuration, atomically: true, encoding: .utf8)
                process.arguments = ["-d", "-c", configuration.path]
            case .microsocks:
                process.arguments = ["-i", "127.0.0.1", "-p", String(port), "-u", username, "-P", password]
            }
            try process.run()
            let proxy = LocalProxy(program: program, port: port, process: process, directory: directory)
            // A bound for a proxy that never starts, not a wait that usually suffices: under the sanitizers on a loaded
            // machine tinyproxy once took over 20 s.
            let accepting = try await eventually(within: .seconds(60)) {
                guard process.isRunning else { return true }
                return await canConnect(port: port)
            }
            guard accepting, process.isRunning else {
                await proxy.stop()
                throw ProxyTestError.didNotStart(program.rawValue)
            }
            return proxy
        }

        func stop() async {
            // SIGKILL: a child of the test runner may inherit a signal mask that blocks SIGTERM, and would never stop.
            if process.isRunning { kill(process.processIdentifier, SIGKILL) }
            process.waitUntilExit()
            try? FileManager.default.removeItem(at: directory)
        }

        /// A port on 127.0.0.1 that nothing listens on, ever: the discard port, far below the range the system picks
        /// the ports of the suite's servers from. (A port that was free a moment ago may be taken meanwhile by a server
        /// another test starts: a "dead" proxy then answered a call with that server's 204.)
        static let deadPort = 9

        /// A port on 127.0.0.1 that nothing listens on now, for a server about to be started on it.
        static func freePort() async throws -> Int {
            let channel = try await ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton)
                .bind(host: "127.0.0.1", port: 0).get()
            let port = channel.localAddress?.port ?? 0
            try await channel.close()
            return port
        }

        static func canConnect(port: Int) async -> Bool {
            guard
                let channel = try? await ClientBootstrap(group: MultiThreadedEventLoopGroup.singleton)
                    .connect(host: "127.0.0.1", port: port).get()
            else { return false }
            try? await channel.close()
            return true
        }
    }

    enum ProxyTestError: Error, CustomStringConvertible {
        case notInstalled(String)
        case didNotStart(String)

        var description: String {
            switch self {
            case .notInstalled(let program): "\(program) is not installed (apt-get install \(program))"
            case .didNotStart(let program): "\(program) did not start accepting connections"
            }
        }
    }
#endif
