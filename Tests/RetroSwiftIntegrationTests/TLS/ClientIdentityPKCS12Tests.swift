#if TransportConformance
    import Foundation
    import NIOConcurrencyHelpers
    import RetroSwift
    import RetroSwiftTestServer
    import Testing

    /// A ``ClientIdentity`` from a PKCS #12 archive that `openssl pkcs12 -export` wrote (OpenSSL 3's defaults:
    /// PBES2 with AES-256-CBC), presented to a real server requiring client certificates, on every transport that
    /// presents identities; and the error of a wrong passphrase, before anything is sent.
    @Suite("End to end: a client identity from a PKCS #12 archive", .enabled(if: OpenSSL.installed, OpenSSL.skipReason))
    struct ClientIdentityPKCS12Tests {
        typealias Api = ServerTrustEndToEndTests.Api
        typealias ItemRequest = ServerTrustEndToEndTests.ItemRequest

        /// The transports that present identities made from archives here: URLSession on Apple platforms only.
        static var presenting: [TransportKind] {
            TransportKind.allCases.filter {
                !(($0.make() as? any ServerTrustEnforcing)?.serverTrustSupport ?? []).isDisjoint(with: [
                    .clientIdentity, .pkcs12ClientIdentity,
                ])
            }
        }

        /// Runs `body` with an API on `kind`, trusting a server that requires a client certificate `clients` issued
        /// and records the pin of each one presented.
        static func withServerRequiringCertificates(
            _ kind: TransportKind, from clients: TestCertificateAuthority,
            _ body: (Api, TestServer, NIOLockedValueBox<[String]>) async throws -> Void
        ) async throws {
            let authority = try TestCertificateAuthority(name: "RetroSwift test CA")
            let presented = NIOLockedValueBox<[String]>([])
            let tls = try authority.issue(for: .loopback).serverTLS(requiringClientCertificatesFrom: clients) { pin in
                presented.withLockedValue { $0.append(pin) }
            }
            try await withServer(kind, tls: tls, respond: ServerTrustEndToEndTests.respond) { transport, server in
                let api = Api(transport: transport)
                api.serverTrust = try ServerTrust(certificateAuthorities: [authority.der])
                try await body(api, server, presented)
            }
        }

        @Test("the archive's certificate is presented and the call answered", arguments: presenting)
        func presented(kind: TransportKind) async throws {
            // Given
            let clients = try TestCertificateAuthority(name: "RetroSwift client CA")
            let alice = try clients.issueClientCertificate(named: "alice")
            let archive = try OpenSSL.pkcs12(alice, passphrase: "correct horse")

            try await Self.withServerRequiringCertificates(kind, from: clients) { api, server, presented in
                api.clientIdentity = try ClientIdentity(pkcs12: archive, passphrase: "correct horse")

                // When
                let item = try await api.item(ItemRequest(id: "p12"))

                // Then
                #expect(item.id == "p12")
                #expect(!presented.withLockedValue { $0 }.isEmpty && presented.withLockedValue { $0 }.allSatisfy { $0 == alice.pin })
                #expect(server.requests.map(\.target) == ["/items/p12"])
            }
        }

        @Test(
            "a wrong passphrase fails the call naming the endpoint and clientIdentity; nothing reaches the server",
            arguments: presenting)
        func wrongPassphrase(kind: TransportKind) async throws {
            // Given
            let clients = try TestCertificateAuthority(name: "RetroSwift client CA")
            let archive = try OpenSSL.pkcs12(try clients.issueClientCertificate(named: "alice"), passphrase: "correct horse")

            try await Self.withServerRequiringCertificates(kind, from: clients) { api, server, presented in
                api.clientIdentity = try ClientIdentity(pkcs12: archive, passphrase: "battery staple")

                // When
                let error = await #expect(throws: RequestError.self) { _ = try await api.item(ItemRequest(id: "p12")) }

                // Then
                #expect(error?.kind == .invalidValue && error?.field == "clientIdentity")
                #expect(
                    error?.description.hasPrefix(
                        "Api.item (GET /items/{id}), field 'clientIdentity': its PKCS #12 archive could not be opened: a wrong "
                            + "passphrase, or an archive that is damaged (") == true, "\(String(describing: error))")
                #expect(server.requests.isEmpty && presented.withLockedValue { $0 }.isEmpty)
            }
        }
    }

    /// The `openssl` command line, which `.ci/run` installs: what writes PKCS #12 archives for the tests.
    enum OpenSSL {
        static let path = "/usr/bin/openssl"
        static var installed: Bool { FileManager.default.isExecutableFile(atPath: path) }
        static let skipReason: Comment = "needs /usr/bin/openssl (bash .ci/run installs it)"

        /// `certificate` and its key as a PKCS #12 archive, exported with `passphrase`.
        static func pkcs12(_ certificate: TestCertificateAuthority.ClientCertificate, passphrase: String) throws -> Data {
            let directory = FileManager.default.temporaryDirectory.appendingPathComponent("retroswift-p12-\(UUID().uuidString)")
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            defer { try? FileManager.default.removeItem(at: directory) }
            let certificateFile = directory.appendingPathComponent("client.pem")
            let keyFile = directory.appendingPathComponent("client.key")
            let archiveFile = directory.appendingPathComponent("client.p12")
            try certificate.certificatePEM.write(to: certificateFile, atomically: true, encoding: .utf8)
            try certificate.privateKeyPEM.write(to: keyFile, atomically: true, encoding: .utf8)
            let exit = try ChildProcess(
                path,
                [
                    "pkcs12", "-export", "-in", certificateFile.path, "-inkey", keyFile.path, "-out", archiveFile.path,
                    "-passout", "pass:\(passphrase)",
                ]
            ).waitUntilExit()
            guard exit == ChildProcess.Exit(status: 0, signalled: false) else {
                throw CocoaError(.fileWriteUnknown, userInfo: [NSLocalizedDescriptionKey: "openssl pkcs12 -export failed"])
            }
            return try Data(contentsOf: archiveFile)
        }
    }
#endif
