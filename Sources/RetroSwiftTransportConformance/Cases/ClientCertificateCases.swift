#if ConformanceTLS
    import Foundation
    import RetroSwift

    extension TransportConformance {
        /// Client certificates (mutual TLS), against a server that requires one issued by an authority made for the
        /// case and reports the certificate of each handshake: a domain's `ClientIdentity` is presented, a call without
        /// one fails before the server reads it, and a domain sharing the transport never presents another's nor uses a
        /// connection made with it. A transport whose `serverTrustSupport` lacks `.clientIdentity` must refuse the call
        /// before sending instead.
        static let clientCertificateCases: [TransportConformanceCase] = [
            TransportConformanceCase(
                "tls/client-certificate-presented",
                "a server requiring a client certificate answers a domain presenting its ClientIdentity (calls, streams, "
                    + "downloads) and reads nothing of one without; or the call is refused before sending"
            ) { context in
                try await context.withClientCertificateServer { api, server, clients in
                    try await context.expectRefusedWithoutCertificate(api, server)
                    api.clientIdentity = try clients.alice.identity()
                    try await context.expectPresented(by: api, server) {
                        let response = try await api.item()
                        try context.expect(response.body.id == 1, "the call answered \(response.body)")
                        for try await _ in try await api.stream() {}
                        try FileManager.default.removeItem(at: try await api.file().url)
                        let presented = clients.presented.all
                        try context.expect(
                            !presented.isEmpty && presented.allSatisfy { $0 == clients.alice.pin },
                            "the handshakes presented \(clients.names(of: presented)), not alice's certificate alone")
                    }
                }
            },
            TransportConformanceCase(
                "tls/client-certificate-own-domain-only",
                "domains sharing a transport each present their own ClientIdentity, and one without never presents "
                    + "another's nor uses its connection; or the call is refused before sending"
            ) { context in
                try await context.withClientCertificateServer { api, server, clients in
                    api.clientIdentity = try clients.alice.identity()
                    let without = ConformanceApi(transport: api.transport)
                    without.serverTrust = api.serverTrust
                    let bob = ConformanceApi(transport: api.transport)
                    bob.serverTrust = api.serverTrust
                    bob.clientIdentity = try clients.bob.identity()
                    try await context.expectPresented(by: api, server) {
                        // Two calls, so that alice's connection is one the transport keeps for reuse.
                        _ = try await api.item()
                        _ = try await api.item()
                        try await context.expectRefusedWithoutCertificate(without, server)
                        _ = try await bob.item()
                        let presented = clients.presented.all
                        try context.expect(
                            presented.first == clients.alice.pin && presented.last == clients.bob.pin
                                && server.requests.count == 3,
                            "the handshakes presented \(clients.names(of: presented)) and the server read "
                                + "\(server.requests.count) requests, not alice's then bob's certificate and 3 requests")
                    }
                }
            },
            TransportConformanceCase(
                "tls/client-certificate-kept-to-its-origin",
                "a redirect to another origin goes without the domain's ClientIdentity, a credential kept to its origin "
                    + "as Authorization is, and one within the origin keeps it; or the call is refused before sending"
            ) { context in
                let authority = try TestCertificateAuthority(name: "RetroSwift conformance CA")
                let issuer = try TestCertificateAuthority(name: "RetroSwift conformance client CA")
                let clients = ConformanceClients(
                    alice: try issuer.issueClientCertificate(named: "alice"), bob: try issuer.issueClientCertificate(named: "bob"))
                let presentedElsewhere = Collected<String>()
                let certificate = try authority.issue(for: .loopback)
                // Another origin (another port) that asks for a certificate but answers without one.
                let elsewhere = try await context.startServer(
                    on: "127.0.0.1",
                    tls: try certificate.serverTLS(acceptingClientCertificatesFrom: issuer) { presentedElsewhere.add($0) }
                ) { _ in .json(#"{"id":2}"#) }
                let tls = try certificate.serverTLS(requiringClientCertificatesFrom: issuer) { clients.presented.add($0) }
                let server = try await context.startServer(on: "127.0.0.1", tls: tls) { request in
                    switch request.target {
                    case "/items/same?q=&plus=": ScriptedResponse(status: 302, headers: [("Location", "/item")])
                    case "/data": ScriptedResponse(status: 302, headers: [("Location", "\(elsewhere.baseURL)/item")])
                    default: .json(#"{"id":1}"#)
                    }
                }
                let api = context.api(at: server)
                api.serverTrust = try ServerTrust(certificateAuthorities: [authority.der])
                api.clientIdentity = try clients.alice.identity()
                do {
                    try await context.run(
                        { api, server in
                            try await context.expectPresented(by: api, server) {
                                // Within the origin: alice's certificate on both hops (a new connection for the second is
                                // fine, one without it is refused by the server).
                                _ = try await api.target(.init(name: "same"))
                                // To another origin: the hop is answered, and presents nothing there.
                                let other = try await api.data()
                                try context.expect(
                                    other.body == Data(#"{"id":2}"#.utf8),
                                    "the hop to another origin answered \(String(decoding: other.body, as: UTF8.self))")
                                let presented = clients.presented.all
                                try context.expect(
                                    !presented.isEmpty && presented.allSatisfy { $0 == clients.alice.pin }
                                        && server.requests.count == 3,
                                    "the origin's handshakes presented \(clients.names(of: presented)) and it read "
                                        + "\(server.requests.count) requests, not alice's certificate alone and 3 requests")
                                try context.expect(
                                    presentedElsewhere.all.isEmpty && elsewhere.requests.count == 1,
                                    "the other origin was presented \(clients.names(of: presentedElsewhere.all)) and read "
                                        + "\(elsewhere.requests.count) requests, not no certificate and 1 request")
                            }
                        }, api, server)
                } catch {
                    await elsewhere.stop()
                    throw error
                }
                await elsewhere.stop()
            },
        ]
    }

    /// The client certificates of a case's server, and what its handshakes presented.
    struct ConformanceClients: Sendable {
        let alice: TestCertificateAuthority.ClientCertificate
        let bob: TestCertificateAuthority.ClientCertificate
        /// The pin of the certificate each handshake presented, in order; none for a handshake that presented none.
        let presented = Collected<String>()

        /// Who the `pins` belong to, for failure messages.
        func names(of pins: [String]) -> [String] {
            pins.map { $0 == alice.pin ? "alice" : $0 == bob.pin ? "bob" : "another certificate" }
        }
    }

    extension TestCertificateAuthority.ClientCertificate {
        /// The certificate and key as a domain presents them.
        func identity() throws -> ClientIdentity {
            try ClientIdentity(certificateChainPEM: certificatePEM, privateKeyPEM: privateKeyPEM)
        }
    }

    extension ConformanceContext {
        /// The failures a handshake the server refused for want of a client certificate may end a call with: with TLS
        /// 1.3 the client learns it only when the server's alert arrives in place of the response.
        static let refusedHandshake: Set<URLError.Code> = [.secureConnectionFailed]

        /// Runs `body` against an `https` server that requires a client certificate from an authority made for the
        /// case (alice's and bob's), through an API trusting the server's authority and presenting no identity, and
        /// stops the server.
        func withClientCertificateServer(_ body: (ConformanceApi, TestServer, ConformanceClients) async throws -> Void)
            async throws
        {
            let authority = try TestCertificateAuthority(name: "RetroSwift conformance CA")
            let issuer = try TestCertificateAuthority(name: "RetroSwift conformance client CA")
            let clients = ConformanceClients(
                alice: try issuer.issueClientCertificate(named: "alice"), bob: try issuer.issueClientCertificate(named: "bob"))
            let tls = try authority.issue(for: .loopback).serverTLS(requiringClientCertificatesFrom: issuer) {
                clients.presented.add($0)
            }
            let server = try await startServer(on: "127.0.0.1", tls: tls) { request in
                request.target == "/stream"
                    ? ScriptedResponse(behavior: .chunked(pieces: [Data("a".utf8), Data("b".utf8)], interval: 0, holdingOpen: false))
                    : .json(#"{"id":1}"#)
            }
            let api = api(at: server)
            api.serverTrust = try ServerTrust(certificateAuthorities: [authority.der])
            try await run({ try await body($0, $1, clients) }, api, server)
        }

        /// Expects a call of `api`, which presents no identity, to fail as a refused handshake (or, on a transport that
        /// cannot enforce its trust, to be refused before sending), with no request reaching `server`.
        func expectRefusedWithoutCertificate(_ api: ConformanceApi, _ server: TestServer) async throws {
            let before = server.requests.count
            if api.serverTrust.requirements.isSubset(of: (api.transport as? any ServerTrustEnforcing)?.serverTrustSupport ?? []) {
                let thrown = try await error { try await api.item() }
                let failed = (thrown as? TransportError)?.underlyingError ?? thrown
                guard let urlError = failed as? URLError, Self.refusedHandshake.contains(urlError.code) else {
                    throw failure("a call without a client certificate failed with \(describe(thrown)), not as a refused handshake")
                }
            } else {
                try await requestError(.serverTrustUnsupported) { try await api.item() }
            }
            try expect(
                server.requests.count == before,
                "a call without a client certificate reached the server: \(server.requests.count - before) requests")
        }

        /// Runs `checks` when `api`'s transport presents client identities and enforces its trust; otherwise expects
        /// RetroSwift to refuse the call with `RequestError.Kind.serverTrustUnsupported`, nothing reaching `server`.
        func expectPresented(by api: ConformanceApi, _ server: TestServer, _ checks: () async throws -> Void) async throws {
            let needed = api.serverTrust.requirements.union(.clientIdentity)
            if needed.isSubset(of: (api.transport as? any ServerTrustEnforcing)?.serverTrustSupport ?? []) {
                return try await checks()
            }
            let before = server.requests.count
            try await requestError(.serverTrustUnsupported) { try await api.item() }
            try expect(server.requests.count == before, "a refused call reached the server")
        }
    }
#endif
