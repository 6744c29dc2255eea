#if TransportConformance
    import Foundation
    import RetroSwift

    extension TransportConformance {
        /// Connections: failures in one error vocabulary, and a pool that neither starves nor refuses calls.
        static let connectionCases: [TransportConformanceCase] = [
            TransportConformanceCase(
                "connection/refused", "a port nobody listens on fails with URLError.cannotConnectToHost"
            ) { context in
                let port = try await TestServer.unusedPort()
                let transport = context.makeTransport()
                transport.setConfiguration(baseURL: URL(string: "http://127.0.0.1:\(port)")!, sharedHeaders: nil)
                let api = ConformanceApi(transport: transport)
                try await context.urlError(.cannotConnectToHost) { try await api.item() }
            },
            TransportConformanceCase(
                "connection/closed-before-response", "a connection closed before any response fails with URLError.networkConnectionLost"
            ) { context in
                try await context.withRawServer({ _ in RawResponse(pieces: [], ending: .close) }) { api, _ in
                    try await context.urlError(.networkConnectionLost) { try await api.item() }
                }
            },
            TransportConformanceCase(
                "connection/beyond-the-pool", "40 concurrent calls to one host all succeed"
            ) { context in
                try await context.withServer({ _ in ScriptedResponse(status: 200, body: itemJSON, behavior: .delayed(0.2)) }) {
                    api, server in
                    let answered = try await withThrowingTaskGroup(of: Int.self) { group in
                        for _ in 0..<40 { group.addTask { try await api.item().body.id } }
                        return try await group.reduce(0) { $0 + $1 }
                    }
                    try context.expect(answered == 40, "\(answered) of 40 calls were answered")
                    try context.expect(server.requests.count == 40, "the server saw \(server.requests.count) requests")
                }
            },
            TransportConformanceCase(
                "connection/streams-beside-calls", "10 open event streams to one host leave room for an ordinary call there"
            ) { context in
                try await context.withServer({ request in
                    request.target == "/stream"
                        ? ScriptedResponse(behavior: .chunked(pieces: [Data("data: 1\n\n".utf8)], interval: 0, holdingOpen: true))
                        : .json(#"{"id":4}"#)
                }) { api, _ in
                    var streams: [HTTPBodyStream] = []
                    for _ in 0..<10 { streams.append(try await api.stream()) }
                    let response = try await api.item()
                    try context.expect(response.body.id == 4, "the call beside the streams answered \(response.body)")
                    streams.removeAll()
                }
            },
        ]
    }
#endif
