import Foundation
import RetroSwiftTestServer
import RetroSwiftTesting
import Testing

@testable import RetroSwift

/// The streamed body between a transport and its reader, and streamed responses through a domain with
/// `RecordingTransport`: bounded buffering, closing the connection when the reader goes, mocks and interceptors.
@Suite("Streaming: the body stream, mocks and interceptors")
struct StreamedResponseTests {
    struct Delta: Decodable, Equatable, Sendable {
        var text: String
    }

    struct Problem: Decodable, Equatable, Sendable {
        var message: String
    }

    // @unchecked Sendable: the fixture adds only endpoint wrappers, set up in init and never reassigned.
    final class ChatApi: Domain, @unchecked Sendable {
        @Post("/chat") var chat: () async throws -> ServerSentEvents<Delta>
        @Post("/chat") var chatWithHead: () async throws -> HTTPResponse<ServerSentEvents<Delta>>
        @Post("/chat") var chatOrProblem: () async throws -> Either<ServerSentEvents<Delta>, Problem>
    }

    /// Counts calls of a transport's cancel hook.
    final class Counter: Sendable {
        private let count = Protected(0)
        var value: Int { count.value }
        func increment() { count.mutate { $0 += 1 } }
    }

    /// Records what it has done, so a test can see a step was not reached.
    final class Steps: Sendable {
        private let steps = Protected<[String]>([])
        var all: [String] { steps.value }
        func record(_ step: String) { steps.mutate { $0.append(step) } }
    }

    @Test("a writer waits while the buffer is full and goes on once the reader takes a chunk")
    func backPressure() async throws {
        // Given: room for 15 bytes, so the second chunk of 10 fills the buffer
        let (stream, writer) = HTTPBodyStream.makeStream(bufferCapacity: 15)
        let steps = Steps()
        let producer = Task {
            try await writer.write(Data(repeating: 1, count: 10))
            steps.record("first written")
            try await writer.write(Data(repeating: 2, count: 10))
            steps.record("second written")
            writer.finish()
        }

        // When: the writer waits for room, nobody having read
        let waited = try await eventually { writer.buffer.hasWaitingWriter }
        #expect(waited)
        let beforeReading = steps.all
        var chunks: [Data] = []
        for try await chunk in stream { chunks.append(chunk) }
        try await producer.value

        // Then
        #expect(beforeReading == ["first written"])
        #expect(chunks == [Data(repeating: 1, count: 10), Data(repeating: 2, count: 10)])
        #expect(steps.all == ["first written", "second written"])
    }

    @Test("offer asks a callback-driven writer to pause when full, and onDemand resumes it once the reader catches up")
    func offerAndDemand() async throws {
        // Given
        let (stream, writer) = HTTPBodyStream.makeStream(bufferCapacity: 8)
        let resumed = Counter()
        writer.onDemand { resumed.increment() }

        // When
        let first = writer.offer(Data(repeating: 1, count: 4))
        let second = writer.offer(Data(repeating: 2, count: 4))
        writer.finish()
        var iterator = stream.makeAsyncIterator()
        let chunk = try await iterator.next()
        let resumedAfterOne = resumed.value
        let rest = try await iterator.next()
        let end = try await iterator.next()

        // Then
        #expect([first, second] == [true, false])
        #expect(chunk == Data(repeating: 1, count: 4))
        #expect(resumedAfterOne == 1)
        #expect(rest == Data(repeating: 2, count: 4))
        #expect(end == nil)
    }

    @Test("leaving the loop early, or dropping an unread stream, cancels the transport once; a finished one does not")
    func readerGoneCancelsOnce() async throws {
        // Given
        let cancelled = Counter()
        do {
            let (stream, writer) = HTTPBodyStream.makeStream(onCancel: { cancelled.increment() })
            writer.offer(Data("a".utf8))
            writer.offer(Data("b".utf8))

            // When
            for try await _ in stream { break }
        }
        do {
            let (_, writer) = HTTPBodyStream.makeStream(onCancel: { cancelled.increment() })
            writer.offer(Data("unread".utf8))
        }
        let afterEarlyExits = cancelled.value
        do {
            let (stream, writer) = HTTPBodyStream.makeStream(onCancel: { cancelled.increment() })
            writer.offer(Data("all".utf8))
            writer.finish()
            for try await _ in stream {}
        }

        // Then
        #expect(afterEarlyExits == 2)
        #expect(cancelled.value == 2)
    }

    @Test("a writer that cannot pause and overflows the limit fails the body after the chunks held, and is cancelled")
    func overflow() async throws {
        // Given: pause asked at 4 bytes, failure past 8
        let cancelled = Counter()
        let (stream, writer) = HTTPBodyStream.makeStream(bufferCapacity: 4, overflowLimit: 8, onCancel: { cancelled.increment() })

        // When
        let accepted = (1...4).map { writer.offer(Data(repeating: UInt8($0), count: 3)) }
        var chunks: [Data] = []
        let error = await #expect(throws: URLError.self) {
            for try await chunk in stream { chunks.append(chunk) }
        }

        // Then
        #expect(accepted == [true, false, false, false])
        #expect(chunks == (1...3).map { Data(repeating: UInt8($0), count: 3) })
        #expect(error?.code == .dataLengthExceedsMaximum)
        #expect(cancelled.value == 1)
    }

    @Test("leaving the loop closes the connection even while the sequence is still held, events or raw chunks")
    func loopLeftWhileSequenceHeld() async throws {
        // Given
        let cancelled = Counter()
        let (raw, rawWriter) = HTTPBodyStream.makeStream(onCancel: { cancelled.increment() })
        let (body, eventWriter) = HTTPBodyStream.makeStream(onCancel: { cancelled.increment() })
        let events = ServerSentEvents<Delta>(
            body: body,
            context: ResponseDecodingContext(
                decoder: JSONDecoder(), endpoint: EndpointIdentity(domain: "ChatApi", name: "chat", method: .post, template: "/chat")))
        rawWriter.offer(Data("a".utf8))
        rawWriter.offer(Data("b".utf8))
        eventWriter.offer(Data("data: {\"text\":\"1\"}\n\ndata: {\"text\":\"2\"}\n\n".utf8))

        // When
        for try await _ in raw { break }
        let afterRawLoop = cancelled.value
        for try await _ in events { break }
        let afterEventLoop = cancelled.value

        // Then: both sequences are still alive here
        withExtendedLifetime((raw, events)) {
            #expect(afterRawLoop == 1)
            #expect(afterEventLoop == 2)
        }
    }

    @Test("an iterator goes on reading after its sequence is dropped")
    func iteratorOutlivesSequence() async throws {
        // Given
        let cancelled = Counter()
        var iterator: HTTPBodyStream.Iterator
        let writer: HTTPBodyStream.Writer
        do {
            let made = HTTPBodyStream.makeStream(onCancel: { cancelled.increment() })
            iterator = made.stream.makeAsyncIterator()
            writer = made.writer
        }

        // When
        writer.offer(Data("a".utf8))
        writer.offer(Data("b".utf8))
        writer.finish()
        var chunks: [Data] = []
        while let chunk = try await iterator.next() { chunks.append(chunk) }

        // Then
        #expect(chunks == [Data("a".utf8), Data("b".utf8)])
        #expect(cancelled.value == 0)
    }

    @Test("a stream is read by one loop: a second one, in another task or after the first, is told so and leaves the first be")
    func secondReader() async throws {
        // Given: the first loop's iterator exists before the second loop starts
        let (stream, writer) = HTTPBodyStream.makeStream()
        let message = "RetroSwift: this streamed body is already being read, or was read; a stream is read once, by one loop"
        let iterator = stream.makeAsyncIterator()
        let first = Task {
            var iterator = iterator
            var chunks: [Data] = []
            while let chunk = try await iterator.next() { chunks.append(chunk) }
            return chunks
        }

        // When
        let second = await #expect(throws: RequestError.self) {
            for try await _ in stream {}
        }
        writer.offer(Data("a".utf8))
        writer.finish()

        // Then: the first loop got the whole body, and a loop after it is refused too
        #expect(second?.description == message)
        #expect(try await first.value == [Data("a".utf8)])
        let afterward = await #expect(throws: RequestError.self) {
            for try await _ in stream {}
        }
        #expect(afterward?.description == message)
    }

    @Test("copies of one iterator read from two tasks at once: the second to wait is told so, the first gets the chunk")
    func iteratorCopiesInTwoTasks() async throws {
        // Given: nothing written, so whichever task asks first waits and the other one is refused
        let (stream, writer) = HTTPBodyStream.makeStream()
        let iterator = stream.makeAsyncIterator()
        let results = Locked<[String]>([])
        let tasks = (0..<2).map { _ in
            Task {
                var copy = iterator
                do {
                    let chunk = try await copy.next()
                    results.withLock { $0.append(chunk.map { String(decoding: $0, as: UTF8.self) } ?? "end") }
                } catch {
                    results.withLock { $0.append("\(error)") }
                }
            }
        }

        // When: the refused one has answered, then a chunk comes
        while results.current.isEmpty { await Task.yield() }
        writer.offer(Data("a".utf8))
        for task in tasks { await task.value }

        // Then
        #expect(
            results.current == [
                "RetroSwift: this streamed body is already being read, or was read; a stream is read once, by one loop", "a",
            ])
    }

    @Test("an overflow limit below the buffer's capacity is still enforced")
    func overflowLimitBelowCapacity() async throws {
        // Given: the default capacity (a megabyte), failure past 1 000 bytes
        let cancelled = Counter()
        let (stream, writer) = HTTPBodyStream.makeStream(overflowLimit: 1_000, onCancel: { cancelled.increment() })

        // When
        let accepted = (1...3).map { writer.offer(Data(repeating: UInt8($0), count: 600)) }
        var received = 0
        let error = await #expect(throws: URLError.self) {
            for try await chunk in stream { received += chunk.count }
        }

        // Then
        #expect(accepted == [true, false, false])
        #expect(received == 1_200)
        #expect(error?.code == .dataLengthExceedsMaximum)
        #expect(cancelled.value == 1)
    }

    @Test("a failure arrives after the chunks written before it, once; then the stream ends")
    func failureAfterChunks() async throws {
        // Given
        let (stream, writer) = HTTPBodyStream.makeStream()
        writer.offer(Data("a".utf8))
        writer.finish(throwing: URLError(.networkConnectionLost))
        var iterator = stream.makeAsyncIterator()

        // When
        let first = try await iterator.next()
        let error = await #expect(throws: URLError.self) { _ = try await iterator.next() }
        let after = try await iterator.next()

        // Then
        #expect(first == Data("a".utf8))
        #expect(error?.code == .networkConnectionLost)
        #expect(after == nil)
    }

    @Test("RecordingTransport scripts a stream: events one by one with pauses, then a failure from the loop")
    func scriptedStream() async throws {
        // Given
        let transport = RecordingTransport { _ in
            .streamed(
                ["data: {\"text\":\"Hel\"}\n\n", "data: {\"text\":\"lo\"}\n\n"], interval: .milliseconds(20),
                headers: ["Content-Type": "text/event-stream"], failure: URLError(.networkConnectionLost))
        }
        let api = ChatApi(transport: transport)

        // When
        var received: [Delta] = []
        let error = await #expect(throws: TransportError.self) {
            for try await delta in try await api.chat() { received.append(delta) }
        }
        let withHead = try await api.chatWithHead()

        // Then
        #expect(received == [Delta(text: "Hel"), Delta(text: "lo")])
        #expect(error?.code == .networkConnectionLost)
        #expect(withHead.header("Content-Type") == "text/event-stream")
        #expect(transport.lastRequest?.responseDestination == .stream)
    }

    @Test("a non-2xx answer throws HTTPError before any event, or decodes as Either's error side")
    func errorStatus() async throws {
        // Given
        let transport = RecordingTransport { _ in .streamed([#"{"message":"#, #""slow down"}"#], status: 429) }
        let api = ChatApi(transport: transport)

        // When
        let error = await #expect(throws: HTTPError.self) { _ = try await api.chat() }
        let either = try await api.chatOrProblem()

        // Then
        #expect(error?.statusCode == 429)
        #expect(either.errorResponse == Problem(message: "slow down"))
    }

    @Test("interceptors see the head of a streamed response, and the body still streams to the caller")
    func interceptorsSeeTheHead() async throws {
        // Given
        struct HeadRecorder: Interceptor {
            let seen: Steps
            func intercept(_ request: HttpRequestParams, next: InterceptorNext) async throws -> HttpOperationResult {
                let result = try await next(request)
                let isStream = if case .stream = result.body { true } else { false }
                seen.record("\(result.statusCode) \(result.header("Content-Type") ?? "-") \(isStream)")
                return result
            }
        }
        let seen = Steps()
        let logged = Steps()
        let transport = RecordingTransport { _ in .streamed(["data: {\"text\":\"a\"}\n\n"], headers: ["Content-Type": "text/event-stream"])
        }
        let api = ChatApi(transport: transport)
        api.interceptors = [LoggingInterceptor { logged.record($0.summary) }, HeadRecorder(seen: seen)]

        // When
        var received: [Delta] = []
        for try await delta in try await api.chat() { received.append(delta) }

        // Then
        #expect(seen.all == ["200 text/event-stream true"])
        #expect(logged.all.count == 1)
        #expect(received == [Delta(text: "a")])
    }

    @Test("a mock returns events built from a body, as a test of a view model would")
    func mockedEndpoint() async throws {
        // Given
        let api = ChatApi(transport: RecordingTransport())
        api.chat = {
            ServerSentEvents(
                body: HTTPBodyStream(Data("data: {\"text\":\"mocked\"}\n\n".utf8)),
                context: ResponseDecodingContext(
                    decoder: JSONDecoder(), endpoint: EndpointIdentity(domain: "ChatApi", name: "chat", method: .post, template: "/chat")))
        }

        // When
        var received: [Delta] = []
        for try await delta in try await api.chat() { received.append(delta) }

        // Then
        #expect(received == [Delta(text: "mocked")])
    }
}
