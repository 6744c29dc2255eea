#if TransportConformance
    import Foundation
    import RetroSwift
    import RetroSwiftTestServer
    import Testing

    #if canImport(FoundationNetworking)
        import FoundationNetworking
    #endif

    /// ``ServerTrust`` against real HTTPS servers on 127.0.0.1, with certificates from an authority made for the run:
    /// what each transport enforces, for every kind of call, and what it refuses.
    @Suite("End to end: TLS server trust", .timeLimit(.minutes(3)))
    struct ServerTrustEndToEndTests {
        struct Item: Decodable, Equatable {
            var id: String
        }

        struct ItemRequest {
            @Path var id: String
        }

        struct UploadRequest {
            @FormFile("file") var file = .empty
        }

        // @unchecked Sendable: endpoint wrappers only, set up in init and never reassigned.
        final class Api: Domain, @unchecked Sendable {
            @Get("/items/{id}") var item: (ItemRequest) async throws -> Item
            @Post("/upload") var upload: (UploadRequest) async throws -> Item
            @Get("/bytes") var bytes: () async throws -> HTTPBodyStream
            @Get("/download") var download: () async throws -> DownloadedFile
            @Get("/leave") var leave: () async throws -> Item
        }

        static func respond(_ request: RecordedRequest) -> ScriptedResponse {
            switch request.pathSegments.last ?? "" {
            case "leave":
                ScriptedResponse(status: 302, headers: [("Location", "http://127.0.0.1:9/items/plain")])
            case "bytes", "download":
                ScriptedResponse(
                    status: 200, headers: [("Content-Type", "application/octet-stream")], body: Data(repeating: 7, count: 100_000))
            case "upload":
                ScriptedResponse(
                    status: 200, headers: [("Content-Type", "application/json")],
                    body: Data(#"{"id":"\#(request.body.count)"}"#.utf8))
            case let id:
                ScriptedResponse(status: 200, headers: [("Content-Type", "application/json")], body: Data(#"{"id":"\#(id)"}"#.utf8))
            }
        }

        /// Runs `body` with an API on `kind` pointed at a new HTTPS server presenting a certificate for `names` from
        /// `authority`.
        static func withSecureApi(
            _ kind: TransportKind, authority: TestCertificateAuthority, names: TestCertificateAuthority.Names = .loopback,
            _ body: (Api, TestServer) async throws -> Void
        ) async throws {
            let tls = try authority.issue(for: names).serverTLS()
            try await withServer(kind, tls: tls, respond: respond) { transport, server in
                try await body(Api(transport: transport), server)
            }
        }

        /// The transports that enforce an authority of the domain's own here: async-http-client everywhere,
        /// URLSession on Apple platforms only.
        static var enforcingAuthorities: [TransportKind] {
            TransportKind.allCases.filter {
                (($0.make() as? any ServerTrustEnforcing)?.serverTrustSupport ?? []).contains(.certificateAuthorities)
            }
        }

        @Test("a server whose authority the domain trusts answers every kind of call", arguments: enforcingAuthorities)
        func trustedAuthority(kind: TransportKind) async throws {
            // Given
            let authority = try TestCertificateAuthority(name: "RetroSwift test CA")
            let upload = FileManager.default.temporaryDirectory.appendingPathComponent("retroswift-tls-\(UUID().uuidString)")
            try Data(repeating: 1, count: 300_000).write(to: upload)
            defer { try? FileManager.default.removeItem(at: upload) }

            try await Self.withSecureApi(kind, authority: authority) { api, server in
                api.serverTrust = try ServerTrust(certificateAuthorities: [authority.der])

                // When
                let item = try await api.item(ItemRequest(id: "42"))
                let uploaded = try await api.upload(UploadRequest(file: .init(fileURL: upload)))
                var streamed = 0
                for try await chunk in try await api.bytes() { streamed += chunk.count }
                let file = try await api.download()
                defer { try? FileManager.default.removeItem(at: file.url) }

                // Then
                #expect(item == Item(id: "42"))
                #expect(Int(uploaded.id) ?? 0 > 300_000)
                #expect(streamed == 100_000)
                #expect(try Data(contentsOf: file.url) == Data(repeating: 7, count: 100_000))
                #expect(server.requests.count == 4)
            }
        }

        @Test("the same authority, given as PEM, is trusted alike", arguments: enforcingAuthorities)
        func trustedAuthorityFromPEM(kind: TransportKind) async throws {
            // Given
            let authority = try TestCertificateAuthority(name: "RetroSwift test CA")
            try await Self.withSecureApi(kind, authority: authority) { api, _ in
                api.serverTrust = try ServerTrust(certificateAuthoritiesPEM: "a comment\n" + authority.pem)

                // When
                let item = try await api.item(ItemRequest(id: "pem"))

                // Then
                #expect(item == Item(id: "pem"))
            }
        }

        @Test(
            "a certificate from an authority the domain does not trust is refused, naming the endpoint", arguments: TransportKind.allCases)
        func unknownAuthority(kind: TransportKind) async throws {
            // Given: the system's authorities, which do not include one made a moment ago
            let authority = try TestCertificateAuthority(name: "RetroSwift unknown CA")
            try await Self.withSecureApi(kind, authority: authority) { api, server in
                // When
                let error = await #expect(throws: TransportError.self) { _ = try await api.item(ItemRequest(id: "1")) }

                // Then
                #expect(error?.code == .serverCertificateUntrusted)
                #expect(
                    error?.description
                        == "Api.item (GET /items/{id}) at \(server.baseURL.absoluteString)/items/1: the server's TLS certificate "
                        + "was not trusted (URLError -1202)")
                #expect(server.requests.isEmpty)
            }
        }

        @Test("a certificate from another trusted authority than the domain's is refused", arguments: enforcingAuthorities)
        func otherAuthority(kind: TransportKind) async throws {
            // Given
            let serverAuthority = try TestCertificateAuthority(name: "RetroSwift server CA")
            let domainAuthority = try TestCertificateAuthority(name: "RetroSwift domain CA")
            try await Self.withSecureApi(kind, authority: serverAuthority) { api, server in
                api.serverTrust = try ServerTrust(certificateAuthorities: [domainAuthority.der])

                // When
                let error = await #expect(throws: TransportError.self) { _ = try await api.item(ItemRequest(id: "1")) }

                // Then
                #expect(error?.code == .serverCertificateUntrusted)
                #expect(server.requests.isEmpty)
            }
        }

        @Test("a trusted authority's certificate for another host is refused", arguments: enforcingAuthorities)
        func hostnameMismatch(kind: TransportKind) async throws {
            // Given
            let authority = try TestCertificateAuthority(name: "RetroSwift test CA")
            try await Self.withSecureApi(kind, authority: authority, names: .elsewhere) { api, server in
                api.serverTrust = try ServerTrust(certificateAuthorities: [authority.der])

                // When
                let error = await #expect(throws: TransportError.self) { _ = try await api.item(ItemRequest(id: "1")) }

                // Then
                #expect(error?.code == .serverCertificateUntrusted)
                #expect(server.requests.isEmpty)
            }
        }

        @Test("a redirect from https to http is refused by default", arguments: enforcingAuthorities)
        func downgradeRefused(kind: TransportKind) async throws {
            // Given
            let authority = try TestCertificateAuthority(name: "RetroSwift test CA")
            try await Self.withSecureApi(kind, authority: authority) { api, server in
                api.serverTrust = try ServerTrust(certificateAuthorities: [authority.der])

                // When
                let error = await #expect(throws: RequestError.self) { _ = try await api.leave() }

                // Then
                #expect(error?.kind == .redirectRefused)
                #expect(error?.response?.statusCode == 302)
                #expect(server.requests.map(\.target) == ["/leave"])
            }
        }

        /// The transports that enforce pins: NIOTransport, on Linux.
        static var enforcingPins: [TransportKind] {
            TransportKind.allCases.filter { (($0.make() as? any ServerTrustEnforcing)?.serverTrustSupport ?? []).contains(.publicKeyPins) }
        }

        @Test("a pinned key on the verified chain lets every kind of call through, and no pinned key none", arguments: enforcingPins)
        func pinnedCalls(kind: TransportKind) async throws {
            // Given: a server presenting a leaf of a trusted authority, and a file to upload
            let authority = try TestCertificateAuthority(name: "RetroSwift test CA")
            let other = try TestCertificateAuthority(name: "RetroSwift other CA")
            let leaf = try authority.issue(for: .loopback)
            let upload = FileManager.default.temporaryDirectory.appendingPathComponent("retroswift-pins-\(UUID().uuidString)")
            try Data(repeating: 1, count: 300_000).write(to: upload)
            defer { try? FileManager.default.removeItem(at: upload) }

            try await withServer(kind, tls: try leaf.serverTLS(), respond: Self.respond) { transport, server in
                let api = Api(transport: transport)

                // When: the leaf's key is pinned
                api.serverTrust = try ServerTrust(certificateAuthorities: [authority.der], pinnedPublicKeys: [leaf.pin])
                let item = try await api.item(ItemRequest(id: "7"))
                let uploaded = try await api.upload(UploadRequest(file: .init(fileURL: upload)))
                var streamed = 0
                for try await chunk in try await api.bytes() { streamed += chunk.count }
                let file = try await api.download()
                defer { try? FileManager.default.removeItem(at: file.url) }

                // Then
                #expect(item == Item(id: "7"))
                #expect(Int(uploaded.id) ?? 0 > 300_000)
                #expect(streamed == 100_000)
                #expect(try Data(contentsOf: file.url).count == 100_000)

                // When: only the root's key is pinned, which the server never presents: it is on the verified chain
                api.serverTrust = try ServerTrust(certificateAuthorities: [authority.der], pinnedPublicKeys: [authority.pin])
                let viaRoot = try await api.item(ItemRequest(id: "root"))

                // Then
                #expect(viaRoot == Item(id: "root"))
                #expect(server.requests.count == 5)

                // When: a key of no certificate on the chain is pinned
                api.serverTrust = try ServerTrust(certificateAuthorities: [authority.der], pinnedPublicKeys: [other.pin])
                let refusals = [
                    await #expect(throws: TransportError.self) { _ = try await api.item(ItemRequest(id: "1")) },
                    await #expect(throws: TransportError.self) { _ = try await api.upload(UploadRequest(file: .init(fileURL: upload))) },
                    await #expect(throws: TransportError.self) { for try await _ in try await api.bytes() {} },
                    await #expect(throws: TransportError.self) { _ = try await api.download() },
                ]

                // Then: every kind of call is refused before a byte of it is sent
                #expect(refusals.map { $0?.code } == Array(repeating: .serverCertificateUntrusted, count: 4))
                #expect(server.requests.count == 5)
            }
        }

        /// The transports that cannot enforce pins: both on Linux.
        static var ignoringPins: [TransportKind] {
            TransportKind.allCases.filter { !(($0.make() as? any ServerTrustEnforcing)?.serverTrustSupport ?? []).contains(.publicKeyPins) }
        }

        @Test("a transport that cannot enforce the domain's pins sends nothing and says why", arguments: ignoringPins)
        func unenforceableTrustSendsNothing(kind: TransportKind) async throws {
            // Given
            let authority = try TestCertificateAuthority(name: "RetroSwift test CA")
            let leaf = try authority.issue(for: .loopback)
            let transport = kind.make()
            try await Self.withSecureApi(kind, authority: authority) { api, server in
                api.serverTrust = try ServerTrust(
                    certificateAuthorities: [authority.der], pinnedPublicKeys: [leaf.pin])

                // When
                let error = await #expect(throws: RequestError.self) { _ = try await api.item(ItemRequest(id: "1")) }

                // Then
                #expect(error?.kind == .serverTrustUnsupported)
                #expect(
                    error?.description
                        == "Api.item (GET /items/{id}): the domain's ServerTrust pins public keys, which "
                        + "\(type(of: transport)) cannot enforce (see its serverTrustSupport); nothing was sent")
                #expect(server.requests.isEmpty)
                #expect(server.openConnectionCount == 0)
            }
        }

        /// The transports that cannot enforce an authority of the domain's own: URLSession on Linux.
        static var ignoringAuthorities: [TransportKind] {
            TransportKind.allCases.filter {
                !(($0.make() as? any ServerTrustEnforcing)?.serverTrustSupport ?? []).contains(.certificateAuthorities)
            }
        }

        @Test("a transport without authorities of its own sends nothing for a domain that has them", arguments: ignoringAuthorities)
        func authoritiesUnenforceable(kind: TransportKind) async throws {
            // Given
            let authority = try TestCertificateAuthority(name: "RetroSwift test CA")
            try await Self.withSecureApi(kind, authority: authority) { api, server in
                api.serverTrust = try ServerTrust(certificateAuthorities: [authority.der])

                // When
                let error = await #expect(throws: RequestError.self) { _ = try await api.bytes() }

                // Then
                #expect(error?.kind == .serverTrustUnsupported)
                #expect(error?.description.contains("trusts certificate authorities of its own") == true)
                #expect(server.requests.isEmpty)
            }
        }

        @Test("RetroSwift computes a certificate's pin as swift-certificates and swift-crypto do")
        func pinMatchesIndependentComputation() throws {
            // Given
            let authority = try TestCertificateAuthority(name: "RetroSwift test CA")
            let leaf = try authority.issue(for: .loopback)
            let leafDER = leaf.der
            let pin = leaf.pin

            // When
            let trust = try ServerTrust(pinnedPublicKeys: ["sha256/" + pin])
            let otherTrust = try ServerTrust(pinnedPublicKeys: [authority.pin])

            // Then
            #expect(trust.acceptsPins(of: [leafDER]))
            #expect(trust.acceptsPins(of: [authority.der, leafDER]))
            #expect(!trust.acceptsPins(of: [authority.der]))
            #expect(otherTrust.acceptsPins(of: [leafDER, authority.der]))
            #expect(!otherTrust.acceptsPins(of: [leafDER]))
        }
    }
#endif
