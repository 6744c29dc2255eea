/// The transports RetroSwift ships, named as the tests that run the conformance suite against them name them: the
/// conformance tests, and the mutant tests, which skip a base transport's known limitations. Only in the test server's
/// target (a file of its own, not linked from the product), since the product knows no transport.
public enum ShippedTransport: String, CaseIterable, Sendable {
    /// `URLSessionTransport`.
    case urlSession
    /// `AsyncHTTPClientTransport`, built with the trait `AsyncHTTPClient`.
    case asyncHTTPClient
    /// `NIOTransport`, built with the trait `NIO`.
    case nio

    /// What the transport is known not to do, by case, each with the failure the case then reports: a case that
    /// differs must fail that way, so the list can neither go stale nor hide a new failure.
    public var knownLimitations: [String: TransportLimitation] {
        switch self {
        case .urlSession: Self.urlSessionLimitations
        case .asyncHTTPClient: Self.asyncHTTPClientLimitations
        case .nio: Self.nioLimitations
        }
    }

    private static var urlSessionLimitations: [String: TransportLimitation] {
        var limitations: [String: TransportLimitation] = [
            "response-fields/repeats-kept-apart": .differs(
                "HTTPURLResponse joins repeated fields into one value before RetroSwift sees them",
                failure: #"values(for: "x-foo") is ["a, b"]"#),
            "response-fields/wire-order": .differs(
                "HTTPURLResponse keeps fields in a dictionary, so their order is lost (the transport hands them over sorted)",
                failure: #"the X- fields arrived as ["x-a", "x-b", "x-c", "x-d", "x-e", "x-f", "x-g", "x-h"]"#),
            "request/field-order": .differs(
                "URLRequest keeps header fields in a dictionary, so their order is lost", failure: "the X- fields went out as"),
            "request/stream-body-chunked": .differs(
                "the transport reads a body stream whole (in memory on Linux, into a file on Apple platforms) and sends it "
                    + "with its Content-Length, since an upload task's body stream would go chunked, which presigned "
                    + "object-store uploads refuse",
                failure: "the server had not read the first chunk"),
            "request/no-cookie-jar": .differs(
                "the session configuration's HTTPCookieStorage stores Set-Cookie and URLSession adds Cookie to later requests "
                    + "(httpShouldSetCookies is on in .default and .ephemeral configurations)",
                failure: #"the calls went with Cookie [nil, Optional("session=s3cr3t")]"#),
        ]
        #if canImport(FoundationNetworking)
            limitations["response-fields/names-differing-in-case"] = .differs(
                "swift-corelibs-foundation joins fields whose names differ in case in another order than they came",
                failure: #"headers["X-Foo"] is Optional("#)
            limitations["framing/trailers"] = .crashes(
                "swift-corelibs-foundation traps (\"Transfer completed, but there's no response\") on trailer fields")
            // libcurl and swift-corelibs-foundation refuse these responses, but the error reaches the caller as
            // URLError.unknown (or .unsupportedURL) with libcurl's message, not as a malformed response.
            let refusedAsUnknown: [(id: String, failure: String)] = [
                ("framing/not-http", "[Received HTTP/0.9 when not allowed]"),
                ("framing/chunk-size-hex-prefix", "[Failed reading the chunked-encoded stream]"),
                ("framing/chunk-size-negative", "[Illegal or missing hexadecimal sequence in chunked-encoding]"),
                ("framing/chunk-size-with-space", "[Failed reading the chunked-encoded stream]"),
                ("framing/chunk-size-enormous", "[Too long hexadecimal number in chunked-encoding]"),
                ("framing/space-before-colon", "[Failed writing header]"),
                ("framing/no-reason-phrase", "[Failed writing header]"),
                ("framing/lf-line-ends", "[Failed writing header]"),
            ]
            for refused in refusedAsUnknown {
                limitations[refused.id] = .differs(
                    "libcurl or swift-corelibs-foundation refuses the response, but its error is a URLError, not a malformed response",
                    failure: refused.failure)
            }
            limitations["framing/lowercase-version"] = .differs(
                "libcurl reads the HTTP version case-insensitively", failure: "but the call returned HTTP 200")
            limitations["framing/unrequested-switching-protocols"] = .differs(
                "libcurl takes a 101 nobody asked for as an interim answer and waits for another",
                failure: "the call answered with a 101 had not ended within")
            limitations["url/ipv6-literal"] = .differs(
                "swift-corelibs-foundation refuses a URL whose host Foundation reads as ::1 and libcurl as [::1] (the two "
                    + "must agree), so no IPv6 literal can be called (swiftlang/swift-corelibs-foundation#5496; fixed on its "
                    + "main branch by #5498, not in Swift 6.3.1); the transport has no other way to libcurl",
                failure: "(URLError -1000)")
            limitations["connection/post-on-reused-connection-not-resent"] = .differs(
                "libcurl sends a request again on a new connection when a reused one dies unanswered, POST included, and "
                    + "swift-corelibs-foundation never gives it the body a second time",
                failure: "the POST had not ended within 3 s")
            limitations["connection/server-ended-released"] = .differs(
                "libcurl keeps an idle connection in its cache after the server ended it (a FIN), and looks at it only "
                    + "when it would reuse it; until then it stays open, a descriptor here and a socket at the server",
                failure: "was still open 5 s later")
        #endif
        return limitations
    }

    /// None: NIOTransport unfolds obs-fold before SwiftNIO's parser, which would refuse it, reads the head.
    private static var nioLimitations: [String: TransportLimitation] {
        [:]
    }

    private static var asyncHTTPClientLimitations: [String: TransportLimitation] {
        [
            "framing/obs-fold": .differs(
                "async-http-client's parser (llhttp, under SwiftNIO) refuses obs-fold instead of unfolding it",
                failure: "async-http-client's parser: invalid character in header"),
            // Over HTTP/2 (the suite's protocol dimension: the client negotiates h2 by ALPN).
            "http2/max-concurrent-streams-opens-second-connection": .differs(
                "async-http-client's HTTP/2 pool opens no second connection to an origin: calls past the server's "
                    + "SETTINGS_MAX_CONCURRENT_STREAMS wait for a stream of the first",
                failure: "opened 1 connections, not 2"),
            "http2/goaway-above-last-stream-sent-again-once": .differs(
                "async-http-client fails a call whose stream is above a GOAWAY's last stream id, though the server never "
                    + "processed it, instead of sending it again",
                failure: "StreamClosed("),
            "http2/push-promise-refused": .differs(
                "async-http-client keeps using the connection whose refused PUSH_PROMISE was a connection error, which "
                    + "RFC 9113 §5.4.1 says to close: the next call goes on it, and is answered there or waits until its "
                    + "deadline",
                failure: "the next call after the push was not answered on a new connection"),
        ]
    }
}
