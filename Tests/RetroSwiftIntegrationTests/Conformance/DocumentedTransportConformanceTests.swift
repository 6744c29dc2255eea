import Foundation
import RetroSwift
import RetroSwiftTestServer
import Testing

/// The conformance suite run against the one-file transport the Transports article shows
/// (`SimpleSessionTransport`, in a file of its own), built only on the public transport API: what a transport author sees the
/// first time they run the suite, with what their transport does not do yet listed as known limitations.
@Suite("Transport conformance of the Transports article's example", .timeLimit(.minutes(4)), .serialized)
struct DocumentedTransportConformanceTests {
    /// What the example does not do. The article says it refuses redirects on Apple platforms; on Linux,
    /// swift-corelibs-foundation follows them itself, and the suite shows what that costs (credentials sent to
    /// another origin).
    static let knownLimitations: [String: TransportLimitation] = {
        var limitations: [String: TransportLimitation] = [
            "response-fields/repeats-kept-apart": .differs("HTTPURLResponse joins repeated fields"),
            "response-fields/names-differing-in-case": .differs("HTTPURLResponse's dictionary loses the order of the spellings"),
            "response-fields/set-cookie-never-combined": .differs(
                "HTTPURLResponse joins Set-Cookie fields, and the example does not split them"),
            "response-fields/wire-order": .differs("HTTPURLResponse keeps fields in a dictionary"),
            "request/field-order": .differs("URLRequest keeps fields in a dictionary"),
            "body/announced-over-limit": .hangs("the example reads the whole announced body before RetroSwift can refuse it"),
            "connection/streams-beside-calls": .hangs("the example buffers every body, so a held-open stream never returns"),
        ]
        #if canImport(FoundationNetworking)
            limitations["framing/trailers"] = .crashes("swift-corelibs-foundation traps on trailer fields")
            limitations["connection/closed-before-response"] = .differs("libcurl's \"Empty reply\" is URLError.badServerResponse")
            limitations["framing/body-shorter-than-content-length"] = .differs("libcurl's \"transfer closed\" is URLError.unknown")
            limitations["framing/closed-mid-chunked-body"] = .differs("libcurl's \"transfer closed\" is URLError.unknown")
            limitations["framing/status-out-of-range"] = .differs("libcurl's \"Unsupported response code\" is URLError.unsupportedURL")
            limitations["tls/unknown-authority-refused"] = .differs("libcurl's \"SSL certificate problem\" is URLError.unknown")
            for id in [
                "redirects/returned-not-followed", "redirects/loop-refused", "redirects/see-other-becomes-get",
                "redirects/temporary-keeps-method-and-body", "redirects/cross-origin-credentials",
            ] {
                limitations[id] = .differs("swift-corelibs-foundation follows redirects despite the delegate")
            }
        #endif
        return limitations
    }()

    @Test("a case of the suite", arguments: TransportConformance.cases)
    func conformance(conformanceCase: TransportConformanceCase) async throws {
        if let only = ProcessInfo.processInfo.environment["RETROSWIFT_CONFORMANCE"], !conformanceCase.id.contains(only) { return }
        try await conformanceCase.run(
            { SimpleSessionTransport() }, knownLimitation: Self.knownLimitations[conformanceCase.id])
    }
}
