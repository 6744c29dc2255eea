#if TransportConformance
    import Foundation
    import RetroSwift

    extension TransportConformance {
        /// Requests on the wire: exactly the target, fields and body RetroSwift resolved, and nothing added.
        static let requestCases: [TransportConformanceCase] = [
            TransportConformanceCase(
                "request/exact-target", "the request target is sent exactly as RetroSwift encoded it"
            ) { context in
                try await context.withServer({ _ in ScriptedResponse(status: 204) }) { api, server in
                    _ = try await api.target(.init(name: "a/b c", query: "é&=", plus: "1+1"))
                    let target = server.requests.first?.target
                    let expected = "/items/a%2Fb%20c?q=%C3%A9%26%3D&plus=1%2B1"
                    try context.expect(target == expected, "the server saw \(String(describing: target)), not \(expected)")
                }
            },
            TransportConformanceCase(
                "request/field-order", "header fields go out in the order they were declared"
            ) { context in
                try await context.withServer({ _ in ScriptedResponse(status: 204) }) { api, server in
                    _ = try await api.ordered(.init())
                    let names = (server.requests.first?.headers ?? []).map { $0.name.lowercased() }.filter { $0.hasPrefix("x-") }
                    let declared = ["x-third", "x-first", "x-second", "x-eighth", "x-fifth", "x-seventh", "x-fourth", "x-sixth"]
                    try context.expect(names == declared, "the X- fields went out as \(names)")
                }
            },
            TransportConformanceCase(
                "request/shared-headers", "shared headers are sent, and the request's own of the same name wins"
            ) { context in
                try await context.withServer({ _ in ScriptedResponse(status: 204) }) { api, server in
                    api.sharedHeaders = ["X-Api-Key": "k-1", "X-First": "shared"]
                    _ = try await api.ordered(.init())
                    let request = server.requests.first
                    try context.expect(
                        request?.header("X-Api-Key") == "k-1" && request?.header("X-First") == "1",
                        "the server saw X-Api-Key \(String(describing: request?.header("X-Api-Key"))) and X-First "
                            + "\(String(describing: request?.header("X-First")))")
                    let firsts = (request?.headers ?? []).filter { $0.name.lowercased() == "x-first" }.count
                    try context.expect(firsts == 1, "X-First went out \(firsts) times")
                }
            },
            TransportConformanceCase(
                "request/nothing-added", "no credentials, cookies or other fields the call did not ask for are added"
            ) { context in
                try await context.withServer({ _ in ScriptedResponse(status: 204) }) { api, server in
                    _ = try await api.ordered(.init())
                    let names = Set((server.requests.first?.headers ?? []).map { $0.name.lowercased() })
                    let allowed: Set<String> = [
                        "host", "accept", "accept-encoding", "accept-language", "user-agent", "connection", "content-length",
                    ]
                    let added = names.subtracting(allowed).filter { !$0.hasPrefix("x-") }
                    try context.expect(added.isEmpty, "the server also saw \(added.sorted())")
                }
            },
            TransportConformanceCase(
                "request/body-bytes", "a 1 MiB body goes out byte for byte with its Content-Length and Content-Type"
            ) { context in
                let body = patternedBytes(1 << 20)
                try await context.withServer({ _ in ScriptedResponse(status: 200) }) { api, server in
                    _ = try await api.upload(.init(body: body))
                    let request = server.requests.first
                    try context.expect(request?.body == body, "the server received \(request?.bodyByteCount ?? 0) bytes, or not the same")
                    try context.expect(
                        request?.header("Content-Length") == "\(body.count)",
                        "Content-Length is \(String(describing: request?.header("Content-Length")))")
                    try context.expect(
                        request?.header("Content-Type") == "application/octet-stream",
                        "Content-Type is \(String(describing: request?.header("Content-Type")))")
                }
            },
            TransportConformanceCase(
                "request/file-body", "a file body goes out byte for byte"
            ) { context in
                let body = patternedBytes(3 << 20)
                let file = FileManager.default.temporaryDirectory.appendingPathComponent("conformance-\(UUID().uuidString).bin")
                try body.write(to: file)
                defer { try? FileManager.default.removeItem(at: file) }
                try await context.withServer({ _ in ScriptedResponse(status: 200) }) { api, server in
                    _ = try await api.uploadFile(.init(file: file))
                    let request = server.requests.first
                    try context.expect(request?.method == "PUT", "the method is \(String(describing: request?.method))")
                    try context.expect(request?.body == body, "the server received \(request?.bodyByteCount ?? 0) bytes, or not the same")
                    try context.expect(FileManager.default.fileExists(atPath: file.path), "the transport deleted the caller's file")
                }
            },
            TransportConformanceCase(
                "request/stream-body-chunked",
                "a body stream of unknown length goes out chunked as it is read: the server has its first chunk before the "
                    + "stream makes the second"
            ) { context in
                let first = Data("first chunk;".utf8)
                let second = Data("second chunk".utf8)
                try await context.withServer({ _ in ScriptedResponse(status: 200) }) { api, server in
                    let firstArrived = Collected<Bool>()
                    let body = HTTPRequestBodyStream(length: nil) {
                        let step = Counter()
                        return AsyncStream<Data> {
                            switch step.next() {
                            case 0: return first
                            case 1:
                                // The second chunk waits for the server to have read the first: a transport that reads
                                // the whole stream before sending anything makes it wait in vain.
                                firstArrived.add(await server.waitForBodyBytes(first.count, within: .seconds(3)))
                                return second
                            default: return nil
                            }
                        }
                    }
                    _ = try await api.uploadStream(.init(body: body))
                    let request = server.requests.first
                    try context.expect(
                        firstArrived.all.first == true, "the server had not read the first chunk 3 s after the stream made it")
                    try context.expect(
                        request?.body == first + second, "the server received \(request?.bodyByteCount ?? 0) bytes, or not the same")
                    try context.expect(
                        request?.header("Transfer-Encoding")?.lowercased() == "chunked" && request?.header("Content-Length") == nil,
                        "Transfer-Encoding is \(String(describing: request?.header("Transfer-Encoding"))), Content-Length "
                            + "\(String(describing: request?.header("Content-Length")))")
                }
            },
            TransportConformanceCase(
                "request/no-cookie-jar",
                "a cookie a response sets is not sent back on the next call: RetroSwift keeps no cookies, nor may the transport"
            ) { context in
                try await context.withServer({ _ in
                    ScriptedResponse(
                        status: 200,
                        headers: [("Content-Type", "application/json"), ("Set-Cookie", "session=s3cr3t; Path=/; Max-Age=3600")],
                        body: itemJSON)
                }) { api, server in
                    _ = try await api.item()
                    _ = try await api.item()
                    let cookies = server.requests.map { $0.header("Cookie") }
                    try context.expect(cookies == [nil, nil], "the calls went with Cookie \(cookies)")
                }
            },
            TransportConformanceCase(
                "request/delete-with-body", "a DELETE with a body sends it byte for byte with its Content-Length"
            ) { context in
                let body = Data(#"{"reason":"duplicate"}"#.utf8)
                try await context.withServer({ _ in ScriptedResponse(status: 204) }) { api, server in
                    _ = try await api.delete(.init(body: body))
                    let request = server.requests.first
                    try context.expect(
                        request?.method == "DELETE" && request?.body == body && request?.header("Content-Length") == "\(body.count)",
                        "the server saw \(String(describing: request?.method)) with \(request?.bodyByteCount ?? 0) body bytes")
                }
            },
            TransportConformanceCase(
                "request/patch-with-body", "a PATCH sends its body byte for byte with its Content-Length"
            ) { context in
                let body = patternedBytes(100_000)
                try await context.withServer({ _ in ScriptedResponse(status: 200) }) { api, server in
                    _ = try await api.patch(.init(body: body))
                    let request = server.requests.first
                    try context.expect(
                        request?.method == "PATCH" && request?.body == body && request?.header("Content-Length") == "\(body.count)",
                        "the server saw \(String(describing: request?.method)) with \(request?.bodyByteCount ?? 0) body bytes")
                }
            },
            TransportConformanceCase(
                "request/options", "an OPTIONS request goes out as OPTIONS and its Allow field comes back"
            ) { context in
                try await context.withServer({ _ in ScriptedResponse(status: 204, headers: [("Allow", "GET, HEAD, OPTIONS")]) }) {
                    api, server in
                    let response = try await api.options()
                    let request = server.requests.first
                    try context.expect(
                        request?.method == "OPTIONS" && request?.target == "/data", "the server saw \(String(describing: request?.method))")
                    try context.expect(
                        response.statusCode == 204 && response.headers["Allow"] == "GET, HEAD, OPTIONS",
                        "the answer is \(response.statusCode) with Allow \(String(describing: response.headers["Allow"]))")
                }
            },
            TransportConformanceCase(
                "request/empty-header-value", "a header field with an empty value goes out as a field with an empty value"
            ) { context in
                try await context.withServer({ _ in ScriptedResponse(status: 204) }) { api, server in
                    _ = try await api.emptyField(.init())
                    let fields = (server.requests.first?.headers ?? []).filter { $0.name.lowercased() == "x-empty" }
                    try context.expect(
                        fields.count == 1 && fields[0].value == "", "the server saw X-Empty as \(fields.map(\.value))")
                }
            },
            TransportConformanceCase(
                "request/multipart-file", "a multipart upload with a file part arrives byte for byte, with its boundary and Content-Length"
            ) { context in
                let content = patternedBytes(3 << 20)
                let file = FileManager.default.temporaryDirectory.appendingPathComponent("conformance-\(UUID().uuidString).bin")
                try content.write(to: file)
                defer { try? FileManager.default.removeItem(at: file) }
                try await context.withServer({ _ in ScriptedResponse(status: 200) }) { api, server in
                    let form = ConformanceApi.Form(
                        title: "a title", file: .init(fileName: "data.bin", mimeType: "application/octet-stream", fileURL: file))
                    _ = try await api.form(form)
                    guard let request = server.requests.first else { throw context.failure("the server saw no request") }
                    let contentType = request.header("Content-Type") ?? ""
                    guard contentType.hasPrefix("multipart/form-data; boundary="),
                        let boundary = contentType.split(separator: "=", maxSplits: 1).last.map(String.init)
                    else { throw context.failure("Content-Type is \(contentType)") }
                    let expected =
                        Data(
                            ("--\(boundary)\r\nContent-Disposition: form-data; name=\"title\"\r\n\r\na title\r\n--\(boundary)\r\n"
                                + "Content-Disposition: form-data; name=\"file\"; filename=\"data.bin\"\r\n"
                                + "Content-Type: application/octet-stream\r\n\r\n").utf8) + content + Data("\r\n--\(boundary)--\r\n".utf8)
                    try context.expect(
                        request.body == expected, "the server received \(request.bodyByteCount) bytes, not the \(expected.count) expected")
                    try context.expect(
                        request.header("Content-Length") == "\(expected.count)",
                        "Content-Length is \(String(describing: request.header("Content-Length"))), not \(expected.count)")
                }
            },
            TransportConformanceCase(
                "request/expect-continue", "a POST declaring Expect: 100-continue is sent whole once the server answers 100, then 200"
            ) { context in
                let body = patternedBytes(1 << 20)
                // The scripted server answers 100 Continue to the head, then the 200 once the body has arrived.
                try await context.withServer({ _ in ScriptedResponse(status: 200, body: Data("stored".utf8)) }) { api, server in
                    let response = try await api.expecting(.init(body: body))
                    try context.expect(
                        response.statusCode == 200 && response.body == Data("stored".utf8), "the answer is \(context.describe(response))")
                    try context.expect(
                        server.requests.count == 1 && server.requests.first?.body == body,
                        "the server saw \(server.requests.map(\.bodyByteCount)) body bytes")
                }
            },
            TransportConformanceCase(
                "request/expect-continue-refused",
                "a 417 to a POST declaring Expect: 100-continue, sent before its body, comes back as the answer"
            ) { context in
                try await expectEarlyAnswer(context, status: 417, reason: "Expectation Failed")
            },
            TransportConformanceCase(
                "request/expect-continue-final-status",
                "a 401 to a POST declaring Expect: 100-continue, sent before its body, comes back as the answer"
            ) { context in
                try await expectEarlyAnswer(context, status: 401, reason: "Unauthorized")
            },
        ]

        /// Sends a 1 MiB POST declaring `Expect: 100-continue` to a server that answers `status` at the head, before
        /// the body, and expects that answer back.
        private static func expectEarlyAnswer(_ context: ConformanceContext, status: Int, reason: String) async throws {
            let refusal = Data("no body wanted".utf8)
            let server = try await TestServer.startAnsweringHeads(drainingBodies: true) { _ in
                .head(["HTTP/1.1 \(status) \(reason)", "Content-Type: text/plain", "Content-Length: \(refusal.count)"], body: refusal)
            }
            try await context.run(
                { api, _ in
                    let error = try await context.httpError { try await api.expecting(.init(body: patternedBytes(1 << 20))) }
                    try context.expect(
                        error.statusCode == status && error.body == refusal,
                        "the answer is \(error.statusCode) with \(String(decoding: error.body, as: UTF8.self).debugDescription)")
                }, context.api(at: server), server)
        }
    }
#endif
