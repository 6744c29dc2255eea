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
        let inner: LocalProxy
        private let daemon: LocalDaemon

        private init(inner: LocalProxy, daemon: LocalDaemon) {
            self.inner = inner
            self.daemon = daemon
        }

        var port: Int { daemon.port }

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
            guard let executable else { throw ProxyTestError.notInstalled("stunnel4") }
            let inner = try await LocalProxy.start(.tinyproxy)
            do {
                let daemon = try await LocalDaemon.start("stunnel4", executable: executable) { port, directory in
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
                    return [configuration.path]
                }
                return LocalTLSProxy(inner: inner, daemon: daemon)
            } catch {
                await inner.stop()
                throw error
            }
        }

        func stop() async {
            await daemon.stop()
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
