#if ConformanceTLS
    import Foundation
    import RetroSwift

    extension TransportConformance {
        /// TLS: servers a domain does not trust are refused with one error, and a `ServerTrust` is enforced exactly as
        /// far as the transport's `serverTrustSupport` says, with a certificate authority made for the case. A host is
        /// verified without case, and an IP literal against the certificate's IP addresses, with no server name sent
        /// for it (RFC 6066 §3: the server name extension carries host names, never addresses).
        static let tlsCases: [TransportConformanceCase] = [
            TransportConformanceCase(
                "tls/unknown-authority-refused",
                "a certificate from an authority the system does not know fails with URLError.serverCertificateUntrusted"
            ) { context in
                let authority = try TestCertificateAuthority(name: "RetroSwift conformance unknown CA")
                try await context.withSecureServer(presenting: try authority.issue(for: .loopback)) { api, server in
                    try await context.urlError(.serverCertificateUntrusted) { try await api.item() }
                    try context.expect(server.requests.isEmpty, "the server received \(server.requests.count) requests")
                }
            },
            TransportConformanceCase(
                "tls/own-authority", "a domain's own certificate authority is trusted, or the call refused before sending"
            ) { context in
                let authority = try TestCertificateAuthority(name: "RetroSwift conformance CA")
                try await context.withSecureServer(presenting: try authority.issue(for: .loopback)) { api, server in
                    api.serverTrust = try ServerTrust(certificateAuthorities: [authority.der])
                    try await context.expectEnforced(api.serverTrust, by: api, server) {
                        let response = try await api.item()
                        try context.expect(response.body.id == 1, "the call answered \(response.body)")
                    }
                }
            },
            TransportConformanceCase(
                "tls/other-host-refused", "a trusted authority's certificate for another host fails as untrusted"
            ) { context in
                let authority = try TestCertificateAuthority(name: "RetroSwift conformance CA")
                try await context.withSecureServer(presenting: try authority.issue(for: .elsewhere)) { api, server in
                    api.serverTrust = try ServerTrust(certificateAuthorities: [authority.der])
                    try await context.expectEnforced(api.serverTrust, by: api, server) {
                        try await context.urlError(.serverCertificateUntrusted) { try await api.item() }
                    }
                }
            },
            TransportConformanceCase(
                "tls/matching-pin-accepted", "a chain holding a pinned key is accepted, or the call refused before sending"
            ) { context in
                let authority = try TestCertificateAuthority(name: "RetroSwift conformance CA")
                let issued = try authority.issue(for: .loopback)
                try await context.withSecureServer(presenting: issued) { api, server in
                    api.serverTrust = try ServerTrust(certificateAuthorities: [authority.der], pinnedPublicKeys: [issued.pin])
                    try await context.expectEnforced(api.serverTrust, by: api, server) {
                        _ = try await api.item()
                        for try await _ in try await api.stream() {}
                    }
                }
            },
            TransportConformanceCase(
                "tls/other-pin-refused", "a chain holding no pinned key fails as untrusted, or the call refused before sending"
            ) { context in
                let authority = try TestCertificateAuthority(name: "RetroSwift conformance CA")
                let other = try TestCertificateAuthority(name: "RetroSwift conformance other CA")
                try await context.withSecureServer(presenting: try authority.issue(for: .loopback)) { api, server in
                    api.serverTrust = try ServerTrust(certificateAuthorities: [authority.der], pinnedPublicKeys: [other.pin])
                    try await context.expectEnforced(api.serverTrust, by: api, server) {
                        try await context.urlError(.serverCertificateUntrusted) { try await api.item() }
                        try await context.urlError(.serverCertificateUntrusted) { try await api.file() }
                    }
                }
            },
            TransportConformanceCase(
                "tls/host-in-capitals",
                "a certificate for localhost is verified for https://LOCALHOST, named in the hello, and https://localhost, https://Localhost… share its connections"
            ) { context in
                let authority = try TestCertificateAuthority(name: "RetroSwift conformance CA")
                try await context.withSecureServer(presenting: try authority.issue(for: .localhost), reachedAs: "LOCALHOST") {
                    api, server, serverNames in
                    api.serverTrust = try ServerTrust(certificateAuthorities: [authority.der])
                    try await context.expectEnforced(api.serverTrust, by: api, server) {
                        try await context.expectSharedConnections(for: api, server) { "https://\($0):\(server.port)/item" }
                        // Also proof that the server sees the names clients send, which the IP literal cases rely on.
                        let names = serverNames.all
                        try context.expect(
                            !names.isEmpty && names.allSatisfy { $0?.lowercased() == "localhost" },
                            "the client hellos named \(names), not localhost")
                    }
                }
            },
            TransportConformanceCase(
                "tls/ipv6-literal-no-server-name",
                "a certificate for the IP address ::1 is verified for https://[::1], and the hello names no server"
            ) { context in
                let authority = try TestCertificateAuthority(name: "RetroSwift conformance CA")
                try await context.withSecureServer(presenting: try authority.issue(for: .ipv6Loopback), on: "::1") {
                    api, server, serverNames in
                    api.serverTrust = try ServerTrust(certificateAuthorities: [authority.der])
                    try await context.expectEnforced(api.serverTrust, by: api, server) {
                        try await context.expectAnsweredWithoutServerName(api, serverNames)
                    }
                }
            },
            TransportConformanceCase(
                "tls/ipv4-literal-no-server-name",
                "a certificate for 127.0.0.1 and localhost is verified for https://127.0.0.1, and the hello names no server"
            ) { context in
                let authority = try TestCertificateAuthority(name: "RetroSwift conformance CA")
                // localhost too, so that only the hello tells a transport that names the address apart.
                try await context.withSecureServer(presenting: try authority.issue(for: .loopback, .localhost)) {
                    api, server, serverNames in
                    api.serverTrust = try ServerTrust(certificateAuthorities: [authority.der])
                    try await context.expectEnforced(api.serverTrust, by: api, server) {
                        try await context.expectAnsweredWithoutServerName(api, serverNames)
                    }
                }
            },
        ]
    }

    extension ConformanceContext {
        /// Runs `body` against an `https` server presenting `certificate`, answering an item to every request (and a
        /// short stream to `/stream`), and stops it.
        func withSecureServer(
            presenting certificate: TestCertificateAuthority.IssuedCertificate,
            _ body: (ConformanceApi, TestServer) async throws -> Void
        ) async throws {
            try await withSecureServer(presenting: certificate) { api, server, _ in try await body(api, server) }
        }

        /// Runs `body` against an `https` server listening on `host` and presenting `certificate`, through an API whose
        /// base URL names the server `spelling` (its address by default), with the server names of the client hellos
        /// as they come (`nil` for a hello naming none); stops the server.
        func withSecureServer(
            presenting certificate: TestCertificateAuthority.IssuedCertificate, on host: String = "127.0.0.1",
            reachedAs spelling: String? = nil, _ body: (ConformanceApi, TestServer, Collected<String?>) async throws -> Void
        ) async throws {
            let serverNames = Collected<String?>()
            let tls = try certificate.serverTLS { serverNames.add($0) }
            let server = try await startServer(on: host, tls: tls) { request in
                request.target == "/stream"
                    ? ScriptedResponse(behavior: .chunked(pieces: [Data("a".utf8), Data("b".utf8)], interval: 0, holdingOpen: false))
                    : .json(#"{"id":1}"#)
            }
            let configured = spelling.map { self.api(baseURL: URL(string: "https://\($0):\(server.port)")!) } ?? api(at: server)
            try await run({ try await body($0, $1, serverNames) }, configured, server)
        }

        /// Calls `api` and expects the answer, over connections whose client hellos named no server.
        func expectAnsweredWithoutServerName(_ api: ConformanceApi, _ serverNames: Collected<String?>) async throws {
            let response = try await api.item()
            try expect(response.body.id == 1, "the call answered \(response.body)")
            let names = serverNames.all
            try expect(
                !names.isEmpty && names.allSatisfy { $0 == nil },
                "the client hellos named \(names.map { $0 ?? "no server" }): an IP address is never a server name")
        }

        /// Runs `checks` when the API's transport enforces `trust`; otherwise expects RetroSwift to refuse the call
        /// with `RequestError.Kind.serverTrustUnsupported` and nothing to reach `server`.
        func expectEnforced(
            _ trust: ServerTrust, by api: ConformanceApi, _ server: TestServer, _ checks: () async throws -> Void
        ) async throws {
            if trust.requirements.isSubset(of: (api.transport as? any ServerTrustEnforcing)?.serverTrustSupport ?? []) {
                return try await checks()
            }
            try await requestError(.serverTrustUnsupported) { try await api.item() }
            try expect(server.requests.isEmpty, "a refused call reached the server: \(server.requests.count) requests")
        }
    }
#endif
