#if NIO && TransportConformance
    import Foundation

    #if canImport(Glibc)
        import Glibc
    #endif
    import RetroSwift
    import Testing

    // The issued certificate's private key, which stunnel needs in a file, is internal to the test server's module.
    @testable import RetroSwiftTestServer
    @testable import RetroSwiftNIO

    /// An `https://` proxy on 127.0.0.1: Debian's stunnel4 accepting TLS, with a certificate a test's authority issued
    /// when it ran, and handing what it decrypts to a ``LocalProxy`` (tinyproxy, with its Basic authentication), which
    /// it starts and stops with itself.
    final class LocalTLSProxy: StoppableServer, Sendable {
        let port: Int
        let inner: LocalProxy
        private let process: Process
        private let directory: URL

        private init(port: Int, inner: LocalProxy, process: Process, directory: URL) {
            self.port = port
            self.inner = inner
            self.process = process
            self.directory = directory
        }

        /// Where stunnel is installed, if it is.
        static let executable: URL? = ["stunnel4", "stunnel"].lazy.compactMap { name in
            ["/usr/bin", "/usr/sbin", "/usr/local/bin", "/usr/local/sbin"].map { URL(fileURLWithPath: "\($0)/\(name)") }
                .first { FileManager.default.isExecutableFile(atPath: $0.path) }
        }.first

        /// Whether stunnel and tinyproxy are installed; `.ci/run` installs them and sets `RETROSWIFT_REQUIRE_PROXIES`,
        /// under which their absence fails ``ProxyTLSEndToEndTests``' first test instead of skipping the suite.
        static let installed = executable != nil && LocalProxy.executable(.tinyproxy) != nil

        /// Why the suite is skipped, for the test report.
        static let skipReason: Comment =
            "stunnel4 and tinyproxy are not installed (apt-get install stunnel4 tinyproxy); .ci/run installs them"

        /// The proxy as `NIOTransport` is told of it: ``NIOTransport/Proxy/Kind/https`` at 127.0.0.1, trusting
        /// `authority`, with the right credentials unless told otherwise.
        func proxy(
            trusting authority: TestCertificateAuthority, username: String? = LocalProxy.username,
            password: String? = LocalProxy.password, tunnelsPlainHTTP: Bool = false
        ) throws -> NIOTransport.Proxy {
            NIOTransport.Proxy(
                .https, host: "127.0.0.1", port: port, username: username, password: password, tunnelsPlainHTTP: tunnelsPlainHTTP,
                trust: try ServerTrust(certificateAuthorities: [authority.der]))
        }

        /// Starts tinyproxy, then stunnel in front of it presenting `certificate`, on free ports of 127.0.0.1; returns once
        /// stunnel accepts connections.
        ///
        /// - Parameters:
        ///   - certificate: What stunnel presents.
        ///   - clients: When given, stunnel requires a client certificate this authority issued.
        static func start(
            presenting certificate: TestCertificateAuthority.IssuedCertificate,
            requiringClientCertificatesFrom clients: TestCertificateAuthority? = nil
        ) async throws -> LocalTLSProxy {
            // A free port is free when asked for, not when the program binds it: a test running beside this one can
            // take it in between, and the program exits. Another pair of ports then does.
            for _ in 1..<3 {
                do {
                    return try await startOnce(presenting: certificate, requiringClientCertificatesFrom: clients)
                } catch ProxyTestError.didNotStart {
                    continue
                }
            }
            return try await startOnce(presenting: certificate, requiringClientCertificatesFrom: clients)
        }

        private static func startOnce(
            presenting certificate: TestCertificateAuthority.IssuedCertificate,
            requiringClientCertificatesFrom clients: TestCertificateAuthority?
        ) async throws -> LocalTLSProxy {
            guard let executable else { throw ProxyTestError.notInstalled("stunnel4") }
            let inner = try await LocalProxy.start(.tinyproxy)
            do {
                let directory = FileManager.default.temporaryDirectory.appendingPathComponent("retroswift-tls-proxy-\(UUID().uuidString)")
                try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
                let certificateFile = directory.appendingPathComponent("proxy.pem")
                let keyFile = directory.appendingPathComponent("proxy.key")
                try pem(certificate.der).write(to: certificateFile, atomically: true, encoding: .utf8)
                try certificate.key.pemRepresentation.write(to: keyFile, atomically: true, encoding: .utf8)
                var clientCheck = ""
                if let clients {
                    let authorityFile = directory.appendingPathComponent("clients.pem")
                    try clients.pem.write(to: authorityFile, atomically: true, encoding: .utf8)
                    clientCheck = "verifyChain = yes\nCAfile = \(authorityFile.path)\n"
                }
                let port = try await LocalProxy.freePort()
                let configuration = directory.appendingPathComponent("stunnel.conf")
                try """
                foreground = yes
                pid =
                debug = 0
                [proxy]
                accept = 127.0.0.1:\(port)
                connect = 127.0.0.1:\(inner.port)
                cert = \(certificateFile.path)
                key = \(keyFile.path)
                \(clientCheck)
                """.write(to: configuration, atomically: true, encoding: .utf8)
                let process = Process()
                process.executableURL = executable
                process.arguments = [configuration.path]
                process.standardOutput = FileHandle.nullDevice
                process.standardError = FileHandle.nullDevice
                try process.run()
                let proxy = LocalTLSProxy(port: port, inner: inner, process: process, directory: directory)
                // A bound for a proxy that never starts, as LocalProxy's.
                let accepting = try await eventually(within: .seconds(60)) {
                    guard process.isRunning else { return true }
                    return await LocalProxy.canConnect(port: port)
                }
                guard accepting, process.isRunning else {
                    await proxy.stop()
                    throw ProxyTestError.didNotStart("stunnel4")
                }
                return proxy
            } catch {
                await inner.stop()
                throw error
            }
        }

        func stop() async {
            // SIGKILL, as LocalProxy's: a signal mask inherited from the test runner may block SIGTERM.
            if process.isRunning { kill(process.processIdentifier, SIGKILL) }
            process.waitUntilExit()
            try? FileManager.default.removeItem(at: directory)
            await inner.stop()
        }

        /// A DER certificate as PEM text.
        static func pem(_ der: Data) -> String {
            let base64 = der.base64EncodedString()
            var lines: [Substring] = []
            var rest = Substring(base64)
            while !rest.isEmpty {
                lines.append(rest.prefix(64))
                rest = rest.dropFirst(64)
            }
            return "-----BEGIN CERTIFICATE-----\n" + lines.joined(separator: "\n") + "\n-----END CERTIFICATE-----\n"
        }
    }
#endif
