#if TransportConformance
    import Foundation
    import RetroSwift

    extension TransportConformance {
        /// Error statuses are answers, not failures: the transport returns them whole, and RetroSwift turns them into
        /// an `HTTPError` (or `Either`'s error side) with their status, fields and body as the server sent them.
        static let statusCases: [TransportConformanceCase] =
            [
                (400, "Bad Request"), (404, "Not Found"), (500, "Internal Server Error"), (503, "Service Unavailable"),
            ].map(errorStatusCase) + otherStatusCases

        /// A body of every byte value, so a transport that decodes it as text, trims it or cuts it changes it. Made for
        /// each use: the cases live as long as the process, and bytes they held would be reported as leaked by the
        /// address sanitizer, which cannot follow Swift's packed references to them.
        private static var errorBody: Data { patternedBytes(10_000) }

        private static func errorStatusCase(_ status: (code: Int, reason: String)) -> TransportConformanceCase {
            TransportConformanceCase(
                "status/\(status.code)", "a \(status.code) \(status.reason) comes back as an HTTPError with its fields and whole body"
            ) { context in
                try await context.withRawServer({ _ in
                    .head(
                        [
                            "HTTP/1.1 \(status.code) \(status.reason)", "Content-Type: application/octet-stream",
                            "X-Detail: status-\(status.code)", "Retry-After: 120", "Content-Length: \(errorBody.count)",
                        ], body: errorBody)
                }) { api, server in
                    let error = try await context.httpError { try await api.data() }
                    try context.expect(error.statusCode == status.code, "the status is \(error.statusCode), not \(status.code)")
                    try context.expect(
                        error.body == errorBody, "the body has \(error.body.count) bytes, not the \(errorBody.count) sent, or not the same")
                    try context.expect(
                        error.headers["X-Detail"] == "status-\(status.code)" && error.headers["Retry-After"] == "120",
                        "the fields are \(error.headers.map { "\($0.name): \($0.value)" })")
                    try context.expect(server.requests.count == 1, "the server saw \(server.requests.count) requests")
                }
            }
        }

        private static let otherStatusCases: [TransportConformanceCase] = [
            TransportConformanceCase(
                "status/418-json-error-body", "a 418 with a JSON problem document decodes as Either's error side, status kept"
            ) { context in
                try await context.withServer({ _ in .json(#"{"title":"short and stout"}"#, status: 418) }) { api, _ in
                    let response = try await api.teapot()
                    try context.expect(response.statusCode == 418, "the status is \(response.statusCode)")
                    try context.expect(
                        response.body.errorResponse?.title == "short and stout", "the body decoded as \(response.body)")
                }
            },
            TransportConformanceCase(
                "status/404-file-keeps-body", "a 404 to a call asking for a file comes back as an HTTPError with its whole body"
            ) { context in
                try await context.withRawServer({ _ in errorAnswer("404 Not Found") }) { api, _ in
                    let error = try await context.httpError { try await api.file() }
                    try context.expect(
                        error.statusCode == 404 && error.body == errorBody,
                        "the error is \(error.statusCode) with \(error.body.count) body bytes, not 404 with the \(errorBody.count) sent")
                }
            },
            TransportConformanceCase(
                "status/500-stream-keeps-body", "a 500 to a call asking for a stream comes back as an HTTPError with its whole body"
            ) { context in
                try await context.withRawServer({ _ in errorAnswer("500 Internal Server Error") }) { api, _ in
                    let error = try await context.httpError { try await api.stream() }
                    try context.expect(
                        error.statusCode == 500 && error.body == errorBody,
                        "the error is \(error.statusCode) with \(error.body.count) body bytes, not 500 with the \(errorBody.count) sent")
                }
            },
            answeredBeforeUploadRead(closing: false),
            answeredBeforeUploadRead(closing: true),
        ]

        /// An error status with ``errorBody``, for a call that asked for its body as a file or a stream: only a 2xx
        /// body goes there, an error's comes back whole with its ``HTTPError``.
        private static func errorAnswer(_ status: String) -> RawResponse {
            .head(
                ["HTTP/1.1 \(status)", "Content-Type: application/octet-stream", "Content-Length: \(errorBody.count)"],
                body: errorBody)
        }

        /// A 413 the server sends at the head of an 8 MiB POST, before reading the body, which it then reads only to
        /// throw away, as servers refusing a large upload early do (closing at once would reset the connection under
        /// the client's feet); with `closing`, the answer says `Connection: close`, as such servers' answers usually do.
        private static func answeredBeforeUploadRead(closing: Bool) -> TransportConformanceCase {
            TransportConformanceCase(
                "status/answered-before-upload-read\(closing ? "-closing" : "")",
                "a 413\(closing ? " with Connection: close" : "") that the server sends before reading a POST's 8 MiB body comes "
                    + "back as the answer, body whole"
            ) { context in
                let refusal = Data("the upload is too large".utf8)
                let server = try await TestServer.startAnsweringHeads(drainingBodies: true) { _ in
                    .head(
                        ["HTTP/1.1 413 Content Too Large", "Content-Type: text/plain", "Content-Length: \(refusal.count)"]
                            + (closing ? ["Connection: close"] : []), body: refusal)
                }
                try await context.run(
                    { api, _ in
                        let error = try await context.httpError { try await api.upload(.init(body: Data(count: 8 << 20))) }
                        try context.expect(
                            error.statusCode == 413 && error.body == refusal,
                            "the answer is \(error.statusCode) with \(String(decoding: error.body, as: UTF8.self).debugDescription)")
                    }, context.api(at: server), server)
            }
        }
    }
#endif
