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
    do {
        let result = try await body(transport, server)
        await server.stop()
        return result
    } catch {
        await server.stop()
        throw error
    }
}
