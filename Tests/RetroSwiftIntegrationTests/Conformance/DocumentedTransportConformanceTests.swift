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
        let buffers = "the example buffers every body, so a streamed call returns only once the whole body has come"
        var limitations: [String: TransportLimitation] = [
            "response-fields/repeats-kept-apart": .differs(
                "HTTPURLResponse joins repeated fields", failure: #"values(for: "x-foo") is ["a, b"]"#),
            "response-fields/names-differing-in-case": .differs(
                "HTTPURLResponse's dictionary loses the order of the spellings", failure: #"headers["X-Foo"] is Optional("#),
            "response-fields/set-cookie-never-combined": .differs(
                "HTTPURLResponse joins Set-Cookie fields, and the example does not split them",
                failure: #"values(for: "Set-Cookie") is ["a=1; Expires=Wed, 21 Oct 2037 07:28:00 GMT, b=2; Path=/"]"#),
            "response-fields/wire-order": .differs("HTTPURLResponse keeps fields in a dictionary", failure: "the X- fields arrived as"),
            "request/field-order": .differs("URLRequest keeps fields in a dictionary", failure: "the X- fields went out as"),
            "request/no-cookie-jar": .differs(
                "the session's cookie storage sends the cookie back",
                failure: #"the calls went with Cookie [nil, Optional("session=s3cr3t")]"#),
            "body/announced-over-limit": .differs(
                "the example reads the whole announced body before RetroSwift can refuse it",
                failure: "the call announcing 1 GiB had not ended within"),
            "body/gzip-bomb-default-limits": .crashes(
                "the example inflates the whole gigabyte in memory before RetroSwift sees a byte of it, more than a CI machine may have"),
            "body/stream-left-early": .differs(buffers, failure: "connections are still open 3 s after leaving the loop"),
            "connection/streams-beside-calls": .hangs(buffers),
            "connection/abandoned-stream-closed": .hangs(buffers),
            "cancellation/mid-body": .hangs(buffers),
            "request/stream-body-chunked": .differs(
                "the example reads a body whole before sending it", failure: "the server had not read the first chunk"),
            "progress/upload": .differs("the example reports no progress", failure: "the upload reports were []"),
            "progress/download": .differs("the example reports no progress", failure: "the download reports were []"),
        ]
        for id in TransportConformance.cases.map(\.id) where id.hasPrefix("streams/") {
            limitations[id] = .hangs(buffers)
        }
        #if canImport(FoundationNetworking)
            limitations["framing/trailers"] = .crashes("swift-corelibs-foundation traps on trailer fields")
            let libcurlFailures: [(id: String, reason: String, failure: String)] = [
                (
                    "connection/closed-before-response", "libcurl's \"Empty reply\" is URLError.badServerResponse",
                    "[Empty reply from server]"
                ),
                (
                    "connection/post-unanswered-not-resent", "libcurl's \"Empty reply\" is URLError.badServerResponse",
                    "[Empty reply from server]"
                ),
                ("framing/body-shorter-than-content-length", "libcurl's \"transfer closed\" is URLError.unknown", "[transfer closed with"),
                ("framing/closed-mid-chunked-body", "libcurl's \"transfer closed\" is URLError.unknown", "[transfer closed with"),
                (
                    "framing/file-body-shorter-than-content-length", "libcurl's \"transfer closed\" is URLError.unknown",
                    "[transfer closed with"
                ),
                (
                    "framing/status-out-of-range", "libcurl's \"Unsupported response code\" is URLError.unsupportedURL",
                    "[Unsupported response code in HTTP response]"
                ),
                ("tls/unknown-authority-refused", "libcurl's \"SSL certificate problem\" is URLError.unknown", "[SSL certificate problem"),
                ("framing/not-http", "libcurl's refusal of HTTP/0.9 is URLError.unsupportedURL", "[Received HTTP/0.9 when not allowed]"),
                ("framing/unknown-transfer-coding", "libcurl's refusal is URLError.unknown", "[Unrecognized content encoding type"),
                ("framing/chunk-size-hex-prefix", "libcurl's refusal is URLError.unknown", "[Failed reading the chunked-encoded stream]"),
                ("framing/chunk-size-negative", "libcurl's refusal is URLError.unknown", "[Illegal or missing hexadecimal sequence"),
                ("framing/chunk-size-with-space", "libcurl's refusal is URLError.unknown", "[Failed reading the chunked-encoded stream]"),
                (
                    "framing/chunk-size-enormous", "libcurl's refusal is URLError.unknown",
                    "[Too long hexadecimal number in chunked-encoding]"
                ),
                ("framing/space-before-colon", "swift-corelibs-foundation's refusal is URLError.unknown", "[Failed writing header]"),
                ("framing/no-reason-phrase", "swift-corelibs-foundation's refusal is URLError.unknown", "[Failed writing header]"),
                ("framing/lf-line-ends", "swift-corelibs-foundation's refusal is URLError.unknown", "[Failed writing header]"),
                ("framing/lowercase-version", "libcurl reads the HTTP version case-insensitively", "but the call returned HTTP 200"),
                (
                    "framing/unrequested-switching-protocols", "libcurl waits for another answer after a 101 nobody asked for",
                    "the call answered with a 101 had not ended within"
                ),
                (
                    "connection/post-on-reused-connection-not-resent", "libcurl sends the POST again when its reused connection dies",
                    "the POST had not ended within 3 s"
                ),
                (
                    "connection/server-ended-released", "libcurl keeps a connection its server ended until it next looks at it",
                    "was still open 5 s later"
                ),
                (
                    "url/scheme-in-capitals", "swift-corelibs-foundation takes the schemes http and https only as written",
                    "(URLError -1002) [unsupported URL]"
                ),
                (
                    "url/ipv6-literal", "swift-corelibs-foundation refuses a host Foundation reads as ::1 and libcurl as [::1]",
                    "(URLError -1000)"
                ),
            ]
            for (id, reason, failure) in libcurlFailures {
                limitations[id] = .differs(reason, failure: failure)
            }
            // URLSessionTransport keeps such timeouts with a timer of its own; the example leaves them to URLSession.
            limitations["timeout/fractions-honoured"] = .differs(
                "swift-corelibs-foundation turns timeoutInterval into whole seconds (0.5 s into none)",
                failure: "the 0.5 s timeout fired after")
            // swift-corelibs-foundation follows redirects despite the delegate, each case failing its own way.
            let redirects: [(id: String, failure: String)] = [
                ("redirects/returned-not-followed", "[too many HTTP redirects]"),
                ("redirects/loop-refused", "[too many HTTP redirects]"),
                ("redirects/see-other-becomes-get", #"the second request was Optional("GET") with 0 body bytes"#),
                ("redirects/temporary-keeps-method-and-body", #"the second request was Optional("POST") with 0 body bytes"#),
                (
                    "redirects/permanent-keeps-method-and-body",
                    #"the second request was Optional("POST") Optional("/moved") with 0 body bytes"#
                ),
                ("redirects/moved-permanently-post-becomes-get", "the second with 0 body bytes"),
                ("redirects/cross-origin-credentials", "the other origin saw"),
            ]
            for (id, failure) in redirects {
                limitations[id] = .differs("swift-corelibs-foundation follows redirects despite the delegate", failure: failure)
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
