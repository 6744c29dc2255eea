import Foundation
import RetroSwift
import RetroSwiftTestServer
import RetroSwiftTesting
import RetroSwiftURLSession
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

// Five minutes: the large transfers here take tens of seconds under the thread sanitizer; the limit only
// catches a hang.
@Suite("End to end: URLSessionTransport configuration, logging, cancellation and downloads", .timeLimit(.minutes(5)))
struct URLSessionTransportTests {
    private struct Item: Codable, Equatable {
        var id: Int
    }

    private struct ItemRequest {
        @Path var id: Int = 0
        @Query("api_key") var apiKey: String? = nil
    }

    private struct UploadRequest {
        @FormFile("file") var file = .empty
    }

    // @unchecked Sendable: the fixtures add only endpoint wrappers, which are set up in init and never reassigned.
    private final class Api: Domain, @unchecked Sendable {
        @Get("/items/{id}") var item: (ItemRequest) async throws -> Item
        @Post("/upload") var upload: (UploadRequest) async throws -> Empty
        @Post("/convert") var convert: (UploadRequest) async throws -> DownloadedFile
        @Get("/download") var download: () async throws -> DownloadedFile
        @Get("/slow-download", timeout: 0.5) var slowDownload: () async throws -> DownloadedFile
    }

    // @unchecked Sendable: as `Api`.
    private final class OtherApi: Domain, @unchecked Sendable {
        @Get("/other/{id}") var item: (ItemRequest) async throws -> Item
    }

    /// README-style domains that configure their transport as they are made.
    private enum ApiDomainFixture {
        static func api(_ transport: any HttpTransport, baseURL: URL) -> Api {
            transport.setConfiguration(baseURL: baseURL, sharedHeaders: nil)
            return Api(transport: transport)
        }

        static func other(_ transport: any HttpTransport, baseURL: URL) -> OtherApi {
            transport.setConfiguration(baseURL: baseURL, sharedHeaders: nil)
            return OtherApi(transport: transport)
        }
    }

    private static func temporaryFile(_ content: Data) throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("retroswift-test-\(UUID().uuidString)")
        try content.write(to: url)
        return url
    }

    @Test("setConfiguration(scheme:host:) with host:port reaches the server", arguments: TransportKind.allCases)
    func schemeAndHostWithPort(kind: TransportKind) async throws {
        // Given
        let server = try await TestServer.start { request in .json(#"{"id":\#(request.pathSegments.last ?? "0")}"#) }
        let transport = kind.make()
        transport.setConfiguration(scheme: "http", host: "127.0.0.1:\(server.port)", sharedHeaders: ["X-Shared": "1"])

        // When
        let item = try await Api(transport: transport).item(ItemRequest(id: 42))
        await server.stop()

        // Then
        #expect(item == Item(id: 42))
        #expect(server.requests.map(\.target) == ["/items/42"])
        #expect(server.requests.first?.header("X-Shared") == "1")
    }

    @Test(
        "two domains configuring one transport differently make calls fail instead of reaching the wrong host",
        arguments: TransportKind.allCases)
    func conflictingConfigurations(kind: TransportKind) async throws {
        // Given
        let server = try await TestServer.start { _ in .json(#"{"id":1}"#) }
        let shared = kind.make()
        let api = ApiDomainFixture.api(shared, baseURL: server.baseURL)
        let other = ApiDomainFixture.other(shared, baseURL: URL(string: server.baseURL.absoluteString + "/v2")!)

        // When
        let error = await #expect(throws: RequestError.self) { _ = try await api.item(ItemRequest(id: 1)) }
        let otherError = await #expect(throws: RequestError.self) { _ = try await other.item(ItemRequest(id: 1)) }

        // Then: nothing reached the server, and the same configuration twice is fine
        #expect(error?.kind == .transportNotConfigured)
        #expect(otherError?.kind == .transportNotConfigured)
        #expect(error?.description.contains("configured twice") == true)
        #expect(server.requests.isEmpty)
        let fresh = kind.make()
        fresh.setConfiguration(baseURL: server.baseURL, sharedHeaders: nil)
        fresh.setConfiguration(baseURL: server.baseURL, sharedHeaders: nil)
        #expect(try await Api(transport: fresh).item(ItemRequest(id: 1)) == Item(id: 1))
        await server.stop()
    }

    @Test("cancelling a file upload throws CancellationError and leaves no temporary multipart file")
    func cancelledUpload() async throws {
        // Given: a file of a size no other test uses, so its multipart temporary file can be told apart
        let content = TestBytes.pattern(3_141_593)
        let source = try Self.temporaryFile(content)
        defer { try? FileManager.default.removeItem(at: source) }
        try await withServer(.urlSession, respond: { _ in ScriptedResponse(behavior: .silent) }) { transport, server in
            let api = Api(transport: transport)
            api.multipartBoundary = { "cancel-boundary" }
            let call = Task {
                try await api.upload(UploadRequest(file: .init(fileName: "a.bin", mimeType: "application/octet-stream", fileURL: source)))
            }
            let waited = try await eventually { !server.requests.isEmpty }
            #expect(waited)
            let multipartSize = try #require(server.requests.first?.bodyByteCount)
            #expect(multipartSize > content.count)
            #if canImport(FoundationNetworking)
                // On Linux the body is uploaded from memory (see UploadSource), so no file is written at all.
                #expect(try Self.multipartTemporaryFiles().first { Self.size(of: $0) == multipartSize } == nil)
            #else
                let temporary = try #require(Self.multipartTemporaryFiles().first { Self.size(of: $0) == multipartSize })
            #endif

            // When
            call.cancel()
            let result = await call.result

            // Then
            #expect(throws: CancellationError.self) { try result.get() }
            #if !canImport(FoundationNetworking)
                #expect(!FileManager.default.fileExists(atPath: temporary.path))
            #endif
        }
    }

    @Test("cancelling a download while it waits throws CancellationError", arguments: TransportKind.allCases)
    func cancelledDownload(kind: TransportKind) async throws {
        try await withServer(kind, respond: { _ in ScriptedResponse(behavior: .silent) }) { transport, server in
            // Given
            let api = Api(transport: transport)
            let call = Task { try await api.download() }
            let waited = try await eventually { !server.requests.isEmpty }
            #expect(waited)

            // When
            call.cancel()
            let result = await call.result

            // Then
            #expect(throws: CancellationError.self) { try result.get() }
        }
    }

    @Test("a download cut off mid-body and a download slower than its timeout end in URLErrors", arguments: TransportKind.allCases)
    func downloadFaults(kind: TransportKind) async throws {
        try await withServer(
            kind,
            respond: { request in
                request.target == "/download"
                    ? ScriptedResponse(status: 200, body: Data(repeating: 1, count: 1_000), behavior: .closeMidResponse)
                    : ScriptedResponse(behavior: .silent)
            }
        ) { transport, _ in
            // Given
            let api = Api(transport: transport)

            // When
            let cut = await #expect(throws: TransportError.self) { _ = try await api.download() }
            let slow = await #expect(throws: TransportError.self) { _ = try await api.slowDownload() }

            // Then
            #expect(cut?.code == .networkConnectionLost)
            #expect(slow?.code == .timedOut)
        }
    }

    @Test("a streamed 20 MB body lands on disk byte for byte", arguments: TransportKind.allCases)
    func streamedDownload(kind: TransportKind) async throws {
        let byteCount = 20 * 1_048_576 + 123
        try await withServer(
            kind,
            respond: { _ in
                ScriptedResponse(
                    status: 200, headers: [("Content-Type", "application/octet-stream")], behavior: .streamed(byteCount: byteCount))
            }
        ) { transport, _ in
            // When
            let file = try await Api(transport: transport).download()
            defer { try? FileManager.default.removeItem(at: file.url) }

            // Then: the server writes (i * 31) mod 256 in 64 KiB blocks
            let data = try Data(contentsOf: file.url)
            // (compared a block at a time: 20 MB byte by byte holds a pool thread for long under the thread sanitizer)
            let block = Data((0..<65_536).map { UInt8(truncatingIfNeeded: $0 &* 31) })
            #expect(data.count == byteCount)
            #expect(
                stride(from: 0, to: data.count, by: block.count).allSatisfy { offset in
                    let end = min(offset + block.count, data.count)
                    return data[data.startIndex + offset..<data.startIndex + end] == block.prefix(end - offset)
                })
        }
    }

    @Test("a multipart upload from a file whose answer is downloaded to a file", arguments: TransportKind.allCases)
    func uploadAndDownload(kind: TransportKind) async throws {
        // Given
        let content = TestBytes.pattern(5 * 1_048_576, seed: 7)
        let source = try Self.temporaryFile(content)
        defer { try? FileManager.default.removeItem(at: source) }
        try await withServer(
            kind,
            respond: { request in
                ScriptedResponse(status: 200, headers: [("Content-Type", "application/octet-stream")], body: request.body)
            }
        ) { transport, server in
            let api = Api(transport: transport)
            api.multipartBoundary = { "both-ways" }

            // When
            let file = try await api.convert(
                UploadRequest(file: .init(fileName: "in.bin", mimeType: "application/octet-stream", fileURL: source)))
            defer { try? FileManager.default.removeItem(at: file.url) }

            // Then
            let expected =
                Data(
                    "--both-ways\r\nContent-Disposition: form-data; name=\"file\"; filename=\"in.bin\"\r\nContent-Type: application/octet-stream\r\n\r\n"
                        .utf8)
                + content + Data("\r\n--both-ways--\r\n".utf8)
            #expect(server.requests.first?.body == expected)
            #expect(try Data(contentsOf: file.url) == expected)
        }
    }

    @Test("8 tasks cancelling every call they make, as its answer comes, neither crash nor leave a call unanswered")
    func cancellingEveryCall() async throws {
        // Given: a server answering at once, so cancellations land before, during and after each answer.
        // swift-corelibs-foundation's URLCache made URLSessionTask.cancel() trap under this load ("a task that in not
        // in the registry"); the transport's sessions keep no URLCache (RetroSwift has its own HTTP cache).
        let server = try await TestServer.start { _ in .json(#"{"id":1}"#) }
        let transport = URLSessionTransport(configuration: .default)
        let api = ApiDomainFixture.api(transport, baseURL: server.baseURL)
        let callsPerTask = 100

        // When: each task cancels its calls at varying points, from before the request is sent to after the answer
        let ended = await withTaskGroup(of: Int.self) { group in
            for worker in 0..<8 {
                group.addTask {
                    var ended = 0
                    for index in 0..<callsPerTask {
                        let call = Task { try await api.item(ItemRequest(id: index)) }
                        for _ in 0..<((worker + index) % 8) { await Task.yield() }
                        call.cancel()
                        switch await call.result {
                        case .success, .failure(is CancellationError): ended += 1
                        case .failure: break
                        }
                    }
                    return ended
                }
            }
            return await group.reduce(0, +)
        }
        await server.stop()

        // Then: every call answered or threw CancellationError, and the process is still here
        #expect(ended == 8 * callsPerTask)
    }

    private static func multipartTemporaryFiles() throws -> [URL] {
        let directory = FileManager.default.temporaryDirectory
        return try FileManager.default.contentsOfDirectory(atPath: directory.path)
            .filter { $0.hasPrefix("retroswift-multipart-") }
            .map { directory.appendingPathComponent($0) }
    }

    private static func size(of url: URL) -> Int? {
        (try? FileManager.default.attributesOfItem(atPath: url.path)[.size] as? NSNumber)?.intValue
    }
}
