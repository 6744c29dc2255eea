#if TransportConformance
    import Foundation
    import RetroSwift

    extension TransportConformance {
        /// Base URLs written as RFC 3986 allows: a scheme and a host compare without case (§3.1, §3.2.2, §6.2.2.1), so
        /// `HTTP://` is `http://` and `LOCALHOST` is `localhost`, one origin; and a host may be an IPv6 literal in
        /// brackets (§3.2.2). RetroSwift hands such URLs to the transport as the user wrote them.
        static let urlCases: [TransportConformanceCase] = [
            TransportConformanceCase(
                "url/scheme-in-capitals", "a base URL whose scheme is in capitals, HTTP://127.0.0.1:port, is called as http"
            ) { context in
                let server = try await TestServer.start { _ in .json(#"{"id":1}"#) }
                let api = context.api(baseURL: URL(string: "HTTP://127.0.0.1:\(server.port)")!)
                try await context.run(
                    { api, server in
                        let response = try await api.item()
                        try context.expect(response.body.id == 1, "the call answered \(response.body)")
                        let targets = server.requests.map(\.target)
                        try context.expect(targets == ["/item"], "the server saw the targets \(targets)")
                    }, api, server)
            },
            TransportConformanceCase(
                "url/host-in-capitals-one-origin",
                "http://LOCALHOST and http://localhost, http://Localhost… are one origin: 9 calls to 9 spellings share connections"
            ) { context in
                let server = try await TestServer.start { _ in .json(#"{"id":1}"#) }
                let api = context.api(baseURL: URL(string: "http://LOCALHOST:\(server.port)")!)
                try await context.run(
                    { api, server in try await context.expectSharedConnections(for: api, server) { "http://\($0):\(server.port)/item" } },
                    api, server)
            },
            TransportConformanceCase(
                "url/ipv6-literal",
                "a base URL whose host is an IPv6 literal, http://[::1]:port, is called, with the Host field [::1]:port"
            ) { context in
                let server = try await context.startServer(on: "::1") { _ in .json(#"{"id":1}"#) }
                try await context.run(
                    { api, server in
                        let response = try await api.item()
                        try context.expect(response.body.id == 1, "the call answered \(response.body)")
                        let host = server.requests.first?.header("Host")
                        try context.expect(
                            host == "[::1]:\(server.port)", "the Host field was \(String(describing: host)), not [::1]:\(server.port)")
                    }, context.api(at: server), server)
            },
        ]
    }

    extension ConformanceContext {
        /// A scripted server listening on `host`; one that cannot listen there fails the case saying why, so that a
        /// machine without an IPv6 loopback address never passes a case it did not run.
        ///
        /// - Parameters:
        ///   - host: The address to listen on, such as `::1`.
        ///   - tls: Installs TLS on each connection, for an `https` server; `nil` serves plain `http`.
        ///   - respond: Produces the answer to each request.
        /// - Returns: The running server.
        /// - Throws: A ``TransportConformanceFailure`` naming the address when the server cannot listen on it.
        func startServer(
            on host: String, tls: TestServer.TLSInstaller? = nil, _ respond: @escaping TestServer.Responder
        ) async throws -> TestServer {
            do {
                return try await TestServer.start(host: host, tls: tls, respond)
            } catch {
                let why = host.contains(":") ? "this machine has no IPv6 loopback address" : "this machine does not have that address"
                throw failure(
                    "cannot run: the test server cannot listen on \(host) (\(describe(error))); \(why), and the case needs one")
            }
        }

        /// Calls `api`'s base URL, then the same origin under 8 other spellings of its host, `localhost` with its
        /// letters in one case or the other (`url` makes the full URL of each), one call after the other, and expects
        /// some of the calls to share a connection. A transport that keys its connections by the host as written opens
        /// one per spelling, here one per call; one that is not quite done with a connection when the next call starts
        /// may open another now and then, but not for every call.
        func expectSharedConnections(for api: ConformanceApi, _ server: TestServer, _ url: (String) -> String) async throws {
            let first = try await api.item()
            try expect(first.body.id == 1, "the call to the base URL answered \(first.body)")
            // Each bit of the number puts one letter in capitals: 0 is "localhost", 1 "Localhost", 2 "lOcalhost"…
            let spellings = (0..<8).map { number in
                String("localhost".enumerated().map { number >> $0.offset & 1 == 1 ? Character($0.element.uppercased()) : $0.element })
            }
            for spelling in spellings {
                let other = try await api.located(.init(url: url(spelling)))
                try expect(other.body.id == 1, "the call to \(url(spelling)) answered \(other.body)")
            }
            let calls = spellings.count + 1
            try expect(server.requests.count == calls, "the server saw \(server.requests.count) requests, not \(calls)")
            // Fewer connections than calls: some spelling reused another's connection. Not exactly one: a transport may
            // hand back an answer a moment before its connection is free again (async-http-client does under the
            // thread sanitizer, over TLS), and the next call then opens another; a transport that keyed its pool by
            // the spelling takes nine.
            try expect(
                server.acceptedConnectionCount < calls,
                "\(calls) calls, to LOCALHOST and \(spellings), took \(server.acceptedConnectionCount) connections: none went over "
                    + "a connection of another spelling of the host")
        }
    }
#endif
