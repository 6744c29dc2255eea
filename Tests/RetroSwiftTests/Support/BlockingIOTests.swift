import Dispatch
import Foundation
import RetroSwiftTestServer
import RetroSwiftTesting
import Testing

@testable import RetroSwift

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

@Suite("Blocking file reads stay off the cooperative pool")
struct BlockingIOTests {
    private struct UploadRequest {
        @FormFileList var files: [URL] = []
    }

    // @unchecked Sendable: the fixture adds only endpoint wrappers, set up in init and never reassigned.
    private final class Api: Domain, @unchecked Sendable {
        @Post("/upload") var upload: (UploadRequest) async throws -> Empty
    }

    @Test("uploads whose file parts block the disk leave the pool to other work", .timeLimit(.minutes(2)))
    func multipartReadsOffThePool() async throws {
        // Given: more uploads than the cooperative pool has threads, each with a file part that is a FIFO nobody writes
        // to yet, so that opening and reading it blocks. A watchdog on a Dispatch thread feeds the FIFOs after 45 s (long
        // enough for a loaded sanitized run to start every upload; 10 s was not under 5 builds at once): reads that held
        // the pool's threads would otherwise stall this test, and every other, for good.
        let count = ProcessInfo.processInfo.activeProcessorCount + 2
        let fifos = (0..<count).map { _ in FileManager.default.temporaryDirectory.appendingPathComponent("retroswift-fifo-\(UUID())") }
        for fifo in fifos { #expect(mkfifo(fifo.path, 0o600) == 0) }
        defer { for fifo in fifos { try? FileManager.default.removeItem(at: fifo) } }
        let fed = Protected(false)
        let feed: @Sendable () -> Void = {
            let first = fed.mutate { wasFed in
                defer { wasFed = true }
                return !wasFed
            }
            guard first else { return }
            for fifo in fifos {
                let handle = FileHandle(forWritingAtPath: fifo.path)
                handle?.write(Data("part".utf8))
                try? handle?.close()
            }
        }
        DispatchQueue.global().asyncAfter(deadline: .now() + 45, execute: feed)
        let bodies = Protected<[Data]>([])
        let transport = RecordingTransport { request in
            let body = try await request.body?.data() ?? Data()
            bodies.mutate { $0.append(body) }
            return HttpOperationResult(statusCode: 204)
        }
        let api = Api(transport: transport)
        api.multipartBoundary = { "B" }
        let uploads = fifos.map { fifo in Task { try await api.upload(UploadRequest(files: [fifo])) } }

        // When: every upload is reading its file, and other work then needs a thread of the pool
        let reading = try await eventually(within: .seconds(40)) { transport.requests.count == count }
        let otherWork = await Task.detached { (1...1_000).reduce(0, +) }.value
        let otherWorkRanFirst = !fed.value

        // Then: the other work ran while the reads still blocked; fed, every upload sends its part
        feed()
        for upload in uploads { _ = try await upload.value }
        #expect(reading)
        #expect(otherWork == 500_500)
        #expect(otherWorkRanFirst, "the pool's threads were held by blocking reads until the watchdog fed the files")
        #expect(bodies.value.count == count)
        #expect(bodies.value.allSatisfy { String(decoding: $0, as: UTF8.self).contains("\r\n\r\npart\r\n") })
    }
}
