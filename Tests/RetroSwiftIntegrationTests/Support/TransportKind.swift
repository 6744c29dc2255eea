import Foundation
import RetroSwift
import RetroSwiftURLSession

#if AsyncHTTPClient
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
                return AsyncHTTPClientTransport(temporaryDirectory: temporaryDirectory)
        #endif
        #if NIO
            case .nio:
                return NIOTransport(temporaryDirectory: temporaryDirectory)
        #endif
        }
    }
}
