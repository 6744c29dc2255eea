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
        private let daemon: LocalDaemon

        private init(program: Program, daemon: LocalDaemon) {
            self.program = program
            self.daemon = daemon
        }

        var port: Int { daemon.port }

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
            let daemon = try await LocalDaemon.start(program.rawValue, executable: executable) { port, directory in
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
                    return ["-d", "-c", configuration.path]
                case .microsocks:
                    return ["-i", "127.0.0.1", "-p", String(port), "-u", username, "-P", password]
                }
            }
            return LocalProxy(program: program, daemon: daemon)
        }

        func stop() async {
            await daemon.stop()
        }

        /// A port on 127.0.0.1 that nothing listens on, ever: the discard port, far below the range the system picks
        /// the ports of the suite's servers from. (A port that was free a moment ago may be taken meanwhile by a server
        /// another test starts: a "dead" proxy then answered a call with that server's 204.)
        static let deadPort = 9
    }

    enum ProxyTestError: Error, CustomStringConvertible {
        case notInstalled(String)

        var description: String {
            switch self {
            case .notInstalled(let program): "\(program) is not installed (apt-get install \(program))"
            }
        }
    }
#endif
