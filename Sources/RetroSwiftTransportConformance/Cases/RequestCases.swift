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
        ]
    }
#endif
