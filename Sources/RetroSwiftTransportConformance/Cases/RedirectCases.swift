#if TransportConformance
    import Foundation
    import RetroSwift

    extension TransportConformance {
        /// Redirects: the transport hands every `3xx` back, and RetroSwift follows it by its policy.
        static let redirectCases: [TransportConformanceCase] = [
            TransportConformanceCase(
                "redirects/returned-not-followed", "the transport returns a 302 instead of following it"
            ) { context in
                try await context.withServer({ _ in ScriptedResponse(status: 302, headers: [("Location", "/item")]) }) { api, server in
                    let response = try await api.unfollowed()
                    try context.expect(response.statusCode == 302, "the answer is \(response.statusCode)")
                    try context.expect(server.requests.count == 1, "the server saw \(server.requests.count) requests")
                }
            },
            TransportConformanceCase(
                "redirects/relative-location", "a relative Location resolves against the URL requested"
            ) { context in
                try await context.withServer({ request in
                    request.target == "/item"
                        ? ScriptedResponse(status: 302, headers: [("Location", "elsewhere/../final?x=1")]) : .json(#"{"id":2}"#)
                }) { api, server in
                    let response = try await api.item()
                    try context.expect(response.body.id == 2, "the answer is \(response.body)")
                    let targets = server.requests.map(\.target)
                    try context.expect(targets == ["/item", "/final?x=1"], "the server saw \(targets)")
                }
            },
            TransportConformanceCase(
                "redirects/see-other-becomes-get", "a 303 after a POST is followed with a GET without the body"
            ) { context in
                try await context.withServer({ request in
                    request.method == "POST" ? ScriptedResponse(status: 303, headers: [("Location", "/result")]) : .json("{}")
                }) { api, server in
                    _ = try await api.submit(.init(body: Data("payload".utf8)))
                    let second = server.requests.dropFirst().first
                    try context.expect(
                        second?.method == "GET" && second?.bodyByteCount == 0 && second?.header("Content-Type") == nil,
                        "the second request was \(String(describing: second?.method)) with \(second?.bodyByteCount ?? 0) body bytes")
                }
            },
            TransportConformanceCase(
                "redirects/temporary-keeps-method-and-body", "a 307 is followed with the same method and body"
            ) { context in
                try await context.withServer({ request in
                    request.target == "/submit" ? ScriptedResponse(status: 307, headers: [("Location", "/again")]) : .json("{}")
                }) { api, server in
                    _ = try await api.submit(.init(body: Data("payload".utf8)))
                    let second = server.requests.dropFirst().first
                    try context.expect(
                        second?.method == "POST" && second?.body == Data("payload".utf8),
                        "the second request was \(String(describing: second?.method)) with \(second?.bodyByteCount ?? 0) body bytes")
                }
            },
            TransportConformanceCase(
                "redirects/permanent-keeps-method-and-body", "a 308 is followed with the same method and body"
            ) { context in
                try await context.withServer({ request in
                    request.target == "/submit" ? ScriptedResponse(status: 308, headers: [("Location", "/moved")]) : .json("{}")
                }) { api, server in
                    _ = try await api.submit(.init(body: Data("payload".utf8)))
                    let second = server.requests.dropFirst().first
                    try context.expect(
                        second?.target == "/moved" && second?.method == "POST" && second?.body == Data("payload".utf8),
                        "the second request was \(String(describing: second?.method)) \(String(describing: second?.target)) with "
                            + "\(second?.bodyByteCount ?? 0) body bytes")
                }
            },
            TransportConformanceCase(
                "redirects/moved-permanently-post-becomes-get",
                "a 301 after a POST is followed with a GET without the body, as RetroSwift's RedirectPolicy says"
            ) { context in
                try await context.withServer({ request in
                    request.target == "/submit" ? ScriptedResponse(status: 301, headers: [("Location", "/moved")]) : .json("{}")
                }) { api, server in
                    _ = try await api.submit(.init(body: Data("payload".utf8)))
                    let targets = server.requests.map { "\($0.method) \($0.target)" }
                    let second = server.requests.dropFirst().first
                    try context.expect(
                        targets == ["POST /submit", "GET /moved"] && second?.bodyByteCount == 0 && second?.header("Content-Type") == nil,
                        "the server saw \(targets), the second with \(second?.bodyByteCount ?? 0) body bytes")
                }
            },
            TransportConformanceCase(
                "redirects/loop-refused", "a redirect loop is refused after the policy's limit"
            ) { context in
                try await context.withServer({ _ in ScriptedResponse(status: 302, headers: [("Location", "/item")]) }) { api, server in
                    let error = try await context.requestError(.redirectRefused) { try await api.item() }
                    try context.expect(error.reason.hasPrefix("more than 16 redirects"), "the reason is \(error.reason)")
                    try context.expect(server.requests.count == 17, "the server saw \(server.requests.count) requests")
                }
            },
            TransportConformanceCase(
                "redirects/cross-origin-credentials", "a redirect to another origin goes without Authorization and Cookie"
            ) { context in
                let other = try await TestServer.start { _ in .json(#"{"id":3}"#) }
                do {
                    let location = other.baseURL.appendingPathComponent("landing").absoluteString
                    try await context.withServer({ _ in ScriptedResponse(status: 302, headers: [("Location", location)]) }) { api, server in
                        api.sharedHeaders = ["Authorization": "Bearer secret", "Cookie": "session=1", "X-Trace": "t"]
                        let response = try await api.item()
                        try context.expect(response.body.id == 3, "the answer is \(response.body)")
                        let first = server.requests.first
                        try context.expect(first?.header("Authorization") == "Bearer secret", "the first request lacked its Authorization")
                        let landed = other.requests.first
                        try context.expect(
                            landed?.header("Authorization") == nil && landed?.header("Cookie") == nil && landed?.header("X-Trace") == "t",
                            "the other origin saw \((landed?.headers ?? []).map(\.name))")
                    }
                    await other.stop()
                } catch {
                    await other.stop()
                    throw error
                }
            },
        ]
    }
#endif
