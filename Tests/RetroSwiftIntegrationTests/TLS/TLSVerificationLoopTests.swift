#if NIO
    import NIOConcurrencyHelpers
    import NIOCore
    import NIOPosix
    import NIOSSL
    import Testing

    @testable import RetroSwiftNIO

    /// Where `NIOTransport` verifies a server's chain: on the connection's event loop, never on a thread of the global
    /// executor, which a busy process (a test run under the thread sanitizer, hundreds of tasks ready on two cores) kept
    /// from a handshake past its connect timeout, so that a refused certificate came back as a timeout.
    @Suite("NIOTransport: a chain is verified on its connection's event loop")
    struct TLSVerificationLoopTests {
        @Test("the verification runs on the promise's event loop and completes the promise with its verdict")
        func verificationRunsOnTheLoop() async throws {
            // Given
            let group = MultiThreadedEventLoopGroup(numberOfThreads: 2)
            let loop = group.next()
            let promise = loop.makePromise(of: NIOSSLVerificationResultWithMetadata.self)
            let ranOnLoop = NIOLockedValueBox<Bool?>(nil)

            // When
            TLSConnector.complete(promise) {
                ranOnLoop.withLockedValue { $0 = loop.inEventLoop }
                return .failed
            }
            let verdict = try await promise.futureResult.get()

            // Then
            #expect(ranOnLoop.withLockedValue { $0 } == true)
            guard case .failed = verdict else {
                Issue.record("expected the verification's own verdict, .failed, got \(verdict)")
                return
            }
            try await group.shutdownGracefully()
        }
    }
#endif
