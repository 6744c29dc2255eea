import Foundation
import RetroSwift
import Testing

/// The parsers' output must not depend on how the network cut the bytes: the same body split at every single
/// position, and at many random sets of positions, gives what it gives in one piece.
@Suite("Streaming: parsing does not depend on chunking (property test)")
struct StreamChunkingPropertyTests {
    typealias Parse = @Sendable (HTTPBodyStream) async throws -> [String]

    static let context = StreamParsingTests.context

    /// Every parser, reduced to strings that show all it produced; an error ends the list with its description.
    static let parsers: [(name: String, parse: Parse)] = [
        ("events", { body in try await outcome(ServerSentEvents<ServerSentEvent>(body: body, context: context)) { "\($0)" } }),
        ("lines", { body in try await outcome(TextLines(body: body, context: context)) { $0 } }),
        ("json lines", { body in try await outcome(JSONLines<JSONValue>(body: body, context: context)) { "\($0)" } }),
        ("json-seq", { body in try await outcome(JSONTextSequence<JSONValue>(body: body, context: context)) { "\($0)" } }),
    ]

    static func outcome<S: AsyncSequence>(_ sequence: S, _ show: (S.Element) -> String) async throws -> [String] {
        var shown: [String] = []
        do {
            for try await element in sequence { shown.append(show(element)) }
        } catch {
            shown.append("error: \(error)")
        }
        return shown
    }

    /// Any JSON value, so that every well-formed line decodes.
    enum JSONValue: Decodable, CustomStringConvertible {
        case value(String)

        init(from decoder: any Decoder) throws {
            let container = try decoder.singleValueContainer()
            if let number = try? container.decode(Double.self) {
                self = .value("\(number)")
            } else if let text = try? container.decode(String.self) {
                self = .value(text)
            } else if let list = try? container.decode([JSONValue].self) {
                self = .value("\(list)")
            } else if let object = try? container.decode([String: JSONValue].self) {
                self = .value("\(object.sorted { $0.key < $1.key })")
            } else if let flag = try? container.decode(Bool.self) {
                self = .value("\(flag)")
            } else {
                self = .value("null")
            }
        }

        var description: String {
            switch self {
            case .value(let text): text
            }
        }
    }

    /// Bodies chosen for their edges: CR LF split between chunks, a BOM, multi-byte characters, RS separators.
    static let corpus: [String] = [
        "\u{FEFF}data: a\r\n\r\ndata: b\rdata: c\r\r: note\nid: 4\nevent: x\ndata: {\"k\":[1,2]}\n\n",
        "{\"a\":\"é\"}\r\n{\"b\":2}\n\n[1,\"ü\"]\r\n\"tail\"",
        "\u{1E}{\"n\":1}\n\u{1E}\"two\"\n\u{1E}3\n\u{1E}[4]",
        "data: 日本語\r\n\r\nretry: 15\r\ndata: 🎉\r\n\r\ndata: unfinished",
        "line one\r\nline two\rline three\n\r\n",
    ]

    @Test("every single split point of the corpus gives the unsplit result, for every parser")
    func everySplitPoint() async throws {
        for (name, parse) in Self.parsers {
            for text in Self.corpus {
                // Given
                let bytes = Data(text.utf8)
                let whole = try await parse(Self.body([bytes]))

                for cut in 0...bytes.count {
                    // When
                    let split = try await parse(Self.body([bytes.prefix(cut), bytes.dropFirst(cut)]))

                    // Then
                    #expect(split == whole, "\(name), cut at \(cut) of \(text.debugDescription)")
                }
            }
        }
    }

    @Test("random bodies cut at random points parse the same as in one piece (fixed seed)")
    func randomBodiesRandomCuts() async throws {
        var random = SeededGenerator(state: 0x5EED_57E4)
        let atoms = [
            "data", "data:", "data: ", "id:", "id: 9", "event: e", "retry: 5", ":", " ", "\r", "\n", "\r\n", "\u{FEFF}",
            "x", "é", "🎉", "{\"a\":1}", "[1,2]", "\"s\"", "\u{1E}", "\u{0}", "12",
        ]
        for _ in 0..<300 {
            // Given
            let text = (0..<Int.random(in: 1...40, using: &random)).map { _ in atoms.randomElement(using: &random)! }.joined()
            let bytes = Data(text.utf8)
            let cuts = (0..<Int.random(in: 1...8, using: &random)).map { _ in Int.random(in: 0...bytes.count, using: &random) }
                .sorted()
            var pieces: [Data] = []
            var start = 0
            for cut in cuts + [bytes.count] {
                pieces.append(bytes.subdata(in: start..<cut))
                start = cut
            }

            for (name, parse) in Self.parsers {
                // When
                let whole = try await parse(Self.body([bytes]))
                let split = try await parse(Self.body(pieces))

                // Then
                #expect(split == whole, "\(name), cuts \(cuts) of \(text.debugDescription)")
            }
        }
    }

    @Test("an element at or just over the size limit gets one answer wherever the chunks are cut (found by fuzzing)")
    func limitIndependentOfChunking() async throws {
        // Given: a limit of 4 bytes, and the inputs of Fuzz/Corpus/frame-limits/regression-*: a JSON Lines line of
        // exactly the limit ended by CR LF (refused when a chunk ended between CR and LF), and a JSON text sequence
        // record over the limit inside one chunk (passed whole, refused when split)
        let context = ResponseDecodingContext(
            decoder: JSONDecoder(), endpoint: StreamParsingTests.endpoint, responseLimits: ResponseLimits(maxStreamElementBytes: 4))
        let cases: [(name: String, text: String, parse: Parse)] = [
            ("json lines", "1234\r\n5678\n", { try await Self.outcome(JSONLines<JSONValue>(body: $0, context: context)) { "\($0)" } }),
            ("lines", "abcd\r\nefgh", { try await Self.outcome(TextLines(body: $0, context: context)) { $0 } }),
            (
                "json-seq", "\u{1E}12345\n\u{1E}1\n",
                { try await Self.outcome(JSONTextSequence<JSONValue>(body: $0, context: context)) { "\($0)" } }
            ),
        ]
        for (name, text, parse) in cases {
            let bytes = Data(text.utf8)
            let whole = try await parse(Self.body([bytes]))
            for cut in 0...bytes.count {
                // When
                let split = try await parse(Self.body([bytes.prefix(cut), bytes.dropFirst(cut)]))

                // Then
                #expect(split == whole, "\(name), cut at \(cut): \(split) against \(whole)")
            }
            #expect(
                name == "json-seq" ? whole.last?.hasPrefix("error:") == true : !whole.contains { $0.hasPrefix("error:") },
                "\(name): \(whole)")
        }
    }

    static func body(_ chunks: [Data]) -> HTTPBodyStream {
        StreamParsingTests.body(chunks)
    }
}
