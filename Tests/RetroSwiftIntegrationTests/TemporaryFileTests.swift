import Foundation
import RetroSwift
import RetroSwiftTestServer
import Testing

/// What the transports leave in their temporary directory: a returned `DownloadedFile` and nothing else, whether
/// the call finished, failed, timed out or was cancelled. Each test gets a directory of its own (the transports'
/// `temporaryDirectory`), so tests running in parallel cannot see each other's files. Nothing is left in
/// `NSTemporaryDirectory()` either, where swift-corelibs-foundation's download task writes first: each response body
/// starts with a marker of its own, so a file a call left there is found by its content.
@Suite("End to end: temporary files", .timeLimit(.minutes(4)))
struct TemporaryFileTests {
    private struct UploadRequest {
        @FormFile("file") var file = .empty
    }

    // @unchecked Sendable: the fixture adds only endpoint wrappers, set up in init and never reassigned.
    private final class Api: Domain, @unchecked Sendable {
        @Post("/upload") var upload: (UploadRequest) async throws -> Empty
        @Post("/upload") var uploadThenDownload: (UploadRequest) async throws -> DownloadedFile
        @Get("/download") var download: () async throws -> DownloadedFile
    }

    /// How the server answers, and what the call should end with.
    enum Outcome: String, CaseIterable, CustomStringConvertible, Sendable {
        case finished
        case errorStatus
        case cutMidBody
        case stalledPastTimeout
        case cancelledMidBody

        var description: String { rawValue }

        /// - Parameter marker: what the body starts with.
        func response(marker: String) -> ScriptedResponse {
            let body = Data(marker.utf8) + Data(repeating: 0x5A, count: 256 * 1024 - marker.utf8.count)
            return switch self {
            case .finished: ScriptedResponse(status: 200, headers: [("Content-Type", "application/octet-stream")], body: body)
            case .errorStatus: .text("\(marker): no such thing", status: 404)
            case .cutMidBody: ScriptedResponse(status: 200, body: body, behavior: .closeMidResponse)
            case .stalledPastTimeout, .cancelledMidBody:
                ScriptedResponse(status: 200, body: body, behavior: .stalled(afterBytes: 64 * 1024))
            }
        }
    }

    /// The call under test.
    enum Call: String, CaseIterable, CustomStringConvertible, Sendable {
        case upload
        case download
        case uploadThenDownload

        var description: String { rawValue }
    }

    private static func makeDirectory() throws -> URL {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("retroswift-tests-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: false)
        return directory
    }

    private static func contents(of directory: URL) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: directory.path).sorted()
    }

    /// Whether the call is a URLSession download on Linux whose transfer fails: swift-corelibs-foundation's download
    /// task then leaves its partial file in `NSTemporaryDirectory()` (documented in RetroSwiftURLSession's overview).
    private static func transferFailureLeavesFoundationFile(_ kind: TransportKind, _ call: Call, _ outcome: Outcome) -> Bool {
        #if canImport(FoundationNetworking)
            kind == .urlSession && call != .upload && [.cutMidBody, .stalledPastTimeout, .cancelledMidBody].contains(outcome)
        #else
            false
        #endif
    }

    /// The files directly in `NSTemporaryDirectory()` whose content starts with `marker`.
    private static func filesInSystemTemporaryDirectory(startingWith marker: String) throws -> [String] {
        let directory = URL(fileURLWithPath: NSTemporaryDirectory(), isDirectory: true)
        let prefix = Data(marker.utf8)
        return try FileManager.default.contentsOfDirectory(atPath: directory.path).filter { name in
            let url = directory.appendingPathComponent(name)
            guard (try? url.resourceValues(forKeys: [.isRegularFileKey]).isRegularFile) == true,
                let handle = try? FileHandle(forReadingFrom: url)
            else { return false }
            defer { try? handle.close() }
            return (try? handle.read(upToCount: prefix.count)) == prefix
        }
    }

    @Test(
        "a finished, failed, timed-out or cancelled call leaves only the DownloadedFile it returned",
        arguments: TransportKind.allCases, Call.allCases)
    func leavesOnlyReturnedFiles(kind: TransportKind, call: Call) async throws {
        for outcome in Outcome.allCases {
            try await check(kind, call, outcome)
        }
    }

    @Test(
        "a temporary directory that cannot be written makes a download or a multipart upload throw, never crash",
        arguments: TransportKind.allCases)
    func unwritableDirectory(kind: TransportKind) async throws {
        // Given: a directory that does not exist. (On Linux, URLSession's own download task writes to
        // NSTemporaryDirectory() first and crashes the process when it cannot; the transport then falls back to
        // writing straight into its directory. A test cannot provoke that without changing TMPDIR for every test in
        // the process.)
        let missing = FileManager.default.temporaryDirectory.appendingPathComponent("retroswift-missing-\(UUID().uuidString)")
        let upload = FileManager.default.temporaryDirectory.appendingPathComponent("retroswift-upload-\(UUID().uuidString)")
        try Data(repeating: 0x41, count: 64 * 1024).write(to: upload)
        defer { try? FileManager.default.removeItem(at: upload) }
        let respond: TestServer.Responder = { _ in Outcome.finished.response(marker: "unwritable") }
        try await withServer(kind, temporaryDirectory: missing, respond: respond) { transport, _ in
            let api = Api(transport: transport)

            // When
            let download = await Result { try await api.download() }
            let uploadThenDownload = await Result {
                try await api.uploadThenDownload(
                    UploadRequest(file: .init(fileName: "a.bin", mimeType: "application/octet-stream", fileURL: upload)))
            }

            // Then
            // The file system's error, wrapped with the call's endpoint and URL.
            for result in [download.map { _ in () }, uploadThenDownload.map { _ in () }] {
                let error = #expect(throws: TransportError.self) { try result.get() }
                #expect(error?.underlyingError is CocoaError)
            }
            #expect(!FileManager.default.fileExists(atPath: missing.path))
        }
    }

    private func check(_ kind: TransportKind, _ call: Call, _ outcome: Outcome) async throws {
        // Given
        let directory = try Self.makeDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let upload = FileManager.default.temporaryDirectory.appendingPathComponent("retroswift-upload-\(UUID().uuidString)")
        try Data(repeating: 0x41, count: 512 * 1024).write(to: upload)
        defer { try? FileManager.default.removeItem(at: upload) }
        let request = UploadRequest(file: .init(fileName: "a.bin", mimeType: "application/octet-stream", fileURL: upload))
        let marker = "retroswift-marker-\(UUID().uuidString)"

        try await withServer(kind, temporaryDirectory: directory, respond: { _ in outcome.response(marker: marker) }) { transport, server in
            let api = Api(transport: transport)
            api.timeout = outcome == .stalledPastTimeout ? 0.5 : 30
            let send: @Sendable () async throws -> DownloadedFile? = {
                switch call {
                case .upload:
                    _ = try await api.upload(request)
                    return nil
                case .download: return try await api.download()
                case .uploadThenDownload: return try await api.uploadThenDownload(request)
                }
            }

            // When
            let returned: Result<DownloadedFile?, any Error>
            if outcome == .cancelledMidBody {
                let task = Task { try await send() }
                // The server records a request once it has read all of it; the stalled body follows at once. A call
                // that ends first (it should not) is reported by the checks below.
                _ = try await eventually { !server.requests.isEmpty }
                // A delay under test, not a wait: the body's first bytes are on their way, and none of the three
                // transports says when it has written them to its file, so the cancellation comes a moment later.
                try await Task.sleep(for: .milliseconds(100))
                task.cancel()
                returned = await task.result
            } else {
                returned = await Result { try await send() }
            }

            // Then
            let leftInSystemDirectory = try Self.filesInSystemTemporaryDirectory(startingWith: marker)
            if Self.transferFailureLeavesFoundationFile(kind, call, outcome) {
                // Its completion handler gets no file URL then, so the transport cannot find the file to delete it.
                withKnownIssue("swift-corelibs-foundation keeps a failed download's partial file", isIntermittent: true) {
                    #expect(leftInSystemDirectory == [], "\(kind) \(call) \(outcome)")
                }
            } else {
                #expect(leftInSystemDirectory == [], "\(kind) \(call) \(outcome)")
            }
            let files = try Self.contents(of: directory)
            switch (outcome, returned) {
            case (.finished, .success(let file)):
                #expect(files == (file.map { [$0.url.lastPathComponent] } ?? []), "\(kind) \(call) \(outcome)")
            case (.finished, .failure(let error)):
                Issue.record("\(kind) \(call) \(outcome): failed with \(error)")
            case (_, .success):
                Issue.record("\(kind) \(call) \(outcome): succeeded")
            case (_, .failure):
                #expect(files == [], "\(kind) \(call) \(outcome)")
            }
        }
    }
}
