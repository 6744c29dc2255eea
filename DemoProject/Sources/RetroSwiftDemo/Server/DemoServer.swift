import FlyingFox
import Foundation

/// A small schedules service on 127.0.0.1 with an ephemeral port, so the demo needs no network.
struct DemoServer {
    private let server: HTTPServer
    private let task: Task<Void, any Error>
    /// Where the server listens.
    let baseURL: URL

    static func start() async throws -> DemoServer {
        // 127.0.0.1 explicitly: FlyingFox's `.loopback` is the IPv6 ::1.
        let server = HTTPServer(
            address: try .inet(ip4: "127.0.0.1", port: 0), pool: NoDelaySocketPool(base: HTTPServer.defaultPool()), logger: .disabled
        )
        await ScheduleRoutes(store: ScheduleStore()).register(on: server)
        await SpeechToTextRoute().register(on: server)
        await EventRoutes().register(on: server)
        let task = Task { try await server.run() }
        try await server.waitUntilListening()
        guard case .ip4(_, let port)? = await server.listeningAddress else {
            task.cancel()
            throw URLError(.cannotConnectToHost)
        }
        return DemoServer(server: server, task: task, baseURL: URL(string: "http://127.0.0.1:\(port)")!)
    }

    func stop() async {
        await server.stop(timeout: 1)
        task.cancel()
    }
}

/// JSON in the service's format: dates as epoch milliseconds, like RetroSwift's defaults.
enum ServiceJSON {
    static func response(_ value: some Encodable, status: HTTPStatusCode = .ok) -> HTTPResponse {
        let encoder = JSONEncoder()
        encoder.dateEncodingStrategy = .millisecondsSince1970
        let body = (try? encoder.encode(value)) ?? Data("{}".utf8)
        return HTTPResponse(statusCode: status, headers: [.contentType: "application/json"], body: body)
    }

    static func decode<T: Decodable>(_ type: T.Type, from request: HTTPRequest) async throws -> T {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .millisecondsSince1970
        return try decoder.decode(T.self, from: try await request.bodyData)
    }

    static func text(_ text: String, status: HTTPStatusCode) -> HTTPResponse {
        HTTPResponse(statusCode: status, headers: [.contentType: "text/plain; charset=utf-8"], body: Data(text.utf8))
    }
}
