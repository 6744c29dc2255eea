#if NIO && TransportConformance
    import Foundation
    import NIOConcurrencyHelpers
    import NIOCore
    import NIOPosix
    import RetroSwift
    import RetroSwiftTestServer
    import Testing

    @testable import RetroSwiftNIO

    /// ``NIOTransport/withCallsOnEventLoop(isolation:_:)``: calls made, and answered, on one event loop of the transport,
    /// with everything a call promises elsewhere.
    @Suite("End to end: NIOTransport's calls on its event loop", .timeLimit(.minutes(2)))
    struct NIOCallsOnEventLoopTests {
        typealias Api = NIOTransportTests.Api
        typealias ItemRequest = NIOTransportTests.ItemRequest

        struct Refused: Error, Equatable {}

        /// A transport on a group of its own with two event loops, so that a call on the wrong one would show.
        static func withTransport(
            _ respond: @escaping TestServer.Responder, _ body: (NIOTransport, Api, TestServer) async throws -> Void
        ) async throws {
            let group = MultiThreadedEventLoopGroup(numberOfThreads: 2)
            let transport = NIOTransport(NIOTransport.Configuration(eventLoopGroup: group))
            let server = try await TestServer.start(respond)
            do {
                try await body(transport, NIOTransportTests.api(transport, server), server)
            } catch {
                try await transport.shutdown()
                await server.stop()
                try await group.shutdownGracefully()
                throw error
            }
            try await transport.shutdown()
            await server.stop()
            try await group.shutdownGracefully()
        }

        static func item(_ request: RecordedRequest) -> ScriptedResponse {
            .json(#"{"id":"\#(request.pathSegments.last ?? "")"}"#)
        }

        @available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, visionOS 2.0, *)
        @Test("calls one after another run on one of the transport's event loops, over one connection made on it")
        func callsStayOnTheLoop() async throws {
            try await Self.withTransport(Self.item) { transport, api, server in
                // When
                let (items, loops) = try await transport.withCallsOnEventLoop {
                    var items: [String] = []
                    var loops: [ObjectIdentifier?] = []
                    for number in 0..<20 {
                        items.append(try await api.item(ItemRequest(id: "\(number)")).id)
                        loops.append(MultiThreadedEventLoopGroup.currentEventLoop.map { ObjectIdentifier($0) })
                    }
                    return (items, loops)
                }

                // Then: every call answered, in order; the task on one event loop throughout, the connection's
                #expect(items == (0..<20).map(String.init))
                #expect(loops.first! != nil && Set(loops).count == 1, "\(loops)")
                #expect(transport.openConnectionEventLoops.map { ObjectIdentifier($0) } == [loops.first!!])
                #expect(server.acceptedConnectionCount == 1)
            }
        }

        @available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, visionOS 2.0, *)
        @Test("an error thrown in the body comes back as thrown, and a call's own error as every transport throws it")
        func errorsAsThrown() async throws {
            try await Self.withTransport({ _ in ScriptedResponse(status: 500) }) { transport, api, _ in
                // When
                let own = await #expect(throws: Refused.self) {
                    try await transport.withCallsOnEventLoop { () async throws(Refused) -> Void in throw Refused() }
                }
                let call = await #expect(throws: HTTPError.self) {
                    try await transport.withCallsOnEventLoop { _ = try await api.item(ItemRequest(id: "1")) }
                }

                // Then
                #expect(own == Refused())
                #expect(call?.statusCode == 500)
            }
        }

        @available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, visionOS 2.0, *)
        @Test("calls of a task group inside the body all complete; a cancelled call inside ends at once with CancellationError")
        func groupAndCancellation() async throws {
            try await Self.withTransport({ request in
                request.pathSegments.last == "slow" ? ScriptedResponse(behavior: .delayed(30)) : Self.item(request)
            }) { transport, api, server in
                // When: ten calls side by side, then one the caller stops waiting for
                let ids = try await transport.withCallsOnEventLoop {
                    try await withThrowingTaskGroup(of: String.self) { group in
                        for number in 0..<10 { group.addTask { try await api.item(ItemRequest(id: "\(number)")).id } }
                        return try await group.reduce(into: []) { $0.append($1) }
                    }
                }
                let slow = Task { try await transport.withCallsOnEventLoop { try await api.item(ItemRequest(id: "slow")) } }
                let asked = try await eventually { server.requests.contains { $0.pathSegments.last == "slow" } }
                slow.cancel()
                let result = await slow.result

                // Then: the server still holds its answer back (30 s, past the suite's limit): only the cancellation ended it
                #expect(Set(ids) == Set((0..<10).map(String.init)))
                #expect(asked)
                #expect(throws: CancellationError.self) { try result.get() }
            }
        }
    }
#endif
