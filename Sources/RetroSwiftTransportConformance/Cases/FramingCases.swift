#if TransportConformance
    import Foundation
    import NIOConcurrencyHelpers
    import RetroSwift

    extension TransportConformance {
        /// Where a response begins and ends (RFC 9112 §6), and heads that must be refused.
        static let framingCases: [TransportConformanceCase] =
            malformedHeads.map(malformedHeadCase) + otherFramingCases + refusedResponses.map(refusedResponseCase) + toleratedResponses

        private static let malformedHeads: [(id: String, name: String, fields: [String])] = [
            ("conflicting-content-length", "two Content-Length fields that disagree", ["Content-Length: 8", "Content-Length: 11"]),
            ("content-length-list", "one Content-Length listing two values", ["Content-Length: 8, 11"]),
            ("content-length-not-a-number", "a Content-Length that is not a number", ["Content-Length: 8x"]),
            ("content-length-overflow", "a Content-Length past any integer", ["Content-Length: 99999999999999999999999999"]),
            ("bare-cr-in-field", "a bare CR inside a field value", ["X-Evil: a\rX-Injected: yes", "Content-Length: 8"]),
        ]

        private static func malformedHeadCase(_ head: (id: String, name: String, fields: [String])) -> TransportConformanceCase {
            TransportConformanceCase("framing/\(head.id)", "\(head.name) is refused as a malformed response, never answered") { context in
                let response = RawResponse.head(
                    ["HTTP/1.1 200 OK", "Content-Type: application/json"] + head.fields, body: itemJSON + Data("abc".utf8), ending: .close)
                try await context.withRawServer({ _ in response }) { api, _ in
                    let error = try await context.requestError(.malformedResponse) { try await api.item() }
                    try context.expect(error.endpoint?.description == "ConformanceApi.item (GET /item)", "the error names \(error)")
                }
            }
        }

        private static let otherFramingCases: [TransportConformanceCase] = [
            TransportConformanceCase(
                "framing/body-shorter-than-content-length", "a connection closed before Content-Length bytes is an error"
            ) { context in
                try await context.withRawServer({ _ in .head(["HTTP/1.1 200 OK", "Content-Length: 100"], body: itemJSON, ending: .close) })
                {
                    api, _ in
                    try await context.urlError(.networkConnectionLost) { try await api.data() }
                }
            },
            TransportConformanceCase(
                "framing/file-body-shorter-than-content-length",
                "a download to a file whose connection closes before Content-Length bytes is an error, never a short file"
            ) { context in
                try await context.withRawServer({ _ in
                    .head(["HTTP/1.1 200 OK", "Content-Length: 100000"], body: patternedBytes(60_000), ending: .close)
                }) { api, _ in
                    try await context.urlError(.networkConnectionLost) { try await api.file() }
                }
            },
            TransportConformanceCase(
                "framing/closed-mid-chunked-body", "a connection closed inside a chunked body is an error"
            ) { context in
                try await context.withRawServer({ _ in
                    .head(["HTTP/1.1 200 OK", "Transfer-Encoding: chunked"], body: Data("8\r\n{\"id\":1}\r\n5\r\nab".utf8), ending: .close)
                }) { api, _ in
                    try await context.urlError(.networkConnectionLost) { try await api.data() }
                }
            },
            TransportConformanceCase(
                "framing/close-delimited-body", "a body without Content-Length or chunking ends when the connection closes"
            ) { context in
                try await context.withRawServer({ _ in .head(["HTTP/1.1 200 OK", "Connection: close"], body: itemJSON, ending: .close) }) {
                    api, _ in
                    let body = try await api.data().body
                    try context.expect(body == itemJSON, "the body is \(context.describe(body))")
                }
            },
            TransportConformanceCase(
                "framing/chunk-extensions", "chunk extensions are ignored"
            ) { context in
                try await context.withRawServer({ _ in
                    .head(
                        ["HTTP/1.1 200 OK", "Transfer-Encoding: chunked"], body: Data("3;a=b\r\n{\"i\r\n5;c\r\nd\":1}\r\n0\r\n\r\n".utf8))
                }) { api, _ in
                    let item = try await api.item().body
                    try context.expect(item.id == 1, "the item is \(item)")
                }
            },
            TransportConformanceCase(
                "framing/trailers", "trailer fields after a chunked body do not disturb it"
            ) { context in
                try await context.withRawServer({ _ in
                    .head(
                        ["HTTP/1.1 200 OK", "Transfer-Encoding: chunked", "Trailer: X-Checksum"],
                        body: Data("8\r\n{\"id\":1}\r\n0\r\nX-Checksum: abc\r\n\r\n".utf8))
                }) { api, _ in
                    let body = try await api.data().body
                    try context.expect(body == itemJSON, "the body is \(context.describe(body))")
                }
            },
            TransportConformanceCase(
                "framing/informational-before-final", "a 103 Early Hints before the 200 is skipped"
            ) { context in
                try await context.withRawServer({ _ in
                    var response = RawResponse.head(["HTTP/1.1 200 OK", "Content-Length: 8"], body: itemJSON)
                    response.pieces.insert(Data("HTTP/1.1 103 Early Hints\r\nLink: </style.css>; rel=preload\r\n\r\n".utf8), at: 0)
                    return response
                }) { api, _ in
                    let response = try await api.item()
                    try context.expect(response.statusCode == 200 && response.body.id == 1, "the answer is \(response.statusCode)")
                }
            },
            TransportConformanceCase(
                "framing/no-content-with-body",
                "a 204 whose server sends a body anyway ends at its head, and the next call is answered right"
            ) { context in
                let calls = Counter()
                try await context.withRawServer({ _ in
                    calls.next() == 0
                        ? .head(["HTTP/1.1 204 No Content", "Content-Length: 5"], body: Data("junk!".utf8))
                        : .head(["HTTP/1.1 200 OK", "Content-Length: 8"], body: itemJSON)
                }) { api, _ in
                    let first = try await api.noContent()
                    try context.expect(first.statusCode == 204, "the first answer is \(first.statusCode)")
                    let second = try await api.item()
                    try context.expect(second.body.id == 1, "the second answer is \(second.body)")
                }
            },
            TransportConformanceCase(
                "framing/not-modified-with-body",
                "a 304 whose server sends a body anyway ends at its head, and the next call is answered right"
            ) { context in
                let calls = Counter()
                try await context.withRawServer({ _ in
                    calls.next() == 0
                        ? .head(["HTTP/1.1 304 Not Modified", "Content-Length: 5", "ETag: \"v1\""], body: Data("junk!".utf8))
                        : .head(["HTTP/1.1 200 OK", "Content-Length: 8"], body: itemJSON)
                }) { api, _ in
                    let first = try await api.noContent()
                    try context.expect(first.statusCode == 304, "the first answer is \(first.statusCode)")
                    let second = try await api.item()
                    try context.expect(second.body.id == 1, "the second answer is \(second.body)")
                }
            },
            TransportConformanceCase(
                "framing/head-with-content-length", "a HEAD answer announces a length but has no body"
            ) { context in
                let calls = Counter()
                try await context.withRawServer({ _ in
                    calls.next() == 0 ? .head(["HTTP/1.1 200 OK", "Content-Length: 1000"]) : itemResponse([])
                }) { api, _ in
                    let response = try await api.head()
                    try context.expect(
                        response.statusCode == 200 && response.headers["Content-Length"] == "1000",
                        "the answer is \(response.statusCode) with Content-Length \(String(describing: response.headers["Content-Length"]))"
                    )
                    let next = try await api.item()
                    try context.expect(next.body.id == 1, "the next answer is \(next.body)")
                }
            },
            TransportConformanceCase(
                "framing/status-out-of-range", "a status code of four digits is refused as a malformed response"
            ) { context in
                try await context.withRawServer({ _ in .head(["HTTP/1.1 1000 Odd", "Content-Length: 8"], body: itemJSON, ending: .close) })
                {
                    api, _ in
                    try await context.requestError(.malformedResponse) { try await api.item() }
                }
            },
            TransportConformanceCase(
                "framing/huge-header-block", "2,000 header fields are refused as too large, in bounded time"
            ) { context in
                let fields = (0..<2_000).map { "X-F\($0): v" }
                try await context.withRawServer({ _ in .head(["HTTP/1.1 200 OK", "Content-Length: 8"] + fields, body: itemJSON) }) {
                    api, _ in
                    try await context.requestError(.responseTooLarge) { try await api.item() }
                }
            },
            TransportConformanceCase(
                "framing/field-count-limit", "a head over the field-count limit is refused, naming the limit"
            ) { context in
                let fields = (0..<300).map { "X-F\($0): v" }
                try await context.withRawServer({ _ in .head(["HTTP/1.1 200 OK", "Content-Length: 8"] + fields, body: itemJSON) }) {
                    api, _ in
                    let error = try await context.requestError(.responseTooLarge) { try await api.item() }
                    let expected =
                        "ConformanceApi.item (GET /item): the response is refused: the head has 301 fields, more than the 256 "
                        + "allowed (ResponseLimits.maxHeaderFields)"
                    try context.expect(error.description == expected, "the message is \(error.description)")
                }
            },
        ]
    }

    extension TransportConformance {
        /// Responses RFC 9112 gives no safe reading of: a status line that is not HTTP/1.1's, framing two ways at once
        /// (§6.3: "ought to be handled as an error"), a transfer coding that cannot be decoded, chunk sizes that are not
        /// hexadecimal numbers, a field name with whitespace before its colon. Two more are lapses §2.2 lets a
        /// recipient forgive, but the shipped transports do not both forgive them (LF alone ending the head's
        /// lines, a status line without the space before its reason phrase), so the safe reading stands. The call
        /// fails with a `RequestError` of kind `.malformedResponse`, and nothing of the response is answered. Each
        /// response is made when its case runs: bytes the cases held for the life of the process would be reported as
        /// leaked by the address sanitizer, which cannot follow Swift's packed references to them.
        private static let refusedResponses: [(id: String, name: String, response: @Sendable () -> RawResponse)] = [
            ("not-http", "an answer that is not HTTP at all", { RawResponse(pieces: [Data("FOOBAR\r\n\r\n".utf8)], ending: .close) }),
            (
                "lowercase-version", "a status line whose version is written in lowercase (http/1.1)",
                { .head(["http/1.1 200 OK", "Content-Length: 8"], body: itemJSON, ending: .close) }
            ),
            (
                "chunked-with-content-length", "Transfer-Encoding: chunked together with a Content-Length that disagrees",
                {
                    .head(
                        ["HTTP/1.1 200 OK", "Transfer-Encoding: chunked", "Content-Length: 3"],
                        body: Data("8\r\n{\"id\":1}\r\n0\r\n\r\n".utf8),
                        ending: .close)
                }
            ),
            (
                "unknown-transfer-coding", "a transfer coding the client does not know (Transfer-Encoding: foo)",
                { .head(["HTTP/1.1 200 OK", "Transfer-Encoding: foo"], body: itemJSON, ending: .close) }
            ),
            ("chunk-size-hex-prefix", "a chunk size written with 0x", { chunkedResponse("0x8\r\n{\"id\":1}\r\n0\r\n\r\n") }),
            ("chunk-size-negative", "a negative chunk size", { chunkedResponse("-8\r\n{\"id\":1}\r\n0\r\n\r\n") }),
            (
                "chunk-size-with-space", "a chunk size with a space between its digits",
                { chunkedResponse("0 8\r\n{\"id\":1}\r\n0\r\n\r\n") }
            ),
            (
                "chunk-size-enormous", "a chunk size past any integer",
                { chunkedResponse("FFFFFFFFFFFFFFFFFFFFFFFF\r\n{\"id\":1}\r\n0\r\n\r\n") }
            ),
            (
                "space-before-colon", "whitespace between a field name and its colon",
                { .head(["HTTP/1.1 200 OK", "X-Spaced : v", "Content-Length: 8"], body: itemJSON, ending: .close) }
            ),
            (
                "lf-line-ends", "a head whose lines end in LF alone",
                {
                    RawResponse(
                        pieces: [Data("HTTP/1.1 200 OK\nContent-Type: application/json\nContent-Length: 8\n\n".utf8) + itemJSON],
                        ending: .close
                    )
                }
            ),
        ]

        /// A `200` whose chunked body is `body`, as written; the connection closes after it.
        private static func chunkedResponse(_ body: String) -> RawResponse {
            .head(["HTTP/1.1 200 OK", "Transfer-Encoding: chunked"], body: Data(body.utf8), ending: .close)
        }

        private static func refusedResponseCase(
            _ refused: (id: String, name: String, response: @Sendable () -> RawResponse)
        ) -> TransportConformanceCase {
            TransportConformanceCase("framing/\(refused.id)", "\(refused.name) is refused as a malformed response, never answered") {
                context in
                let response = refused.response()
                try await context.withRawServer({ _ in response }) { api, _ in
                    try await context.requestError(.malformedResponse) { try await api.data() }
                }
            }
        }

        /// Responses a client may read: what RFC 9112 allows, and what it lets a recipient accept when both shipped
        /// transports do.
        private static let toleratedResponses: [TransportConformanceCase] = [
            TransportConformanceCase(
                "framing/no-reason-phrase",
                "a status line without the space before even an empty reason phrase (\"HTTP/1.1 200\") is answered whole, or "
                    + "refused as a malformed response"
            ) { context in
                try await context.withRawServer({ _ in .head(["HTTP/1.1 200", "Content-Length: 8"], body: itemJSON, ending: .close) }) {
                    api, _ in
                    // RFC 9112 §4 requires the space, and a client may refuse a line without it; one that reads past it
                    // must still read the status and the body as they are (llhttp, under SwiftNIO, does).
                    do {
                        let response = try await api.item()
                        try context.expect(response.statusCode == 200 && response.body.id == 1, "the answer is \(response.statusCode)")
                    } catch let error as RequestError where error.kind == .malformedResponse {}
                }
            },
            TransportConformanceCase(
                "framing/empty-reason-phrase", "a status line whose reason phrase is empty (\"HTTP/1.1 200 \") is answered"
            ) { context in
                try await context.withRawServer({ _ in .head(["HTTP/1.1 200 ", "Content-Length: 8"], body: itemJSON) }) { api, _ in
                    let response = try await api.item()
                    try context.expect(response.statusCode == 200 && response.body.id == 1, "the answer is \(response.statusCode)")
                }
            },
            TransportConformanceCase(
                "framing/unknown-status", "an unregistered three-digit status (999) comes back as an HTTPError 999 with its body"
            ) { context in
                try await context.withRawServer({ _ in .head(["HTTP/1.1 999 Whatever", "Content-Length: 8"], body: itemJSON) }) { api, _ in
                    let error = try await context.httpError { try await api.data() }
                    try context.expect(error.statusCode == 999 && error.body == itemJSON, "the answer is \(context.describe(error))")
                }
            },
            TransportConformanceCase(
                "framing/several-informational", "a 100, a 103 and a 102 before the 200 are all skipped"
            ) { context in
                try await context.withRawServer({ _ in
                    var response = RawResponse.head(["HTTP/1.1 200 OK", "Content-Length: 8"], body: itemJSON)
                    response.pieces.insert(
                        Data(
                            ("HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 103 Early Hints\r\nLink: </style.css>; rel=preload\r\n\r\n"
                                + "HTTP/1.1 102 Processing\r\n\r\n").utf8), at: 0)
                    return response
                }) { api, _ in
                    let response = try await api.item()
                    try context.expect(response.statusCode == 200 && response.body.id == 1, "the answer is \(response.statusCode)")
                }
            },
            TransportConformanceCase(
                "framing/unrequested-switching-protocols",
                "a 101 Switching Protocols nobody asked for fails the call, and the connection it switched is not used again"
            ) { context in
                let calls = Counter()
                try await context.withRawServer({ _ in
                    // A WebSocket frame after the 101: read as the head of the next answer by a client that reuses the
                    // connection.
                    calls.next() == 0
                        ? .head(
                            ["HTTP/1.1 101 Switching Protocols", "Upgrade: websocket", "Connection: Upgrade"],
                            body: Data([0x81, 0x02, 0x68, 0x69]))
                        : itemResponse([])
                }) { api, _ in
                    // Bounded: a client that takes the 101 for an interim answer waits for another that never comes.
                    let (outcome, _) = try await context.timed(within: .seconds(3), "the call answered with a 101") { try await api.data() }
                    guard case .failure(let thrown) = outcome else {
                        throw context.failure("the call returned \(outcome.map(context.describe))")
                    }
                    let refused = (thrown as? HTTPError)?.statusCode == 101 || (thrown as? RequestError)?.kind == .malformedResponse
                    try context.expect(refused, "the call threw \(context.describe(thrown)), not an HTTPError 101 or a malformed response")
                    let next = try await api.item()
                    try context.expect(next.body.id == 1, "the next call answered \(next.body)")
                }
            },
            TransportConformanceCase(
                "framing/obs-fold",
                "a field value folded onto a second line (obs-fold) is unfolded with spaces, as RFC 9112 asks of a user agent"
            ) { context in
                try await context.withRawServer({ _ in itemResponse(["X-Folded: first\r\n second"]) }) { api, _ in
                    let response = try await api.item()
                    let value = response.headers["X-Folded"] ?? "<none>"
                    let unfolded =
                        value.hasPrefix("first ") && value.hasSuffix(" second") && value.allSatisfy { $0 != "\r" && $0 != "\n" }
                        && value.dropFirst(5).dropLast(6).allSatisfy { $0 == " " }
                    try context.expect(unfolded, "headers[\"X-Folded\"] is \(value.debugDescription)")
                }
            },
            TransportConformanceCase(
                "framing/empty-chunked-body", "a chunked body of the last chunk alone (0 CRLF CRLF) is an empty body"
            ) { context in
                try await context.withRawServer({ _ in
                    .head(["HTTP/1.1 200 OK", "Transfer-Encoding: chunked"], body: Data("0\r\n\r\n".utf8))
                }) {
                    api, _ in
                    let response = try await api.data()
                    try context.expect(response.statusCode == 200 && response.body.isEmpty, "the answer is \(context.describe(response))")
                }
            },
        ]
    }

    /// Counts calls across the server's threads.
    final class Counter: Sendable {
        private let count = NIOLockedValueBox(0)

        /// The number of calls before this one.
        func next() -> Int {
            count.withLockedValue { count in
                count += 1
                return count - 1
            }
        }
    }
#endif
