import Foundation
import RetroSwift
import RetroSwiftTesting
import Testing

/// ``ClientIdentity``: what it accepts, that its key never shows, and the core's handing of it to transports: with
/// every call of its domain, and never to a transport that cannot present it. The same against a real server
/// requiring client certificates is in the conformance suite's `tls/client-certificate-*` cases.
@Suite("ClientIdentity")
struct ClientIdentityTests {
    typealias Api = ServerTrustTests.Api

    static let certificatePEM = pem("CERTIFICATE", Data(ServerTrustTests.certificate()))
    /// Not a real key: the core checks only that it is an unencrypted PEM key block; SwiftNIO SSL reads it.
    /// Made on each use: held in a static, its storage is reported by LeakSanitizer at exit.
    static var keyBody: Data { Data((0..<48).map { UInt8($0) }) }
    static let keyPEM = pem("PRIVATE KEY", keyBody)

    static func pem(_ label: String, _ der: Data) -> String {
        "-----BEGIN \(label)-----\n\(der.base64EncodedString(options: .lineLength64Characters))\n-----END \(label)-----\n"
    }

    @Test("a chain and a key in PEM make an identity holding the certificates' DER, leaf first")
    func pemChain() throws {
        // Given
        let other = ServerTrustTests.certificate(version: false)

        // When
        let identity = try ClientIdentity(
            certificateChainPEM: "subject=client\n" + Self.certificatePEM + Self.pem("CERTIFICATE", Data(other)),
            privateKeyPEM: Self.keyPEM)

        // Then
        let chain = [Data(ServerTrustTests.certificate()), Data(other)]
        #expect(identity.material == .pem(certificateChain: chain, privateKeyPEM: Self.keyPEM))
    }

    @Test("no certificate, one that does not decode, an encrypted key or none are refused, saying which")
    func invalidInput() {
        let noCertificate = #expect(throws: RequestError.self) {
            try ClientIdentity(certificateChainPEM: "nothing", privateKeyPEM: Self.keyPEM)
        }
        #expect(
            noCertificate?.description == "RetroSwift, field 'certificateChainPEM': holds no '-----BEGIN CERTIFICATE-----' block")
        let broken = #expect(throws: RequestError.self) {
            try ClientIdentity(
                certificateChainPEM: Self.certificatePEM + Self.pem("CERTIFICATE", Data("not DER".utf8)), privateKeyPEM: Self.keyPEM)
        }
        #expect(broken?.description == "RetroSwift, field 'certificateChainPEM': certificate 2 is not a valid PEM X.509 certificate")
        #expect(broken?.kind == .invalidValue)
        for key in [
            "", Self.pem("ENCRYPTED PRIVATE KEY", Self.keyBody), Self.pem("PUBLIC KEY", Self.keyBody),
            "-----BEGIN EC PRIVATE KEY-----\nProc-Type: 4,ENCRYPTED\n\nAAAA\n-----END EC PRIVATE KEY-----",
            "-----BEGIN PRIVATE KEY-----\nAAAA",
        ] {
            let refused = #expect(throws: RequestError.self) {
                try ClientIdentity(certificateChainPEM: Self.certificatePEM, privateKeyPEM: key)
            }
            #expect(refused?.field == "privateKeyPEM", "\(key)")
        }
        #expect(throws: Never.self) {
            try ClientIdentity(certificateChainPEM: Self.certificatePEM, privateKeyPEM: Self.pem("EC PRIVATE KEY", Self.keyBody))
        }
    }

    @Test("the key shows in no description, debug description or dump")
    func keyRedacted() throws {
        // Given
        let identity = try ClientIdentity(certificateChainPEM: Self.certificatePEM, privateKeyPEM: Self.keyPEM)
        let keyText = Self.keyBody.base64EncodedString().prefix(20)

        // When
        var dumped = ""
        dump(identity, to: &dumped)
        let shown = ["\(identity)", String(reflecting: identity), dumped]

        // Then
        #expect(shown[0] == "ClientIdentity(1 certificate, private key redacted)")
        #expect(shown.allSatisfy { !$0.contains(keyText) && !$0.contains("PRIVATE KEY") }, "\(shown)")
    }

    @Test("a PKCS #12 archive is kept as given; bytes that are not one DER structure are refused, saying so")
    func pkcs12Archive() throws {
        // Given: the outer SEQUENCE of an archive (its length in the long form), and things that are not one
        let archive = Data([0x30, 0x82, 0x01, 0x00] + [UInt8](repeating: 0x04, count: 256))

        // When
        let identity = try ClientIdentity(pkcs12: archive, passphrase: "correct horse")
        let refused = [Data(Self.certificatePEM.utf8), Data(), archive.dropLast(), archive + [0], Data([0x30, 0x05, 0x01])].map {
            bytes in #expect(throws: RequestError.self) { try ClientIdentity(pkcs12: bytes, passphrase: "") }
        }

        // Then
        #expect(identity.material == .pkcs12(archive: archive, passphrase: "correct horse"))
        #expect(refused.allSatisfy { $0?.field == "pkcs12" && $0?.kind == .invalidValue })
        #expect(
            refused.first??.description
                == "RetroSwift, field 'pkcs12': is not a PKCS #12 archive (DER): \(Self.certificatePEM.utf8.count) bytes that "
                + "are not one ASN.1 SEQUENCE")
    }

    @Test("a PKCS #12 identity's passphrase shows in no description, debug description or dump")
    func passphraseRedacted() throws {
        // Given
        let identity = try ClientIdentity(pkcs12: Data([0x30, 0x03, 0x02, 0x01, 0x03]), passphrase: "correct horse")

        // When
        var dumped = ""
        dump(identity, to: &dumped)
        let shown = ["\(identity)", String(reflecting: identity), dumped]

        // Then
        #expect(shown[0] == "ClientIdentity(PKCS #12 archive of 5 bytes, passphrase redacted)")
        #expect(shown.allSatisfy { !$0.contains("correct horse") }, "\(shown)")
    }

    @Test("an identity a transport cannot read fails the call naming the endpoint and clientIdentity, the cause kept")
    func unreadableIdentityError() async throws {
        // Given
        struct LibraryError: Error, CustomStringConvertible {
            var description: String { "PKCS12_parse failed" }
        }
        let transport = RecordingTransport { params in
            throw RequestError.unreadableClientIdentity(of: params, LibraryError())
        }
        let api = Api(transport: transport)
        api.baseURL = URL(string: "https://api.example.com")
        api.clientIdentity = try ClientIdentity(pkcs12: Data([0x30, 0x00]), passphrase: "wrong")

        // When
        let error = await #expect(throws: RequestError.self) { _ = try await api.items() }

        // Then
        #expect(error?.kind == .invalidValue && error?.field == "clientIdentity" && error?.underlyingError is LibraryError)
        #expect(
            error?.description
                == "Api.items (GET /items), field 'clientIdentity': its PKCS #12 archive could not be opened: a wrong "
                + "passphrase, or an archive that is damaged (PKCS12_parse failed)")
    }

    @Test("a domain's identity reaches the transport with every call, and none as nil")
    func identityReachesTransport() async throws {
        // Given
        let transport = RecordingTransport { _ in .json(#"{"id":1}"#) }
        let api = Api(transport: transport)
        api.baseURL = URL(string: "https://api.example.com")
        let identity = try ClientIdentity(certificateChainPEM: Self.certificatePEM, privateKeyPEM: Self.keyPEM)

        // When
        _ = try await api.items()
        api.clientIdentity = identity
        _ = try await api.items()

        // Then
        #expect(transport.requests.map(\.clientIdentity) == [nil, identity])
        #expect(api.clientIdentity == identity)
    }

    @Test("a transport that cannot present the identity is handed no https call, and the error says why; http needs none")
    func unpresentableIdentityRefused() async throws {
        // Given
        let transport = BareTransport()
        let api = Api(transport: transport)
        api.baseURL = URL(string: "https://api.example.com")
        api.clientIdentity = try ClientIdentity(certificateChainPEM: Self.certificatePEM, privateKeyPEM: Self.keyPEM)

        // When
        let error = await #expect(throws: RequestError.self) { _ = try await api.items() }
        api.baseURL = URL(string: "http://127.0.0.1:9")
        let item = try await api.items()

        // Then
        #expect(error?.kind == .serverTrustUnsupported)
        #expect(
            error?.description
                == "Api.items (GET /items): the domain has a ClientIdentity, which BareTransport cannot present "
                + "(see its serverTrustSupport); nothing was sent")
        #expect(item.id == 1)
        #expect(transport.requests.map(\.url.absoluteString) == ["http://127.0.0.1:9/items"])
    }

    /// A transport that presents identities made from PKCS #12 archives only, as URLSession on Apple platforms.
    final class PKCS12OnlyTransport: HttpTransport, ServerTrustEnforcing, Sendable {
        let bare = BareTransport()
        var serverTrustSupport: ServerTrustSupport { [.pkcs12ClientIdentity] }
        func setConfiguration(scheme: String, host: String, sharedHeaders: [String: String]?) {}
        func sendRequest(with params: HttpRequestParams) async throws -> HttpOperationResult {
            try await bare.sendRequest(with: params)
        }
    }

    @Test("a transport presenting PKCS #12 identities only is handed those, and refuses a PEM one before sending, saying why")
    func pkcs12OnlyTransport() async throws {
        // Given
        let transport = PKCS12OnlyTransport()
        let api = Api(transport: transport)
        api.baseURL = URL(string: "https://api.example.com")

        // When
        api.clientIdentity = try ClientIdentity(pkcs12: Data([0x30, 0x03, 0x02, 0x01, 0x03]), passphrase: "")
        let item = try await api.items()
        api.clientIdentity = try ClientIdentity(certificateChainPEM: Self.certificatePEM, privateKeyPEM: Self.keyPEM)
        let error = await #expect(throws: RequestError.self) { _ = try await api.items() }

        // Then
        #expect(item.id == 1 && transport.bare.requests.count == 1)
        #expect(error?.kind == .serverTrustUnsupported)
        #expect(
            error?.description
                == "Api.items (GET /items): the domain's ClientIdentity is made from PEM, and PKCS12OnlyTransport presents only "
                + "one made from a PKCS #12 archive, ClientIdentity(pkcs12:passphrase:) (see its serverTrustSupport); nothing "
                + "was sent")
    }

    /// A domain with a `@Url` endpoint, for the identity's way to another origin.
    final class LinkApi: Domain, @unchecked Sendable {
        struct Link {
            @Url var url = ""
        }

        typealias Item = ServerTrustTests.Item

        @Get(otherHosts: .allowing(["files.example.com"])) var follow: (Link) async throws -> Item
        @Get(otherHosts: .allowing(["files.example.com"], sharingCredentials: true)) var followSharing: (Link) async throws -> Item
    }

    @Test("a redirect within the origin keeps the identity; one to another origin, and every hop after it, goes without")
    func identityKeptToItsOrigin() async throws {
        // Given: a hop within the origin, one to another port, and one back home
        let answers = Protected<[HttpOperationResult]>([
            .redirect(to: "/items"), .redirect(to: "https://api.example.com:8443/items"),
            .redirect(to: "https://api.example.com/items"),
        ])
        let transport = RecordingTransport { _ in answers.mutate { $0.isEmpty ? .json(#"{"id":1}"#) : $0.removeFirst() } }
        let api = Api(transport: transport)
        api.baseURL = URL(string: "https://api.example.com")
        let identity = try ClientIdentity(certificateChainPEM: Self.certificatePEM, privateKeyPEM: Self.keyPEM)
        api.clientIdentity = identity

        // When
        _ = try await api.leave()

        // Then: as Authorization is, withheld once the chain left the origin
        #expect(transport.requests.map(\.clientIdentity) == [identity, identity, nil, nil])
    }

    @Test("a @Url call to another origin goes without the identity unless its endpoint shares credentials there")
    func identityToOtherHosts() async throws {
        // Given
        let transport = RecordingTransport { _ in .json(#"{"id":1}"#) }
        let api = LinkApi(transport: transport)
        api.baseURL = URL(string: "https://api.example.com")
        let identity = try ClientIdentity(certificateChainPEM: Self.certificatePEM, privateKeyPEM: Self.keyPEM)
        api.clientIdentity = identity

        // When
        _ = try await api.follow(.init(url: "https://api.example.com/items"))
        _ = try await api.follow(.init(url: "https://files.example.com/items"))
        _ = try await api.followSharing(.init(url: "https://files.example.com/items"))

        // Then
        #expect(transport.requests.map(\.clientIdentity) == [identity, nil, identity])
    }
}
