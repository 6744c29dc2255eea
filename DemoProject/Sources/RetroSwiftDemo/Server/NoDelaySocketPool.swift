import FlyingSocks
import Foundation

/// FlyingFox's socket pool with Nagle's algorithm turned off on every socket the server waits on.
///
/// FlyingFox writes a response's head and body separately; with Nagle's algorithm on, the body then waits for the
/// client's delayed acknowledgement of the head, about 40 ms on Linux loopback, which made every demo call look
/// slow. The listening socket passes through here first, and on Linux accepted sockets inherit `TCP_NODELAY` from
/// it; connections waiting for their next request get it too.
struct NoDelaySocketPool: AsyncSocketPool {
    let base: any AsyncSocketPool

    func prepare() async throws {
        try await base.prepare()
    }

    func run() async throws {
        try await base.run()
    }

    func suspendSocket(_ socket: Socket, untilReadyFor events: Socket.Events) async throws {
        // Best effort: a socket that refuses the option still works, only slower.
        try? socket.setValue(true, for: BoolSocketOption(level: Int32(IPPROTO_TCP), name: Int32(TCP_NODELAY)))
        try await base.suspendSocket(socket, untilReadyFor: events)
    }
}
