import Foundation
import RetroSwift
import Testing

/// The parsers of streamed bodies, fed through the public types exactly as a transport feeds them.
@Suite("Streaming: parsing Server-Sent Events, JSON Lines, JSON text sequences and lines")
struct StreamParsingTests {
    static let endpoint = EndpointIdentity(domain: "ChatApi", name: "chat", method: .post, template: "/chat")
    static let context = ResponseDecodingContext(decoder: JSONDecoder(), endpoint: endpoint)

    struct Delta: Decodable, Equatable {
        var text: String
    }

    /// A body written through a transport's writer in exactly these chunks.
    static func body(_ chunks: [Data]) -> HTTPBodyStream {
        let (stream, writer) = HTTPBodyStream.makeStream(bufferCapacity: Int.max)
        for chunk in chunks { writer.offer(chunk) }
        writer.finish()
        return stream
    }

    static func body(_ text: String) -> HTTPBodyStream {
        body([Data(text.utf8)])
    }

    static func events(_ text: String) async throws -> [ServerSentEvent] {
        try await collect(ServerSentEvents<ServerSentEvent>(body: body(text), context: context))
    }

    static func collect<S: AsyncSequence>(_ sequence: S) async throws -> [S.Element] {
        var elements: [S.Element] = []
        for try await element in sequence { elements.append(element) }
        return elements
    }

    // MARK: Server-Sent Events, by the WHATWG HTML standard

    @Test("data lines join with LF; comments are skipped; the standard's stock-ticker example gives one event")
    func multilineData() async throws {
        // Given
        let text =
            ": test stream\n\ndata: first event\nid: 1\n\ndata:second event\nid\n\ndata:  third event\n\ndata: YHOO\ndata: +2\ndata: 10\n\n"

        // When
        let events = try await Self.events(text)

        // Then
        #expect(
            events == [
                ServerSentEvent(data: "first event", id: "1"), ServerSentEvent(data: "second event"),
                ServerSentEvent(data: " third event"), ServerSentEvent(data: "YHOO\n+2\n10"),
            ])
    }

    @Test("an empty data field dispatches an empty event; two give one line feed; the last block without a blank line is dropped")
    func emptyDataAndUnterminatedEvent() async throws {
        // When
        let events = try await Self.events("data\n\ndata\ndata\n\ndata:")

        // Then
        #expect(events.map(\.data) == ["", "\n"])
    }

    @Test("LF, CR and CR LF all end lines, and a leading byte order mark is dropped")
    func lineEndingsAndBOM() async throws {
        // When
        let events = try await Self.events("\u{FEFF}event: a\rdata: 1\r\rdata: 2\r\n\r\nevent: c\ndata: 3\n\n")

        // Then
        #expect(events == [ServerSentEvent(event: "a", data: "1"), ServerSentEvent(data: "2"), ServerSentEvent(event: "c", data: "3")])
    }

    @Test("the last id persists, an empty id resets it, an id with NUL is ignored; retry takes only digits")
    func idAndRetry() async throws {
        // When
        let events = try await Self.events(
            "id: 7\nretry: 3000\ndata: a\n\ndata: b\n\nid: x\u{0}y\nretry: 1s\ndata: c\n\nid\ndata: d\n\nretry: 10\n\ndata: e\n\n")

        // Then
        #expect(
            events == [
                ServerSentEvent(data: "a", id: "7", retry: 3000), ServerSentEvent(data: "b", id: "7"),
                ServerSentEvent(data: "c", id: "7"), ServerSentEvent(data: "d"), ServerSentEvent(data: "e", retry: 10),
            ])
    }

    @Test("a field without a colon has an empty value, unknown fields are ignored, one space after the colon is dropped")
    func fieldForms() async throws {
        // When
        let events = try await Self.events("event\nfoo: bar\ndata:x\ndata:  y\n\n")

        // Then
        #expect(events == [ServerSentEvent(data: "x\n y")])
    }

    @Test("typed events decode their data as JSON; an undecodable one names the endpoint, the event and its line")
    func typedEvents() async throws {
        // Given
        let body = Self.body("data: {\"text\":\"Hel\"}\n\n: keep-alive\n\ndata: {\"text\":\"lo\"}\n\ndata: [DONE]\n\n")
        var iterator = ServerSentEvents<Delta>(body: body, context: Self.context).makeAsyncIterator()

        // When
        let first = try await iterator.next()
        let second = try await iterator.next()
        let error = await #expect(throws: RequestError.self) { _ = try await iterator.next() }

        // Then
        #expect([first, second] == [Delta(text: "Hel"), Delta(text: "lo")])
        #expect(
            error?.description
                == "ChatApi.chat (POST /chat): event 3 (ending on line 8) of the stream does not decode as Delta: "
                + "The given data was not valid JSON.")
        #expect(error?.kind == .undecodableResponse)
    }

    @Test("a raw event's data decodes on demand, so a closing [DONE] can end the loop")
    func decodeDataOnDemand() async throws {
        // Given
        let body = Self.body("data: {\"text\":\"a\"}\n\ndata: [DONE]\n\ndata: {\"text\":\"never\"}\n\n")

        // When
        var deltas: [Delta] = []
        for try await event in ServerSentEvents<ServerSentEvent>(body: body, context: Self.context) {
            if event.data == "[DONE]" { break }
            deltas.append(try event.decodeData(as: Delta.self))
        }

        // Then
        #expect(deltas == [Delta(text: "a")])
    }

    // MARK: JSON Lines, JSON text sequences, lines

    @Test("JSON Lines take LF or CR LF, skip blank lines and need no final line break")
    func jsonLines() async throws {
        // When
        let values = try await Self.collect(
            JSONLines<Delta>(body: Self.body("{\"text\":\"a\"}\r\n\n  \n{\"text\":\"b\"}\n{\"text\":\"c\"}"), context: Self.context))

        // Then
        #expect(values == [Delta(text: "a"), Delta(text: "b"), Delta(text: "c")])
    }

    @Test("a JSON line that does not decode throws naming the endpoint and the line number, after the lines before it")
    func jsonLinesError() async throws {
        // Given
        var iterator = JSONLines<Delta>(body: Self.body("{\"text\":\"a\"}\n\n{\"txt\":\"b\"}\n"), context: Self.context)
            .makeAsyncIterator()

        // When
        let first = try await iterator.next()
        let error = await #expect(throws: RequestError.self) { _ = try await iterator.next() }

        // Then
        #expect(first == Delta(text: "a"))
        #expect(
            error?.description
                == "ChatApi.chat (POST /chat): line 3 of the stream does not decode as Delta: No value associated with key "
                + "CodingKeys(stringValue: \"text\", intValue: nil) (\"text\").")
    }

    @Test("JSON text sequences split on RS; a record cut short throws instead of decoding a wrong value")
    func jsonTextSequence() async throws {
        // Given
        let body = Self.body("\u{1E}1\n\u{1E}{\"n\":2}\n\u{1E}\u{1E}[3]\n\u{1E}12")
        var iterator = JSONTextSequence<AnyDecodableNumberOrArray>(body: body, context: Self.context).makeAsyncIterator()

        // When
        var values: [AnyDecodableNumberOrArray] = []
        let error = await #expect(throws: RequestError.self) {
            while let value = try await iterator.next() { values.append(value) }
        }

        // Then
        #expect(values == [.number(1), .object(2), .array([3])])
        #expect(
            error?.description
                == "ChatApi.chat (POST /chat): record 4 of the stream is truncated: it does not start with RS (0x1E) and end with "
                + "LF (0x0A) before the next RS or the end")
    }

    enum AnyDecodableNumberOrArray: Decodable, Equatable {
        case number(Int)
        case object(Int)
        case array([Int])

        private struct Object: Decodable { var n: Int }

        init(from decoder: any Decoder) throws {
            let container = try decoder.singleValueContainer()
            if let number = try? container.decode(Int.self) {
                self = .number(number)
            } else if let array = try? container.decode([Int].self) {
                self = .array(array)
            } else {
                self = .object(try container.decode(Object.self).n)
            }
        }
    }

    @Test("text lines end with LF, CR or CR LF, keep an unterminated last line, and replace invalid UTF-8")
    func textLines() async throws {
        // When
        let lines = try await Self.collect(
            TextLines(body: Self.body([Data("a\r\nb\rc\n\nd\u{E9}".utf8), Data([0xFF, 0x0A, 0x65])]), context: Self.context))

        // Then
        #expect(lines == ["a", "b", "c", "", "d\u{E9}\u{FFFD}", "e"])
    }

    @Test("events completed before an overlong line in the same chunk arrive before its error, and the stream then ends")
    func eventsBeforeAnOverlongLine() async throws {
        // Given
        var text = Data("data: first\n\n".utf8)
        text.append(Data(repeating: UInt8(ascii: "x"), count: (16 << 20) + 1))
        var iterator = ServerSentEvents<ServerSentEvent>(body: Self.body([text]), context: Self.context).makeAsyncIterator()

        // When
        let first = try await iterator.next()
        let error = await #expect(throws: RequestError.self) { _ = try await iterator.next() }
        let after = try await iterator.next()

        // Then
        #expect(first?.data == "first")
        #expect(error?.description == "ChatApi.chat (POST /chat): line 3 of the stream is longer than 16777216 bytes")
        #expect(after == nil)
    }

    @Test("a line that never ends stops at 16 MiB with an error naming it, instead of growing without bound")
    func overlongLine() async throws {
        // Given
        let piece = Data(repeating: UInt8(ascii: "x"), count: 1 << 20)
        let body = Self.body(Array(repeating: piece, count: 17))

        // When
        let error = await #expect(throws: RequestError.self) { _ = try await Self.collect(TextLines(body: body, context: Self.context)) }

        // Then
        #expect(error?.description == "ChatApi.chat (POST /chat): line 1 of the stream is longer than 16777216 bytes")
    }
}
