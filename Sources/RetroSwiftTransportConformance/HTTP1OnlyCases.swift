#if TransportConformance
    extension TransportConformance {
        /// The cases that cannot apply over HTTP/2, each with why: their server writes HTTP/1.1's own bytes (a status
        /// line, `Content-Length`, chunks, a malformed head) or reads a request's HTTP/1.1 framing, which HTTP/2's frames
        /// replace, or they check what HTTP/1.1 does with a connection where HTTP/2 acts on a stream. A transport's run
        /// over HTTP/2 skips them; they are no limitation of the transport.
        public static let http1OnlyCases: [String: String] = {
            var cases: [String: String] = [:]
            for id in framingCaseIDs { cases[id] = framingReason }
            for id in rawResponseCaseIDs { cases[id] = rawResponseReason }
            for id in rawRequestCaseIDs { cases[id] = rawRequestReason }
            for id in connectionCaseIDs { cases[id] = connectionReason }
            cases["body/stream-left-early"] = streamResetReason
            cases["connection/abandoned-stream-closed"] = streamResetReason
            return cases
        }()

        private static let framingReason =
            "checks how HTTP/1.1's framing bytes are read (status line, Content-Length, chunks, obs-fold, 1xx heads); HTTP/2 frames replace them"
        private static let rawResponseReason =
            "its server answers with HTTP/1.1 bytes written by hand (a raw response), which an HTTP/2 connection cannot carry"
        private static let rawRequestReason =
            "its server reads the request's HTTP/1.1 bytes at a set pace or answers its head before the body, by hand"
        private static let connectionReason =
            "checks HTTP/1.1's reuse of a kept-alive connection, with a server that closes or resets it by hand"
        private static let streamResetReason =
            "checks that the connection closes; over HTTP/2 only the stream is reset (RST_STREAM) and the connection stays, as http2/stream-left-mid-body-keeps-connection checks"

        private static let framingCaseIDs = [
            "framing/bare-cr-in-field",
            "framing/body-shorter-than-content-length",
            "framing/chunk-extensions",
            "framing/chunk-size-enormous",
            "framing/chunk-size-hex-prefix",
            "framing/chunk-size-negative",
            "framing/chunk-size-with-space",
            "framing/chunked-with-content-length",
            "framing/close-delimited-body",
            "framing/closed-mid-chunked-body",
            "framing/conflicting-content-length",
            "framing/content-length-list",
            "framing/content-length-not-a-number",
            "framing/content-length-overflow",
            "framing/empty-chunked-body",
            "framing/empty-reason-phrase",
            "framing/field-count-limit",
            "framing/file-body-shorter-than-content-length",
            "framing/head-with-content-length",
            "framing/huge-header-block",
            "framing/informational-before-final",
            "framing/lf-line-ends",
            "framing/lowercase-version",
            "framing/no-content-with-body",
            "framing/no-reason-phrase",
            "framing/not-http",
            "framing/not-modified-with-body",
            "framing/obs-fold",
            "framing/several-informational",
            "framing/space-before-colon",
            "framing/status-out-of-range",
            "framing/trailers",
            "framing/unknown-status",
            "framing/unknown-transfer-coding",
            "framing/unrequested-switching-protocols",
        ]

        private static let rawResponseCaseIDs = [
            "body/announced-over-limit",
            "body/chunked-exact-bytes",
            "body/chunked-over-limit",
            "body/decompression-ratio",
            "body/deflate",
            "body/empty",
            "body/exact-bytes",
            "body/gzip",
            "body/gzip-bomb",
            "body/gzip-bomb-default-limits",
            "body/stream-in-order",
            "body/stream-read-slowly",
            "body/to-file",
            "progress/download",
            "response-fields/names-differing-in-case",
            "response-fields/repeats-combined",
            "response-fields/repeats-kept-apart",
            "response-fields/set-cookie-never-combined",
            "response-fields/status-and-url",
            "response-fields/whitespace-trimmed",
            "response-fields/wire-order",
            "status/400",
            "status/404",
            "status/404-file-keeps-body",
            "status/500",
            "status/500-stream-keeps-body",
            "status/503",
            "streams/cut-before-reading-bytes",
            "streams/cut-before-reading-json-lines",
            "streams/cut-before-reading-server-sent-events",
            "streams/cut-before-reading-text-lines",
            "streams/cut-keeps-records-bytes",
            "streams/cut-keeps-records-json-lines",
            "streams/cut-keeps-records-server-sent-events",
            "streams/cut-keeps-records-text-lines",
            "streams/cut-while-pool-busy-bytes",
            "streams/cut-while-pool-busy-json-lines",
            "streams/cut-while-pool-busy-server-sent-events",
            "streams/cut-while-pool-busy-text-lines",
        ]

        private static let rawRequestCaseIDs = [
            "cancellation/during-upload",
            "request/expect-continue-final-status",
            "request/expect-continue-refused",
            "status/answered-before-upload-read",
            "status/answered-before-upload-read-closing",
            "timeout/head-after-upload",
            "timeout/stalled-upload",
            "timeout/steady-upload-completes",
        ]

        private static let connectionCaseIDs = [
            "connection/closed-before-response",
            "connection/idle-closed-get-succeeds",
            "connection/idle-closed-post-sent-once",
            "connection/post-on-reused-connection-not-resent",
            "connection/post-unanswered-not-resent",
            "connection/reset-after-request",
            "connection/server-ended-released",
        ]

    }
#endif
