import Foundation
import RetroSwift
import RetroSwiftTestServer
import Testing

/// Every case of the transport conformance suite on every transport RetroSwift ships: the same call gives the same
/// answer through each, except where a transport's known limitation is listed here, with its reason. Serialized: the
/// cases move megabytes and hold servers silent, and 112 of them at once beside the rest of a sanitized run would
/// starve the timing-sensitive tests of the two CI cores.
@Suite("Transport conformance", .timeLimit(.minutes(4)), .serialized)
struct TransportConformanceTests {
    /// What each transport is known not to do, by case: a case that differs must fail, so the list cannot go stale.
    static func knownLimitations(of kind: TransportKind) -> [String: TransportLimitation] {
        switch kind {
        case .urlSession:
            var limitations: [String: TransportLimitation] = [
                "response-fields/repeats-kept-apart": .differs(
                    "HTTPURLResponse joins repeated fields into one value before RetroSwift sees them"),
                "response-fields/wire-order": .differs("HTTPURLResponse keeps fields in a dictionary, so their order is lost"),
                "request/field-order": .differs("URLRequest keeps header fields in a dictionary, so their order is lost"),
            ]
            #if canImport(FoundationNetworking)
                limitations["response-fields/names-differing-in-case"] = .differs(
                    "swift-corelibs-foundation joins fields whose names differ in case in another order than they came")
                limitations["framing/trailers"] = .crashes(
                    "swift-corelibs-foundation traps (\"Transfer completed, but there's no response\") on trailer fields")
            #endif
            return limitations
        #if AsyncHTTPClient
            case .asyncHTTPClient:
                return [:]
        #endif
        #if NIO
            case .nio:
                return [:]
        #endif
        }
    }

    @Test("a case of the suite", arguments: TransportKind.allCases, TransportConformance.cases)
    func conformance(kind: TransportKind, conformanceCase: TransportConformanceCase) async throws {
        // A debugging aid: RETROSWIFT_CONFORMANCE=framing/ runs only the cases whose id contains it.
        if let only = ProcessInfo.processInfo.environment["RETROSWIFT_CONFORMANCE"], !conformanceCase.id.contains(only) { return }
        try await conformanceCase.run({ kind.make() }, knownLimitation: Self.knownLimitations(of: kind)[conformanceCase.id])
    }
}
