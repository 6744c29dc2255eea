import Foundation
import RetroSwift
import RetroSwiftTestServer
import Testing

/// Upload and download progress on every transport: reports only go up, the finished one comes once with the whole
/// size, for memory, file and streamed bodies, multipart from disk, and redirects.
@Suite("End to end: transfer progress", .timeLimit(.minutes(5)))
struct TransferProgressEndToEndTests {
    struct UploadRequest {
        @FormParam var title: String = ""
        @FormFile("file") var file = .empty
    }

    struct Received: Decodable, Equatable, Sendable {
        var ok: Bool
    }

    // @unchecked Sendable: the fixture adds only endpoint wrappers, set up in init and never reassigned.
    final class Api: Domain, @unchecked Sendable {
        @Post("/upload") var upload: (UploadRequest) async throws -> Received
        @Get("/download") var download: () async throws -> DownloadedFile
        @Get("/download") var downloadToMemory: () async throws -> Data
        @Get("/events") var events: () async throws -> TextLines
        @Get("/moved") var moved: () async throws -> Data
    }

    /// Collects reports; the handler runs on transport threads.
    final class Reports: Sendable {
        private let storage = Locked<[TransferProgress]>([])
        var all: [TransferProgress] { storage.current }
        func add(_ report: TransferProgress) { storage.withLock { $0.append(report) } }
        func of(_ direction: TransferProgress.Direction) -> [TransferProgress] { all.filter { $0.direction == direction } }
    }

    /// The promises every direction's reports keep: going up, one finished report and it is the last.
    static func checkShape(_ reports: [TransferProgress], total: Int64, expected: Int64?, _ label: String) {
        let completed = reports.map(\.completedBytes)
        #expect(!reports.isEmpty, "\(label): no reports")
        #expect(zip(completed, completed.dropFirst()).allSatisfy { $0 < $1 || $0 == $1 }, "\(label): not monotonic \(completed)")
        #expect(reports.filter(\.isFinished).count == 1, "\(label): \(reports.filter(\.isFinished).count) finished reports")
        #expect(reports.last?.isFinished == true, "\(label): the finished report is not the last")
        #expect(reports.last?.completedBytes == total, "\(label): ends at \(completed.last ?? -1), not \(total)")
        #expect(reports.dropLast().allSatisfy { $0.expectedBytes == expected }, "\(label): expected size changed")
    }

    @Test("an 8 MB multipart upload from disk reports its progress to the whole body, once finished", arguments: TransportKind.allCases)
    func upload(kind: TransportKind) async throws {
        // Given
        let content = TestBytes.pattern(8 << 20)
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("retroswift-progress-\(UUID().uuidString)")
        try content.write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        let reports = Reports()

        try await withServer(kind, respond: { _ in .json(#"{"ok":true}"#) }) { transport, server in
            let api = Api(transport: transport)

            // When
            let received = try await TransferProgress.observe({ reports.add($0) }) {
                try await api.upload(
                    UploadRequest(title: "big", file: .init(fileName: "big.bin", mimeType: "application/octet-stream", fileURL: file)))
            }

            // Then
            let sent = Int64(try #require(server.requests.first).bodyByteCount)
            #expect(received == Received(ok: true))
            #expect(sent > 8 << 20)
            Self.checkShape(reports.of(.upload), total: sent, expected: sent, "upload")
            // Reports along the way: async-http-client counts each chunk it hands to the connection, so there are
            // always several. URLSession's `didSendBodyData` callbacks come through its delegate queue at its own
            // pace: once, in a CI run, the finished report was the only one that went up (the earlier callbacks
            // carried no new count), so only that one is certain there.
            #if AsyncHTTPClient
                if kind == .asyncHTTPClient { #expect(reports.of(.upload).count > 2) }
            #endif
            #if NIO
                // NIOTransport reports each chunk once the connection has taken it.
                if kind == .nio { #expect(reports.of(.upload).count > 2) }
            #endif
            Self.checkShape(reports.of(.download), total: 11, expected: 11, "download")
        }
    }

    @Test(
        "downloads report to the body's size, in memory and to a file, and only for the 2xx body after a redirect",
        arguments: TransportKind.allCases)
    func downloads(kind: TransportKind) async throws {
        // Given: 6 MB with Content-Length; /moved redirects to it with a body of its own
        let size = 6 << 20
        try await withServer(
            kind,
            respond: { request in
                if request.encodedPath == "/moved" {
                    return ScriptedResponse(status: 302, headers: [("Location", "/download")], body: Data("see /download".utf8))
                }
                return ScriptedResponse(behavior: .streamed(byteCount: size))
            }
        ) { transport, _ in
            let api = Api(transport: transport)
            let toFile = Reports()
            let toMemory = Reports()
            let redirected = Reports()

            // When
            let file = try await TransferProgress.observe({ toFile.add($0) }) { try await api.download() }
            defer { try? FileManager.default.removeItem(at: file.url) }
            let data = try await TransferProgress.observe({ toMemory.add($0) }) { try await api.downloadToMemory() }
            let afterRedirect = try await TransferProgress.observe({ redirected.add($0) }) { try await api.moved() }

            // Then
            #expect(data.count == size)
            #expect(afterRedirect.count == size)
            #expect(try FileManager.default.attributesOfItem(atPath: file.url.path)[.size] as? Int == size)
            Self.checkShape(toFile.of(.download), total: Int64(size), expected: Int64(size), "file")
            Self.checkShape(toMemory.of(.download), total: Int64(size), expected: Int64(size), "memory")
            Self.checkShape(redirected.of(.download), total: Int64(size), expected: Int64(size), "redirected")
            #expect(toFile.of(.upload).isEmpty)
        }
    }

    @Test("a streamed response of unknown size finishes its download report when the stream ends", arguments: TransportKind.allCases)
    func streamedDownload(kind: TransportKind) async throws {
        // Given: chunked, so no Content-Length
        let pieces = (1...5).map { Data("line \($0)\n".utf8) }
        try await withServer(kind, respond: { _ in ScriptedResponse(behavior: .chunked(pieces: pieces, interval: 0.02)) }) { transport, _ in
            let api = Api(transport: transport)
            let reports = Reports()

            // When
            let lines = try await TransferProgress.observe({ reports.add($0) }) {
                var lines: [String] = []
                for try await line in try await api.events() { lines.append(line) }
                return lines
            }

            // Then
            #expect(lines == (1...5).map { "line \($0)" })
            Self.checkShape(reports.of(.download), total: Int64(pieces.reduce(0) { $0 + $1.count }), expected: nil, "stream")
        }
    }

    @Test(
        "calls outside observe report nothing, an observer sees only its own calls, and each of them whole",
        arguments: TransportKind.allCases)
    func scope(kind: TransportKind) async throws {
        try await withServer(kind, respond: { _ in .json(#"{"ok":true}"#) }) { transport, _ in
            // Given
            let api = Api(transport: transport)
            let reports = Reports()

            // When
            _ = try await api.upload(UploadRequest(title: "before"))
            try await TransferProgress.observe({ reports.add($0) }) {
                _ = try await api.upload(UploadRequest(title: "observed"))
                _ = try await api.upload(UploadRequest(title: "observed again"))
            }
            _ = try await api.upload(UploadRequest(title: "after"))

            // Then: two calls, each reported to its end
            #expect(reports.of(.upload).filter(\.isFinished).count == 2)
            #expect(reports.of(.download).filter(\.isFinished).count == 2)
        }
    }
}
