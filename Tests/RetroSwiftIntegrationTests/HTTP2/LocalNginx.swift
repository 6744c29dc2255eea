#if NIO
    import Foundation

    #if canImport(Glibc)
        import Glibc
    #endif
    import RetroSwiftTestServer
    import Testing

    /// nginx from Debian's package, a server not of ours speaking HTTP/2 over TLS, started on 127.0.0.1 by one test from
    /// a configuration of its own (one process: `master_process off`) and stopped by it. Its certificate authority and
    /// certificate (for 127.0.0.1) are made with openssl for the run. `GET /catalog` answers a small JSON document and a
    /// `POST` to it `{"ok":true}` without reading the body, as a `return` in nginx does: over HTTP/2 nginx then ends
    /// the stream with RST_STREAM NO_ERROR after its answer (RFC 9113 §8.1). Every answer names the protocol it went
    /// over in `X-Protocol`.
    final class LocalNginx: StoppableServer, Sendable {
        /// The authority that issued the server's certificate, DER-encoded, for a domain's `ServerTrust`.
        let authority: Data
        private let daemon: LocalDaemon

        private init(authority: Data, daemon: LocalDaemon) {
            self.authority = authority
            self.daemon = daemon
        }

        var port: Int { daemon.port }

        var baseURL: URL { URL(string: "https://127.0.0.1:\(port)")! }

        static let executable = ["/usr/sbin/nginx", "/usr/bin/nginx", "/usr/local/sbin/nginx"].map { URL(fileURLWithPath: $0) }
            .first { FileManager.default.isExecutableFile(atPath: $0.path) }
        static let openssl = ["/usr/bin/openssl", "/usr/local/bin/openssl"].map { URL(fileURLWithPath: $0) }
            .first { FileManager.default.isExecutableFile(atPath: $0.path) }

        /// Whether nginx and openssl are installed; `.ci/run` installs nginx-light and sets `RETROSWIFT_REQUIRE_NGINX`,
        /// under which their absence fails a test instead of skipping the suite.
        static let installed = executable != nil && openssl != nil

        static let skipReason: Comment = "nginx is not installed (apt-get install nginx-light); .ci/run installs it"

        /// Starts nginx; it ends each connection after `requestsPerConnection` streams (GOAWAY, then close).
        static func start(requestsPerConnection: Int = 1_000_000) async throws -> LocalNginx {
            guard let executable, let openssl else { throw NginxTestError.notInstalled }
            // The certificates first, in a directory of their own that outlives the start: nginx reads them from there.
            let certificates = FileManager.default.temporaryDirectory.appendingPathComponent("retroswift-nginx-tls-\(UUID().uuidString)")
            try FileManager.default.createDirectory(at: certificates, withIntermediateDirectories: true)
            defer { try? FileManager.default.removeItem(at: certificates) }
            func tls(_ name: String) -> String { certificates.appendingPathComponent(name).path }
            try await run(
                openssl, "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "2", "-subj", "/CN=RetroSwift nginx test CA",
                "-keyout", tls("ca.key"), "-out", tls("ca.pem"))
            try await run(
                openssl, "req", "-newkey", "rsa:2048", "-nodes", "-subj", "/CN=127.0.0.1",
                "-keyout", tls("server.key"), "-out", tls("server.csr"))
            try "subjectAltName=IP:127.0.0.1\nbasicConstraints=CA:FALSE\nextendedKeyUsage=serverAuth\n"
                .write(toFile: tls("ext"), atomically: true, encoding: .utf8)
            try await run(
                openssl, "x509", "-req", "-in", tls("server.csr"), "-CA", tls("ca.pem"), "-CAkey", tls("ca.key"),
                "-CAcreateserial", "-days", "2", "-extfile", tls("ext"), "-out", tls("server.pem"))
            try await run(openssl, "x509", "-in", tls("ca.pem"), "-outform", "der", "-out", tls("ca.der"))
            let authority = try Data(contentsOf: URL(fileURLWithPath: tls("ca.der")))
            let certificate = try String(contentsOfFile: tls("server.pem"), encoding: .utf8)
            let key = try String(contentsOfFile: tls("server.key"), encoding: .utf8)
            let daemon = try await LocalDaemon.start(
                "nginx", executable: executable,
                arguments: { port, directory in
                    func path(_ name: String) -> String { directory.appendingPathComponent(name).path }
                    try FileManager.default.createDirectory(
                        at: directory.appendingPathComponent("logs"), withIntermediateDirectories: true)
                    try certificate.write(toFile: path("server.pem"), atomically: true, encoding: .utf8)
                    try key.write(toFile: path("server.key"), atomically: true, encoding: .utf8)
                    try """
                    master_process off;
                    daemon off;
                    pid \(path("nginx.pid"));
                    error_log \(path("logs/error.log")) warn;
                    events { worker_connections 1024; }
                    http {
                        access_log off;
                        keepalive_requests \(requestsPerConnection);
                        client_body_temp_path \(path("logs"));
                        proxy_temp_path \(path("logs"));
                        fastcgi_temp_path \(path("logs"));
                        uwsgi_temp_path \(path("logs"));
                        scgi_temp_path \(path("logs"));
                        server {
                            listen 127.0.0.1:\(port) ssl http2;
                            ssl_certificate \(path("server.pem"));
                            ssl_certificate_key \(path("server.key"));
                            add_header X-Protocol $server_protocol always;
                            location = /catalog {
                                default_type application/json;
                                if ($request_method = POST) { return 200 '{"ok":true}'; }
                                return 200 '{"items":[1,2,3]}';
                            }
                        }
                    }
                    """.write(toFile: path("nginx.conf"), atomically: true, encoding: .utf8)
                    return ["-c", path("nginx.conf"), "-p", directory.path]
                },
                log: { directory in
                    (try? String(contentsOf: directory.appendingPathComponent("logs/error.log"), encoding: .utf8)) ?? ""
                })
            return LocalNginx(authority: authority, daemon: daemon)
        }

        func stop() async {
            await daemon.stop()
        }

        private static func run(_ executable: URL, _ arguments: String...) async throws {
            let exit = try ChildProcess(executable.path, arguments).waitUntilExit()
            guard exit == ChildProcess.Exit(status: 0, signalled: false) else {
                throw NginxTestError.openssl(arguments.joined(separator: " "))
            }
        }
    }

    enum NginxTestError: Error, CustomStringConvertible {
        case notInstalled
        case openssl(String)

        var description: String {
            switch self {
            case .notInstalled: "nginx or openssl is not installed (apt-get install nginx-light openssl)"
            case .openssl(let command): "openssl \(command) failed"
            }
        }
    }
#endif
