import Foundation
import RetroSwift

/// A transport that records real exchanges to an HTTP Archive (HAR 1.2) file and replays them, so a test runs
/// offline against what a real server once answered.
///
/// ```swift
/// let transport = try ReplayTransport(
///     file: URL(fileURLWithPath: "Fixtures/schedules.har"), mode: .fromEnvironment, live: URLSessionTransport())
/// let api = SchedulesApi(transport: transport, baseURL: URL(string: "https://api.example.com")!)
/// _ = try await api.getSchedules(request)
/// try transport.save()  // writes what was recorded
/// ```
///
/// Or, with Swift Testing, let a trait make it and save it: `@Test(.replaying("Fixtures/schedules.har"))`, then
/// `try #require(ReplayTransport.current)` in the test (see ``ReplayTrait``).
///
/// - A call is answered by the first recorded exchange that matches it and has not answered yet, else by the last
///   one that matches (a repeated call); ``ReplayMatching`` says what must match.
/// - Credentials and cookies never reach the file: `Authorization`, `Proxy-Authorization`, `Cookie` and
///   `Set-Cookie` values are written as `<redacted>` (add names with `redactingHeaders:`), and query values
///   ``queryRedaction`` names are redacted in URLs; matching compares the redacted forms. Those values are also
///   replaced wherever a text response (fields or body) echoes them, as httpbin's echo endpoints do.
/// - Bodies are stored as text when they are UTF-8, else base64. A streamed body records the pieces it arrived in
///   and replays in the same pieces; a body that went to a file replays into a new temporary file.
/// - Record calls from a domain with a base URL of its own (`ApiDomain`'s `baseURL:`), or configure the live
///   transport itself: the live transport sends the call.
public final class ReplayTransport: HttpTransport, ServerTrustEnforcing {
    /// The recording's file.
    public let file: URL
    /// What the transport does with a call.
    public let mode: ReplayMode
    /// What must match for the recording to answer a call.
    public let matching: ReplayMatching
    /// Lowercased names of the header fields whose values are written as `<redacted>`.
    public let redactedHeaders: Set<String>
    /// The query parameters whose values are redacted in recorded URLs.
    public let queryRedaction: QueryRedaction

    /// The transport the test running under a ``ReplayTrait`` should use; `nil` outside one.
    @TaskLocal public static var current: ReplayTransport?

    private let live: (any HttpTransport)?
    private let now: @Sendable () -> Date
    private let state: Protected<State>

    private struct State {
        var entries: [HarArchive.Entry]
        var used: Set<Int> = []
        var changed = false
        /// The bodies of streamed responses being recorded, by entry, kept as bytes until the entries are read, with
        /// the secrets to scrub from them.
        var streamed: [Int: (body: Data, pieces: [Int], secrets: [String])] = [:]

        /// The entries with every streamed body read so far.
        var settled: [HarArchive.Entry] {
            var entries = entries
            for (index, stream) in streamed {
                entries[index].response.setBody(ReplayTransport.scrubbing(stream.secrets, from: stream.body), pieces: stream.pieces)
            }
            return entries
        }
    }

    /// The header fields redacted whatever the caller adds.
    public static let defaultRedactedHeaders: Set<String> = ["authorization", "proxy-authorization", "cookie", "set-cookie"]

    /// Opens the recording at `file` for `mode`.
    ///
    /// - Parameters:
    ///   - file: The HAR file; created by ``save()`` when recording.
    ///   - mode: What to do with calls; ``ReplayMode/fromEnvironment`` reads `RETROSWIFT_REPLAY`.
    ///   - live: The transport that sends calls when recording (needed by ``ReplayMode/record``, and by
    ///     ``ReplayMode/replay`` for calls the recording does not answer).
    ///   - matching: What must match for the recording to answer a call.
    ///   - redactingHeaders: More header fields to redact, besides ``defaultRedactedHeaders``.
    ///   - queryRedaction: The query parameters whose values are redacted in recorded URLs.
    ///   - now: The clock for the entries' start times.
    /// - Throws: ``ReplayError`` when the file cannot be read as HAR, when ``ReplayMode/replayStrict`` finds no file,
    ///   or when ``ReplayMode/record`` has no live transport.
    public init(
        file: URL, mode: ReplayMode, live: (any HttpTransport)? = nil, matching: ReplayMatching = ReplayMatching(),
        redactingHeaders: Set<String> = [], queryRedaction: QueryRedaction = QueryRedaction(),
        now: @escaping @Sendable () -> Date = { Date() }
    ) throws {
        self.file = file
        self.mode = mode
        self.live = live
        self.matching = matching
        redactedHeaders = Self.defaultRedactedHeaders.union(redactingHeaders.map { $0.lowercased() })
        self.queryRedaction = queryRedaction
        self.now = now
        if mode == .record, live == nil {
            throw ReplayError("ReplayTransport records through a live transport: pass one as live:")
        }
        var entries: [HarArchive.Entry] = []
        if mode != .record {
            if FileManager.default.fileExists(atPath: file.path) {
                do {
                    entries = try JSONDecoder().decode(HarArchive.self, from: Data(contentsOf: file)).log.entries
                } catch {
                    throw ReplayError("\(file.path) is not an HTTP Archive ReplayTransport can read: \(error)")
                }
            } else if mode == .replayStrict {
                throw ReplayError(
                    "there is no recording at \(file.path); make it by running the test with RETROSWIFT_REPLAY=record")
            }
        }
        state = Protected(State(entries: entries, changed: mode == .record))
    }

    /// The number of exchanges the recording holds now.
    public var entryCount: Int {
        state.value.entries.count
    }

    /// Writes the recording to ``file`` when it changed (always after ``ReplayMode/record``), creating its folder;
    /// exchanges are written in the order they completed, a streamed one with what its reader read.
    ///
    /// - Throws: The file system's error.
    public func save() throws {
        let (entries, changed) = state.mutate { state in
            defer { state.changed = false }
            return (state.settled, state.changed)
        }
        guard changed else { return }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
        try encoder.encode(HarArchive(log: HarArchive.Log(entries: entries))).write(to: file, options: .atomic)
    }

    /// What the live transport enforces, since calls may go through it; everything when none can (strict replay, or
    /// no live transport), as a recording makes no connection.
    public var serverTrustSupport: ServerTrustSupport {
        guard mode != .replayStrict, let live else { return [.certificateAuthorities, .publicKeyPins] }
        return (live as? any ServerTrustEnforcing)?.serverTrustSupport ?? []
    }

    /// Answers from the recording, or sends through the live transport and records, as ``mode`` says.
    ///
    /// - Parameter params: The request RetroSwift built.
    /// - Returns: The recorded response, or the live one.
    /// - Throws: ``ReplayError`` for a call the recording does not answer in ``ReplayMode/replayStrict`` (or without a
    ///   live transport); what the live transport throws.
    public func sendRequest(with params: HttpRequestParams) async throws -> HttpOperationResult {
        let request = await harRequest(params)
        if mode != .record, let entry = take(matching: request) { return try replayed(entry, for: params) }
        guard mode != .replayStrict, let live else { throw ReplayError(unmatched(request)) }
        return try await record(params, as: request, through: live)
    }

    // MARK: - Recording

    private func record(
        _ params: HttpRequestParams, as request: HarArchive.Request, through live: any HttpTransport
    ) async throws -> HttpOperationResult {
        let started = now()
        let clock = ContinuousClock.now
        var result = try await live.sendRequest(with: params)
        let elapsed = ContinuousClock.now - clock
        let milliseconds = Double(elapsed.components.seconds) * 1000 + Double(elapsed.components.attoseconds) / 1e15
        let secrets = secrets(of: params)
        var body = Data()
        var isFile = false
        var isStream = false
        switch result.body {
        case .bytes(let data): body = data
        case .file(let downloaded):
            body = (try? Data(contentsOf: downloaded)) ?? Data()
            isFile = true
        case .stream: isStream = true
        }
        let entry = HarArchive.Entry(
            startedDateTime: Self.timestamp(started), time: milliseconds, request: request,
            response: harResponse(
                result, body: Self.scrubbing(secrets, from: body), chunks: isStream ? [] : nil, isFile: isFile,
                secrets: secrets),
            timings: HarArchive.Timings(wait: milliseconds))
        let index = state.mutate { state in
            state.entries.append(entry)
            state.changed = true
            return state.entries.count - 1
        }
        if case .stream(let stream) = result.body {
            // The entry grows as the reader reads, so what was read is recorded however the reading ends.
            state.mutate { $0.streamed[index] = (Data(), [], secrets) }
            let tee = RecordedChunks(base: stream) { [state] chunk in
                state.mutate { state in
                    state.streamed[index]?.body.append(chunk)
                    state.streamed[index]?.pieces.append(chunk.count)
                    state.changed = true
                }
            }
            result.body = .stream(.reading(tee))
        }
        return result
    }

    /// A request body's bytes, for the recording and for matching.
    private static func bytes(of body: HTTPRequestBody) async throws -> Data {
        switch body {
        case .bytes(let data): return data
        case .file(let url): return try Data(contentsOf: url)
        case .stream(let stream):
            var data = Data()
            for try await chunk in stream { data.append(chunk) }
            return data
        }
    }

    private func harRequest(_ params: HttpRequestParams) async -> HarArchive.Request {
        let url = queryRedaction.redact(params.url.absoluteString)
        let headers = params.headerFields.map { HarArchive.Field(name: $0.name, value: redacted($0.name, $0.value)) }
        let query = URLComponents(string: url)?.queryItems?.map { HarArchive.Field(name: $0.name, value: $0.value ?? "") } ?? []
        var postData: HarArchive.PostData?
        var bodySize = 0
        if let body = params.body, let data = try? await Self.bytes(of: body) {
            let (text, encoding) = HarArchive.text(of: data)
            let contentType = params.headerFields.last { $0.name.lowercased() == "content-type" }?.value ?? "application/octet-stream"
            postData = HarArchive.PostData(mimeType: contentType, text: text, _encoding: encoding)
            bodySize = data.count
        }
        return HarArchive.Request(
            method: params.method.rawValue, url: url, headers: headers, queryString: query, postData: postData, bodySize: bodySize)
    }

    private func harResponse(
        _ result: HttpOperationResult, body: Data, chunks: [Int]?, isFile: Bool, secrets: [String]
    ) -> HarArchive.Response {
        let (text, encoding) = HarArchive.text(of: body)
        return HarArchive.Response(
            status: result.statusCode,
            headers: result.headers.map { field in
                // A body scrubbed of a secret is shorter than the server said; a decoded one is described by its encoding.
                if field.name.lowercased() == "content-length", result.header("Content-Encoding") == nil, chunks == nil {
                    return HarArchive.Field(name: field.name, value: String(body.count))
                }
                return HarArchive.Field(name: field.name, value: redacted(field.name, Self.scrubbing(secrets, from: field.value)))
            },
            content: HarArchive.Content(
                size: body.count, mimeType: result.header("Content-Type") ?? "", text: text, encoding: encoding),
            bodySize: body.count, _chunks: chunks, _file: isFile ? true : nil)
    }

    /// The values this request's redacted fields and query items carry, longest first: a server that echoes one
    /// (httpbin does) must not carry it into the file.
    private func secrets(of params: HttpRequestParams) -> [String] {
        let fields = params.headerFields.filter { redactedHeaders.contains($0.name.lowercased()) }.map(\.value)
        let items = URLComponents(url: params.url, resolvingAgainstBaseURL: false)?.queryItems ?? []
        let query = items.filter { queryRedaction.names.contains($0.name.lowercased()) }.compactMap(\.value)
        return Array(Set(fields + query)).filter { $0.count >= 4 }.sorted { $0.count > $1.count }
    }

    /// `text` with every secret replaced by `<redacted>`.
    static func scrubbing(_ secrets: [String], from text: String) -> String {
        secrets.reduce(text) { $0.replacingOccurrences(of: $1, with: "<redacted>") }
    }

    /// `body` with every secret replaced by `<redacted>` when it is text; binary bodies are kept as they are.
    static func scrubbing(_ secrets: [String], from body: Data) -> Data {
        guard !secrets.isEmpty, let text = String(data: body, encoding: .utf8) else { return body }
        let scrubbed = scrubbing(secrets, from: text)
        return scrubbed == text ? body : Data(scrubbed.utf8)
    }

    private func redacted(_ name: String, _ value: String) -> String {
        redactedHeaders.contains(name.lowercased()) ? "<redacted>" : value
    }

    private static func timestamp(_ date: Date) -> String {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        return formatter.string(from: date)
    }

    // MARK: - Replaying

    /// The first unused entry matching `request`, else the last one matching; marks it used.
    private func take(matching request: HarArchive.Request) -> HarArchive.Entry? {
        state.mutate { state in
            let matches = state.entries.indices.filter { differences(state.entries[$0].request, request).isEmpty }
            guard let index = matches.first(where: { !state.used.contains($0) }) ?? matches.last else { return nil }
            state.used.insert(index)
            return state.settled[index]
        }
    }

    private func replayed(_ entry: HarArchive.Entry, for params: HttpRequestParams) throws -> HttpOperationResult {
        let response = entry.response
        let headers = HTTPHeaderFields(response.headers.map { HTTPHeader(name: $0.name, value: $0.value) })
        let body = HarArchive.data(of: response.content.text, encoding: response.content.encoding)
        let isSuccess = (200..<300).contains(response.status)
        var result = HttpOperationResult(statusCode: response.status, headers: headers, url: params.url)
        switch params.responseDestination {
        case .stream where isSuccess:
            result.body = .stream(.reading(ReplayedChunks(pieces: Self.pieces(of: body, sizes: response._chunks))))
        case .file where isSuccess:
            let file = FileManager.default.temporaryDirectory.appendingPathComponent("retroswift-replay-\(UUID().uuidString)")
            try body.write(to: file)
            result.body = .file(file)
        default:
            result.body = .bytes(body)
        }
        return result
    }

    /// `body` cut where it arrived in pieces; one piece when the sizes are unknown or do not add up.
    private static func pieces(of body: Data, sizes: [Int]?) -> [Data] {
        guard let sizes, sizes.reduce(0, +) == body.count, sizes.allSatisfy({ $0 > 0 }) else { return body.isEmpty ? [] : [body] }
        var pieces: [Data] = []
        var start = body.startIndex
        for size in sizes {
            pieces.append(body[start..<start + size])
            start += size
        }
        return pieces
    }

    // MARK: - Matching

    /// How `recorded` differs from `sent` in what ``matching`` compares, one line per difference.
    private func differences(_ recorded: HarArchive.Request, _ sent: HarArchive.Request) -> [String] {
        var lines: [String] = []
        if recorded.method != sent.method { lines.append("method: recorded \(recorded.method), sent \(sent.method)") }
        guard let recordedURL = URLComponents(string: recorded.url), let sentURL = URLComponents(string: sent.url) else {
            // Not a URL Foundation parses: compared whole.
            if recorded.url != sent.url { lines.append("URL: recorded \(recorded.url), sent \(sent.url)") }
            return lines + headerAndBodyDifferences(recorded, sent)
        }
        if matching.origin, Self.origin(recordedURL) != Self.origin(sentURL) {
            lines.append("origin: recorded \(Self.origin(recordedURL)), sent \(Self.origin(sentURL))")
        }
        if recordedURL.percentEncodedPath != sentURL.percentEncodedPath {
            lines.append("path: recorded \(recordedURL.percentEncodedPath), sent \(sentURL.percentEncodedPath)")
        }
        if recordedURL.percentEncodedQuery != sentURL.percentEncodedQuery {
            lines.append("query: recorded \"\(recordedURL.percentEncodedQuery ?? "")\", sent \"\(sentURL.percentEncodedQuery ?? "")\"")
        }
        return lines + headerAndBodyDifferences(recorded, sent)
    }

    /// How the compared header fields and the body differ.
    private func headerAndBodyDifferences(_ recorded: HarArchive.Request, _ sent: HarArchive.Request) -> [String] {
        var lines: [String] = []
        for name in matching.headers.sorted() {
            let recordedValue = recorded.headers.last { $0.name.lowercased() == name }?.value
            let sentValue = sent.headers.last { $0.name.lowercased() == name }?.value
            if recordedValue != sentValue {
                lines.append("header \(name): recorded \(Self.quoted(recordedValue)), sent \(Self.quoted(sentValue))")
            }
        }
        if matching.body, recorded.postData?.text != sent.postData?.text {
            lines.append("body: recorded \(recorded.bodySize) bytes, sent \(sent.bodySize) bytes, not the same")
        }
        return lines
    }

    /// What a call the recording does not answer fails with: the closest recorded request and how it differs.
    private func unmatched(_ request: HarArchive.Request) -> String {
        let entries = state.value.entries
        let call = "\(request.method) \(request.url)"
        var message = "ReplayTransport (\(mode.rawValue)): \(file.lastPathComponent) holds no exchange for \(call)"
        let ranked = entries.enumerated().map { ($0.offset, differences($0.element.request, request)) }
        if let (index, lines) = ranked.min(by: { $0.1.count < $1.1.count }) {
            message += "; the closest, entry \(index + 1) (\(entries[index].request.method) \(entries[index].request.url)), differs in:"
            message += lines.map { "\n- " + $0 }.joined()
        } else {
            message += "; it holds no exchanges at all"
        }
        return message + "\nRecord it with RETROSWIFT_REPLAY=record (or replay, to add calls it lacks)."
    }

    private static func origin(_ components: URLComponents) -> String {
        "\(components.scheme ?? "")://\(components.host ?? "")\(components.port.map { ":\($0)" } ?? "")"
    }

    private static func quoted(_ value: String?) -> String {
        value.map { "\"\($0)\"" } ?? "nothing"
    }
}

extension HarArchive.Response {
    /// Sets the body of a streamed response and the pieces it arrived in.
    mutating func setBody(_ body: Data, pieces: [Int]) {
        (content.text, content.encoding) = HarArchive.text(of: body)
        content.size = body.count
        bodySize = body.count
        _chunks = pieces
    }
}

/// A live body stream, each piece handed to `record` as it passes.
private struct RecordedChunks: AsyncSequence, Sendable {
    typealias Element = Data

    let base: HTTPBodyStream
    let record: @Sendable (Data) -> Void

    func makeAsyncIterator() -> Iterator {
        Iterator(base: base.makeAsyncIterator(), record: record)
    }

    struct Iterator: AsyncIteratorProtocol {
        var base: HTTPBodyStream.Iterator
        let record: @Sendable (Data) -> Void

        mutating func next() async throws -> Data? {
            guard let chunk = try await base.next() else { return nil }
            record(chunk)
            return chunk
        }
    }
}

/// Recorded pieces, delivered one by one.
private struct ReplayedChunks: AsyncSequence, Sendable {
    typealias Element = Data

    let pieces: [Data]

    func makeAsyncIterator() -> Iterator {
        Iterator(pieces: pieces[...])
    }

    struct Iterator: AsyncIteratorProtocol {
        var pieces: ArraySlice<Data>

        mutating func next() async throws -> Data? {
            pieces.popFirst()
        }
    }
}
