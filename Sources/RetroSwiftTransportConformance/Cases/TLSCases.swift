#if ConformanceTLS
    import Foundation
    import RetroSwift

    extension TransportConformance {
        /// TLS: servers a domain does not trust are refused with one error, and a `ServerTrust` is enforced exactly as
        /// far as the transport's `serverTrustSupport` says, with a certificate authority made for the case.
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
        ]
    }

    extension ConformanceContext {
        /// Runs `body` against an `https` server presenting `certificate`, answering an item to every request (and a
        /// short stream to `/stream`), and stops it.
        func withSecureServer(
            presenting certificate: TestCertificateAuthority.IssuedCertificate,
            _ body: (ConformanceApi, TestServer) async throws -> Void
        ) async throws {
            let server = try await TestServer.start(tls: try certificate.serverTLS()) { request in
                request.target == "/stream"
                    ? ScriptedResponse(behavior: .chunked(pieces: [Data("a".utf8), Data("b".utf8)], interval: 0, holdingOpen: false))
                    : .json(#"{"id":1}"#)
            }
            try await run(body, api(at: server), server)
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
