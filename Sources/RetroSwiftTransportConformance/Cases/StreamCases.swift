#if TransportConformance
    import Foundation
    import RetroSwift

    extension TransportConformance {
        /// A stream whose connection fails keeps what arrived before it: after the head, two complete records come 50 ms
        /// apart (the first of them in two chunks), and 200 ms later the server cuts the connection inside a third
        /// chunk. Every kind of streamed response reads both records, then throws `URLError.networkConnectionLost` —
        /// whether the reader is there as they come, starts only after the cut, or starts after every thread of the
        /// cooperative pool was busy while they came (a transport that moves the body in a task of that pool must not
        /// lose what it had read by then).
        static let streamCases: [TransportConformanceCase] = StreamReading.allCases.flatMap { reading in
            StreamKind.allCases.map { cutStreamCase($0, reading) }
        }

        /// A kind of streamed response, with the records its server sends and what its reader makes of them.
        enum StreamKind: CaseIterable {
            case bytes, serverSentEvents, jsonLines, textLines

            var id: String {
                switch self {
                case .bytes: "bytes"
                case .serverSentEvents: "server-sent-events"
                case .jsonLines: "json-lines"
                case .textLines: "text-lines"
                }
            }

            /// The type the reader reads the body as.
            var type: String {
                switch self {
                case .bytes: "HTTPBodyStream"
                case .serverSentEvents: "ServerSentEvents"
                case .jsonLines: "JSONLines"
                case .textLines: "TextLines"
                }
            }

            /// The two complete records, then the start of a third.
            var wire: (records: [String], partial: String) {
                switch self {
                case .bytes: (["first chunk;", "second chunk;"], "third")
                case .serverSentEvents: (["data: one\n\n", "data: two\n\n"], "data: thr")
                case .jsonLines: (["{\"id\":1}\n", "{\"id\":2}\n"], "{\"id\":3")
                case .textLines: (["one\n", "two\n"], "thr")
                }
            }

            /// What the reader must have read before the error: the two records, and for raw bytes the start of the third.
            var expected: [String] {
                switch self {
                // Raw bytes keep even the part of the third chunk that came: they are what arrived.
                case .bytes: ["first chunk;second chunk;third"]
                case .serverSentEvents: ["one", "two"]
                case .jsonLines: ["1", "2"]
                case .textLines: ["one", "two"]
                }
            }

            /// Calls the endpoint, and returns a loop that reads what it returned: the elements as strings (the bytes
            /// as one), and the error that ended the loop.
            func open(_ api: ConformanceApi) async throws -> () async -> (elements: [String], error: (any Error)?) {
                switch self {
                case .bytes:
                    let stream = try await api.stream()
                    return {
                        var bytes = Data()
                        do {
                            for try await chunk in stream { bytes.append(chunk) }
                        } catch {
                            return ([String(decoding: bytes, as: UTF8.self)], error)
                        }
                        return ([String(decoding: bytes, as: UTF8.self)], nil)
                    }
                case .serverSentEvents:
                    let events = try await api.events()
                    return { await collect(events) { $0.data } }
                case .jsonLines:
                    let lines = try await api.jsonLines()
                    return { await collect(lines) { "\($0.id)" } }
                case .textLines:
                    let lines = try await api.textLines()
                    return { await collect(lines) { $0 } }
                }
            }
        }

        /// When the reader starts reading.
        enum StreamReading: CaseIterable {
            /// At once, as the records arrive.
            case whileArriving
            /// 600 ms after the call returned, once the connection is cut.
            case afterTheCut
            /// After every thread of the cooperative pool slept 400 ms while the records and the cut came.
            case afterBusyPool

            var id: String {
                switch self {
                case .whileArriving: "cut-keeps-records"
                case .afterTheCut: "cut-before-reading"
                case .afterBusyPool: "cut-while-pool-busy"
                }
            }

            var name: String {
                switch self {
                case .whileArriving: "read as they arrive"
                case .afterTheCut: "read only after the cut"
                case .afterBusyPool: "read after the cooperative pool was busy while they came"
                }
            }

            /// Waits as the mode says before the reader starts; `cue` lets the server send the records.
            func wait(giving cue: ResponseCue) async throws {
                switch self {
                case .whileArriving:
                    cue.give()
                case .afterTheCut:
                    cue.give()
                    try await Task.sleep(for: .milliseconds(600))
                case .afterBusyPool:
                    // One blocking task per thread of the pool; the last to start lets the server send the records, so
                    // they and the cut all come while no other task of the pool can run.
                    let width = ProcessInfo.processInfo.activeProcessorCount
                    let started = Counter()
                    await withTaskGroup(of: Void.self) { group in
                        for _ in 0..<width {
                            group.addTask {
                                if started.next() == width - 1 { cue.give() }
                                usleep(400_000)
                            }
                        }
                    }
                    // Given already, unless the pool has fewer threads than the processors.
                    cue.give()
                }
            }
        }

        private static func cutStreamCase(_ kind: StreamKind, _ reading: StreamReading) -> TransportConformanceCase {
            TransportConformanceCase(
                "streams/\(reading.id)-\(kind.id)",
                "\(kind.type): two records, then a connection cut mid-chunk; \(reading.name), both arrive, then "
                    + "URLError.networkConnectionLost"
            ) { context in
                let (records, partial) = kind.wire
                // The head at once. Once the reader's side gives the cue: the first record in two chunks, its first byte
                // at once and the rest 50 ms later, so that a reader's task the pool starves holds the first chunk while
                // the second waits unread; the second record 50 ms after; and 200 ms later a chunk announcing more bytes
                // than come before the connection closes.
                let cue = ResponseCue()
                var timed = RawResponse(
                    timed: [
                        (0, Data("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n".utf8)),
                        (0, chunk(String(records[0].prefix(1)))),
                        (0.05, chunk(String(records[0].dropFirst()))),
                        (0.05, chunk(records[1])),
                        (0.2, Data("\(String(partial.utf8.count + 20, radix: 16))\r\n\(partial)".utf8)),
                    ], ending: .close)
                timed.cue = (cue, 1)
                let response = timed
                // Given on every way out too: until then the server's connection waits on it, and it on the connection.
                defer { cue.give() }
                try await context.withRawServer({ _ in response }) { api, _ in
                    let read = try await kind.open(api)
                    try await reading.wait(giving: cue)
                    let (elements, error) = await read()
                    try context.expect(elements == kind.expected, "the reader got \(elements), not \(kind.expected)")
                    guard let error else { throw context.failure("the stream ended cleanly after \(elements)") }
                    try context.expectURLError(.networkConnectionLost, error)
                }
            }
        }

        /// `text` as one chunk of a chunked body.
        private static func chunk(_ text: String) -> Data {
            Data("\(String(text.utf8.count, radix: 16))\r\n\(text)\r\n".utf8)
        }
    }

    /// Reads `sequence` to its end or its error, each element as `describe` shows it.
    private func collect<S: AsyncSequence>(_ sequence: S, _ describe: (S.Element) -> String) async -> (
        elements: [String], error: (any Error)?
    ) {
        var elements: [String] = []
        do {
            for try await element in sequence { elements.append(describe(element)) }
        } catch {
            return (elements, error)
        }
        return (elements, nil)
    }
#endif
