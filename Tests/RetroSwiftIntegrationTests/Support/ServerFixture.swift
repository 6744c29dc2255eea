import Foundation
import RetroSwift
import RetroSwiftTestServer

// End-to-end suites allow four minutes (five for large transfers): under the thread sanitizer, on a loaded 2-core
// machine, a suite of quick exchanges once took over a minute. The limit only catches hangs.

/// Starts a test server (with `tls`, an `https` one), hands a configured transport to the test body, and stops the
/// server afterwards.
func withServer<T>(
    _ kind: TransportKind, basePath: String = "", sharedHeaders: [String: String]? = nil,
    temporaryDirectory: URL = FileManager.default.temporaryDirectory, tls: TestServer.TLSInstaller? = nil,
    respond: @escaping TestServer.Responder = { _ in ScriptedResponse(status: 204) },
    _ body: (any HttpTransport, TestServer) async throws -> T
) async throws -> T {
    let server = try await TestServer.start(tls: tls, respond)
    let transport = kind.make(temporaryDirectory: temporaryDirectory)
    transport.setConfiguration(baseURL: URL(string: server.baseURL.absoluteString + basePath)!, sharedHeaders: sharedHeaders)
    return try await stopping(server) { server in try await body(transport, server) }
}

/// A server a test starts and must stop before it ends.
protocol StoppableServer: Sendable {
    /// Stops listening and closes the connections still open.
    func stop() async
}

extension TestServer: StoppableServer {}

/// Runs `body` with `server`, then stops the server however `body` ended, so that no server outlives its test: a
/// `defer` cannot wait for the stop, and a task started there can outlive the test.
func stopping<Server: StoppableServer, T>(_ server: Server, after body: (Server) async throws -> T) async throws -> T {
    do {
        let result = try await body(server)
        await server.stop()
        return result
    } catch {
        await server.stop()
        throw error
    }
}
