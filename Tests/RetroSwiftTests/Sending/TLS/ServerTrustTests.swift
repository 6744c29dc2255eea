import Foundation
import RetroSwift
import RetroSwiftTesting
import Testing

/// ``ServerTrust``: what it accepts, the pins it computes, and the core's refusal to hand a call to a transport that
/// cannot enforce it. The same against real HTTPS servers on every transport is in `ServerTrustEndToEndTests`.
@Suite("ServerTrust")
struct ServerTrustTests {
    struct Item: Decodable, Equatable {
        var id: Int
    }

    // @unchecked Sendable: endpoint wrappers only, set up in init and never reassigned.
    final class Api: Domain, @unchecked Sendable {
        @Get("/items") var items: () async throws -> Item
        @Get("/leave") var leave: () async throws -> Item
    }

    // MARK: - DER, built by hand so the expected bytes are plain to see

    static func tlv(_ tag: UInt8, _ content: [UInt8]) -> [UInt8] {
        let count = content.count
        let length: [UInt8] =
            count < 128 ? [UInt8(count)] : count < 256 ? [0x81, UInt8(count)] : [0x82, UInt8(count >> 8), UInt8(count & 0xFF)]
        return [tag] + length + content
    }

    /// A `SubjectPublicKeyInfo` (id-ecPublicKey, a 257-byte bit string, so its length takes the long form).
    static let spki = tlv(
        0x30, tlv(0x30, [0x06, 0x07, 0x2A, 0x86, 0x48, 0xCE, 0x3D, 0x02, 0x01]) + tlv(0x03, [0] + [UInt8](repeating: 4, count: 256)))
    /// Its pin, by `hashlib.sha256` and `base64` in Python over the same bytes.
    static let spkiPin = "dEuqx2F6MaiqZNd8saTSxxkO9CaOBrI2oYxBtEiRA+g="

    /// A certificate holding `spki`: version, serial, signature algorithm, issuer, validity and subject as empty
    /// stand-ins, then the key and extensions; the signature algorithm and value after the TBS part.
    static func certificate(_ spki: [UInt8] = spki, version: Bool = true) -> [UInt8] {
        let versionField = version ? tlv(0xA0, tlv(0x02, [2])) : []
        let tbs = versionField + tlv(0x02, [1]) + tlv(0x30, []) + tlv(0x30, []) + tlv(0x30, []) + tlv(0x30, []) + spki + tlv(0xA3, [])
        return tlv(0x30, tlv(0x30, tbs) + tlv(0x30, []) + tlv(0x03, [0]))
    }

    // MARK: - Reading certificates

    @Test("the pin of a certificate is the SHA-256 of its SubjectPublicKeyInfo, with and without a version")
    func pinOfCertificate() {
        // Given
        let v3 = Self.certificate()
        let v1 = Self.certificate(version: false)

        // When
        let pins = [CertificateDER.publicKeyPin(of: v3), CertificateDER.publicKeyPin(of: v1)]

        // Then
        #expect(CertificateDER.subjectPublicKeyInfo(of: v3).map(Array.init) == Self.spki)
        #expect(pins == [Self.spkiPin, Self.spkiPin])
    }

    @Test("a truncated, extended or altered certificate gives no key, never a wrong one")
    func brokenCertificates() {
        // Given
        let whole = Self.certificate()

        // When / Then: every prefix, the whole with a byte more, and each structural byte changed
        for end in 0..<whole.count {
            #expect(CertificateDER.subjectPublicKeyInfo(of: Array(whole[..<end])) == nil, "prefix of \(end) bytes")
        }
        #expect(CertificateDER.subjectPublicKeyInfo(of: whole + [0]) == nil)
        #expect(CertificateDER.subjectPublicKeyInfo(of: [0x30, 0x80, 0x00, 0x00]) == nil, "indefinite length")
        #expect(CertificateDER.subjectPublicKeyInfo(of: [0x30, 0x85, 1, 0, 0, 0, 0]) == nil, "a 5-byte length")
        var serialAsString = whole
        let serialIndex = serialAsString.firstIndex(of: 0x02)! + 3  // past the version's INTEGER
        #expect(serialAsString[serialIndex] == 0x02)
        serialAsString[serialIndex] = 0x0C
        #expect(CertificateDER.subjectPublicKeyInfo(of: serialAsString) == nil)
    }

    // MARK: - Building a trust

    @Test("pins are kept as base64 digests, with or without sha256/")
    func pinsNormalized() throws {
        // When
        let trust = try ServerTrust(pinnedPublicKeys: ["sha256/" + Self.spkiPin, Self.spkiPin])

        // Then
        #expect(trust.pinnedPublicKeys == [Self.spkiPin])
        #expect(trust.requirements == .publicKeyPins)
        #expect(trust.acceptsPins(of: [Data([1, 2, 3]), Data(Self.certificate())]))
        #expect(!trust.acceptsPins(of: [Data(Self.certificate(Self.tlv(0x30, [0x05, 0x00])))]))
        #expect(!trust.acceptsPins(of: []))
        #expect(ServerTrust.system.acceptsPins(of: []))
        #expect(ServerTrust.system.requirements.isEmpty)
    }

    @Test("what is not a certificate or a pin is refused, saying which")
    func invalidInput() {
        let badPin = #expect(throws: RequestError.self) { try ServerTrust(pinnedPublicKeys: ["sha256/abc="]) }
        #expect(
            badPin?.description
                == "RetroSwift, field 'pinnedPublicKeys': 'sha256/abc=' is not the base64 SHA-256 digest of a public key (32 bytes, 44 characters)"
        )
        let badCertificate = #expect(throws: RequestError.self) {
            try ServerTrust(certificateAuthorities: [Data(Self.certificate()), Data("PEM?".utf8)])
        }
        #expect(badCertificate?.description == "RetroSwift, field 'certificateAuthorities[1]': is not a DER-encoded X.509 certificate")
        #expect(badCertificate?.kind == .invalidValue)
        let noPEM = #expect(throws: RequestError.self) { try ServerTrust(certificateAuthoritiesPEM: "nothing here") }
        #expect(noPEM?.description == "RetroSwift, field 'certificateAuthoritiesPEM': holds no '-----BEGIN CERTIFICATE-----' block")
        let unfinished = #expect(throws: RequestError.self) {
            try ServerTrust(certificateAuthoritiesPEM: "-----BEGIN CERTIFICATE-----\nMIIB")
        }
        #expect(unfinished?.description == "RetroSwift, field 'certificateAuthoritiesPEM': certificate 1 is not valid PEM")
    }

    @Test("PEM blocks decode to the certificates they hold, text around them ignored")
    func pem() throws {
        // Given
        let base64 = Data(Self.certificate()).base64EncodedString(options: .lineLength64Characters)
        let block = "-----BEGIN CERTIFICATE-----\n\(base64)\n-----END CERTIFICATE-----\n"

        // When
        let trust = try ServerTrust(certificateAuthoritiesPEM: "Issuer: test\n" + block + "\n" + block)

        // Then
        #expect(trust.certificateAuthorities == [Data(Self.certificate()), Data(Self.certificate())])
        #expect(trust.requirements == .certificateAuthorities)
    }

    // MARK: - Handing calls to transports

    @Test("a domain's trust reaches the transport with every call; the system's as nil")
    func trustReachesTransport() async throws {
        // Given
        let transport = RecordingTransport { _ in .json(#"{"id":1}"#) }
        let api = Api(transport: transport)
        api.baseURL = URL(string: "https://api.example.com")
        #expect(api.serverTrust == .system)

        // When
        _ = try await api.items()
        let trust = try ServerTrust(certificateAuthorities: [Data(Self.certificate())], pinnedPublicKeys: [Self.spkiPin])
        api.serverTrust = trust
        _ = try await api.items()

        // Then
        #expect(transport.requests.map(\.serverTrust) == [nil, trust])
        #expect(api.serverTrust == trust)
    }

    @Test("a transport that cannot enforce the trust is handed nothing, and the error says why")
    func unenforceableTrustRefused() async throws {
        // Given
        let transport = BareTransport()
        let api = Api(transport: transport)
        api.baseURL = URL(string: "https://api.example.com")
        api.serverTrust = try ServerTrust(certificateAuthorities: [Data(Self.certificate())])

        // When
        let error = await #expect(throws: RequestError.self) { _ = try await api.items() }

        // Then
        #expect(error?.kind == .serverTrustUnsupported)
        #expect(
            error?.description
                == "Api.items (GET /items): the domain's ServerTrust trusts certificate authorities of its own, which "
                + "BareTransport cannot enforce (see its serverTrustSupport); nothing was sent")
        #expect(transport.requests.isEmpty)
    }

    @Test("authorities of the domain's own need no TLS on a plain http URL; pins refuse it")
    func plainHTTP() async throws {
        // Given
        let transport = BareTransport()
        let api = Api(transport: transport)
        api.baseURL = URL(string: "http://127.0.0.1:9")
        api.serverTrust = try ServerTrust(certificateAuthorities: [Data(Self.certificate())])

        // When
        let item = try await api.items()
        api.serverTrust = try ServerTrust(pinnedPublicKeys: [Self.spkiPin])
        let error = await #expect(throws: RequestError.self) { _ = try await api.items() }

        // Then
        #expect(item == Item(id: 1))
        #expect(
            error?.description
                == "Api.items (GET /items): the domain's ServerTrust pins public keys, but 'http://127.0.0.1:9/items' is not "
                + "an https URL; nothing was sent")
        #expect(transport.requests.count == 1)
    }

    @Test("a redirect to plain http from a pinned domain is refused even when downgrades are allowed")
    func pinnedRedirectToHTTP() async throws {
        // Given
        let transport = RecordingTransport { params in
            params.url.path == "/leave" ? .redirect(to: "http://api.example.com/items") : .json(#"{"id":1}"#)
        }
        let api = Api(transport: transport)
        api.baseURL = URL(string: "https://api.example.com")
        api.redirectPolicy = .follow(allowingInsecureDowngrade: true)
        api.serverTrust = try ServerTrust(pinnedPublicKeys: [Self.spkiPin])

        // When
        let error = await #expect(throws: RequestError.self) { _ = try await api.leave() }

        // Then
        #expect(error?.kind == .serverTrustUnsupported)
        #expect(transport.requests.map(\.url.absoluteString) == ["https://api.example.com/leave"])
    }
}
