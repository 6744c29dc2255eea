#if NIO
    import Foundation

    #if canImport(Glibc)
        import Glibc
    #endif
    import NIOCore
    import NIOPosix
    import RetroSwiftTestServer

    /// A program from Debian's packages that one test starts on 127.0.0.1 and stops (tinyproxy, microsocks, stunnel4,
    /// nginx): run in a directory of its own, on a port that was free when asked for, up once it accepts connections,
    /// stopped with SIGKILL and its directory deleted.
    struct LocalDaemon: Sendable {
        let port: Int
        let directory: URL
        private let process: ChildProcess

        private init(port: Int, directory: URL, process: ChildProcess) {
            self.port = port
            self.directory = directory
            self.process = process
        }

        /// Why a program did not start.
        struct DidNotStart: Error, CustomStringConvertible {
            let program: String
            let log: String

            var description: String {
                "\(program) did not start accepting connections on 127.0.0.1" + (log.isEmpty ? "" : ": \(log)")
            }
        }

        /// Starts `executable` with the arguments `arguments` makes for a port and a new directory (where it may write
        /// the program's configuration first); returns once the program accepts connections on that port.
        ///
        /// A port is free when asked for, not when the program binds it: a server another test starts in between can
        /// take it, and the program exits. It is then started again on another port, three times in all.
        ///
        /// - Parameters:
        ///   - name: The program, for errors.
        ///   - executable: Where it is installed.
        ///   - arguments: Its arguments for a port and a directory.
        ///   - log: What to quote from the directory when it does not start (its error log), if anything.
        /// - Returns: The running program.
        /// - Throws: ``DidNotStart``, or what `arguments` or starting the process throws.
        static func start(
            _ name: String, executable: URL, arguments: (_ port: Int, _ directory: URL) throws -> [String],
            log: (URL) -> String = { _ in "" }
        ) async throws -> LocalDaemon {
            var attempt = 1
            while true {
                do {
                    return try await startOnce(name, executable: executable, arguments: arguments, log: log)
                } catch is DidNotStart where attempt < 3 {
                    attempt += 1
                }
            }
        }

        private static func startOnce(
            _ name: String, executable: URL, arguments: (Int, URL) throws -> [String], log: (URL) -> String
        ) async throws -> LocalDaemon {
            let directory = FileManager.default.temporaryDirectory.appendingPathComponent("retroswift-\(name)-\(UUID().uuidString)")
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            let port = try await TestServer.unusedPort()
            let process: ChildProcess
            do {
                process = try ChildProcess(executable.path, try arguments(port, directory))
            } catch {
                try? FileManager.default.removeItem(at: directory)
                throw error
            }
            let daemon = LocalDaemon(port: port, directory: directory, process: process)
            // A bound for a program that never starts, not a wait that usually suffices: under the sanitizers on a
            // loaded machine tinyproxy once took over 20 s.
            let accepting = try await eventually(within: .seconds(60)) {
                guard process.isRunning else { return true }
                return await canConnect(port: port)
            }
            guard accepting, process.isRunning else {
                let quoted = log(directory)
                await daemon.stop()
                throw DidNotStart(program: name, log: quoted)
            }
            return daemon
        }

        func stop() async {
            // SIGKILL: a child of the test runner may inherit a signal mask that blocks SIGTERM, and would never stop.
            process.send(SIGKILL)
            process.waitUntilExit()
            try? FileManager.default.removeItem(at: directory)
        }

        private static func canConnect(port: Int) async -> Bool {
            guard
                let channel = try? await ClientBootstrap(group: MultiThreadedEventLoopGroup.singleton)
                    .connect(host: "127.0.0.1", port: port).get()
            else { return false }
            try? await channel.close()
            return true
        }
    }
#endif
