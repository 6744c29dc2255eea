import Foundation
import RetroSwift
import RetroSwiftTestServer
import Testing

/// Every case of the transport conformance suite on every transport RetroSwift ships: the same call gives the same
/// answer through each, except where a transport's known limitation is listed, with its reason and the failure it
/// gives (``ShippedTransport/knownLimitations``, in the test server's target, which the mutant tests read too).
/// Serialized: the cases move megabytes, hold servers silent and time cancellations and timeouts, and hundreds of them
/// at once beside the rest of a sanitized run would starve the timing-sensitive ones of the two CI cores.
@Suite("Transport conformance", .timeLimit(.minutes(4)), .serialized)
struct TransportConformanceTests {
    @Test("a case of the suite", arguments: TransportKind.allCases, TransportConformance.cases)
    func conformance(kind: TransportKind, conformanceCase: TransportConformanceCase) async throws {
        // A debugging aid: RETROSWIFT_CONFORMANCE=framing/ runs only the cases whose id contains it.
        if let only = ProcessInfo.processInfo.environment["RETROSWIFT_CONFORMANCE"], !conformanceCase.id.contains(only) { return }
        try await conformanceCase.run({ kind.make() }, knownLimitation: kind.shipped.knownLimitations[conformanceCase.id])
    }
}
