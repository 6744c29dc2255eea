import Foundation
import RetroSwift
import RetroSwiftTestServer
import RetroSwiftURLSession

#if AsyncHTTPClient
    import AsyncHTTPClient
    import RetroSwiftAsyncHTTPClient
#endif
#if NIO
    import RetroSwiftNIO
#endif
#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Every transport the end-to-end suite runs against, so a difference in behaviour fails a test.
enum TransportKind: String, CaseIterable, CustomStringConvertible, Sendable {
    case urlSession
    #if AsyncHTTPClient
        case asyncHTTPClient
    #endif
    #if NIO
        case nio
    #endif

    var description: String { rawValue }

    /// The same transport as the test server's target names it, for its table of known limitations.
    var shipped: ShippedTransport {
        switch self {
        case .urlSession: .urlSession
        #if AsyncHTTPClient
            case .asyncHTTPClient: .asyncHTTPClient
        #endif
        #if NIO
            case .nio: .nio
        #endif
        }
    }

    /// Whether a `401` with `WWW-Authenticate: Basic` arrives without its body: swift-corelibs-foundation raises the
    /// challenge before reading the body, and URLSessionTransport ends the task there instead of waiting forever.
    var dropsBasicChallengeBodies: Bool {
        #if canImport(FoundationNetworking)
            return self == .urlSession
        #else
            return false
        #endif
    }

    /// Whether repeated response fields other than `Set-Cookie` arrive joined with `, ` (URLSession joins them before
    /// RetroSwift sees them, on every platform).
    var joinsRepeatedFields: Bool {
        self == .urlSession
    }

    /// A fresh transport writing its files to `temporaryDirectory`; URLSession ones get their own session so
    /// connection pools do not leak between tests.
    func make(temporaryDirectory: URL = FileManager.default.temporaryDirectory) -> any HttpTransport {
        switch self {
        case .urlSession:
            return URLSessionTransport(configuration: .ephemeral, temporaryDirectory: temporaryDirectory)
        #if AsyncHTTPClient
            case .asyncHTTPClient:
                // Cannot throw: both clients are made with redirects disallowed.
                return try! AsyncHTTPClientTransport(
                    client: Self.client, streamingClient: Self.streamingClient, temporaryDirectory: temporaryDirectory)
        #endif
        #if NIO
            case .nio:
                return NIOTransport(temporaryDirectory: temporaryDirectory)
        #endif
        }
    }

    #if AsyncHTTPClient
        /// The client an app would own, for the whole test process: configured as async-http-client's documentation
        /// asks of a client given to RetroSwift (redirects returned, not followed), and failing at once on a connection
        /// that cannot be made, as URLSession does, so the suite's refused connections end without retries.
        static let client = makeClient(connectionsPerHost: nil)
        /// Streams' own client: an open stream holds its connection, and ten of them must leave ordinary calls room.
        static let streamingClient = makeClient(connectionsPerHost: 64)

        private static func makeClient(connectionsPerHost: Int?) -> HTTPClient {
            var configuration = HTTPClient.Configuration.singletonConfiguration
            configuration.redirectConfiguration = .disallow
            configuration.connectionPool.retryConnectionEstablishment = false
            // The domain's timeouts and ResponseLimits decide, not the client's own (90 s, 25-fold) lower ones.
            configuration.timeout.read = nil
            configuration.decompression = .enabled(limit: .ratio(1_000))
            if let connectionsPerHost { configuration.connectionPool.concurrentHTTP1ConnectionsPerHostSoftLimit = connectionsPerHost }
            return HTTPClient(eventLoopGroup: HTTPClient.defaultEventLoopGroup, configuration: configuration)
        }
    #endif
}
