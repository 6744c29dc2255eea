import Foundation
import RetroSwift
import RetroSwiftTestServer
import Testing

/// Long-lived streams must not starve ordinary calls to the same host: connection pools are per host, and a call that
/// waits for a connection counts that wait against its timeout.
@Suite("End to end: streams beside ordinary calls", .timeLimit(.minutes(4)))
struct StreamsBesideCallsTests {
    struct Tick: Decodable, Sendable {
        var n: Int
    }

    // @unchecked Sendable: the fixture adds only endpoint wrappers, set up in init and never reassigned.
    final class Api: Domain, @unchecked Sendable {
        @Get("/events", timeout: 30) var events: () async throws -> ServerSentEvents<Tick>
        @Get("/ping", timeout: 10) var ping: () async throws -> Tick
    }

    @Test(
        "ten event streams held open on one host leave an eleventh, ordinary call there free to succeed", arguments: TransportKind.allCases)
    func tenStreamsAndACall(kind: TransportKind) async throws {
        try await withServer(
            kind,
            respond: { request in
                request.encodedPath == "/ping"
                    ? .json(#"{"n":11}"#)
                    : ScriptedResponse(
                        headers: [("Content-Type", "text/event-stream")],
                        behavior: .chunked(pieces: [Data("data: {\"n\":0}\n\n".utf8)], interval: 0, holdingOpen: true))
            }
        ) { transport, server in
            // Given: ten streams, each past its first event, held open by the server
            let api = Api(transport: transport)
            var streams: [ServerSentEvents<Tick>.AsyncIterator] = []
            for _ in 0..<10 {
                var iterator = try await api.events().makeAsyncIterator()
                _ = try await iterator.next()
                streams.append(iterator)
            }
            // Each stream is held open by the server, so each request reached it on a connection of its own.
            #expect(server.requests.filter { $0.encodedPath == "/events" }.count == 10)

            // When
            let answer = try await api.ping()

            // Then
            #expect(answer.n == 11)
            withExtendedLifetime(streams) {}
        }
    }
}
