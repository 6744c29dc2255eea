import Foundation
import RetroSwift
import RetroSwiftTestServer
import Testing

// Five minutes: the large transfers here take tens of seconds under the thread sanitizer; the limit only
// catches a hang.
@Suite("End to end: load and round trips", .timeLimit(.minutes(5)))
struct LoadAndRoundTripTests {
    private struct Echo: Codable, Equatable {
        var n: Int
        var path: String
    }

    private struct EchoRequest {
        @Path var n: Int = 0
        @Query("n") var query: Int = 0
    }

    private struct RoundTripRequest {
        @Path var segment: String = ""
        @Query var value: String = ""
        @Header("X-Value") var header: String = ""
        @FormParam var field: String = ""
    }

    // @unchecked Sendable: the fixture adds only endpoint wrappers, set up in init and never reassigned.
    private final class Api: Domain, @unchecked Sendable {
        @Get("/echo/{n}") var echo: (EchoRequest) async throws -> Echo
        @Post("/round/{segment}") var roundTrip: (RoundTripRequest) async throws -> Empty
    }

    @Test("500 calls from 50 concurrent tasks on one API instance, each answer matching its request", arguments: TransportKind.allCases)
    func load(kind: TransportKind) async throws {
        try await withServer(
            kind,
            respond: { request in
                let n = request.queryItems.first { $0.name == "n" }?.value ?? "-1"
                return .json(#"{"n":\#(n),"path":"\#(request.encodedPath)"}"#)
            }
        ) { transport, server in
            // Given
            let api = Api(transport: transport)

            // When
            let answers = try await withThrowingTaskGroup(of: [(Int, Echo)].self) { group in
                for worker in 0..<50 {
                    group.addTask {
                        var answers: [(Int, Echo)] = []
                        for call in 0..<10 {
                            let n = worker * 10 + call
                            answers.append((n, try await api.echo(EchoRequest(n: n, query: n))))
                        }
                        return answers
                    }
                }
                return try await group.reduce(into: []) { $0 += $1 }
            }

            // Then
            #expect(answers.count == 500)
            #expect(answers.allSatisfy { n, echo in echo.n == n && echo.path == "/echo/\(n)" })
            #expect(server.requests.count == 500)
        }
    }

    @Test("random Unicode strings arrive decoding to exactly the original", arguments: TransportKind.allCases)
    func roundTrip(kind: TransportKind) async throws {
        try await withServer(kind) { transport, server in
            // Given
            let api = Api(transport: transport)
            var generator = SeededGenerator(seed: 0x5EED_2026)
            let samples = (0..<300).map { _ in (RandomText.any(using: &generator), RandomText.headerSafe(using: &generator)) }

            // When
            for (text, headerText) in samples {
                _ = try await api.roundTrip(RoundTripRequest(segment: text, value: text, header: headerText, field: text))
            }

            // Then
            let received = server.requests
            #expect(received.count == samples.count)
            for ((text, headerText), request) in zip(samples, received) {
                #expect(request.pathSegments.last == text, "path of \(text.debugDescription)")
                #expect(request.queryItems.first?.value == text, "query of \(text.debugDescription)")
                #expect(request.header("X-Value") == headerText, "header of \(headerText.debugDescription)")
                #expect(request.formItems.first?.value == text, "form of \(text.debugDescription)")
            }
        }
    }
}

/// Deterministic random text, so a failure reproduces.
private enum RandomText {
    private static let pools: [[Unicode.Scalar]] = [
        Array("abcXYZ019-._~".unicodeScalars),
        Array(" /?#[]@!$&'()*+,;=%\"<>\\^`{|}".unicodeScalars),
        Array("éüßñçøåÆ".unicodeScalars),
        Array("日本語中文한국어".unicodeScalars),
        Array("😀🚀👍🏽🇺🇦".unicodeScalars),
        ["\u{0301}", "\u{200B}", "\u{00A0}", "\u{FEFF}"],
    ]

    /// 1 to 24 scalars from every pool, never `.` or `..` alone (rejected as path traversal).
    static func any(using generator: inout SeededGenerator) -> String {
        var text = ""
        repeat {
            text = String(
                String.UnicodeScalarView(
                    (0..<Int.random(in: 1...24, using: &generator)).map { _ in
                        let pool = pools[Int.random(in: 0..<pools.count, using: &generator)]
                        return pool[Int.random(in: 0..<pool.count, using: &generator)]
                    }))
        } while text == "." || text == ".."
        return text
    }

    /// Visible ASCII with inner spaces: what a header value can carry unchanged on every stack.
    static func headerSafe(using generator: inout SeededGenerator) -> String {
        let characters = (0..<Int.random(in: 1...40, using: &generator)).map { _ in
            Character(Unicode.Scalar(UInt8.random(in: 0x21...0x7E, using: &generator)))
        }
        var text = String(characters)
        if text.count > 2 { text.insert(" ", at: text.index(after: text.startIndex)) }
        return text
    }
}

/// SplitMix64: a tiny seeded generator for reproducible property tests.
struct SeededGenerator: RandomNumberGenerator {
    private var state: UInt64

    init(seed: UInt64) {
        state = seed
    }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
