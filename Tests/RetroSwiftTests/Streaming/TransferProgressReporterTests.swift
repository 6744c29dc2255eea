import Foundation
import RetroSwiftTesting
import Testing

// The reporter's rules are checked on reporters made directly, as RetroSwift makes one per observed call.
@testable import RetroSwift

/// The promises of `TransferProgress`, kept by the reporter whatever a transport sends it.
@Suite("Progress: the reporter's rules")
struct TransferProgressReporterTests {
    final class Reports: Sendable {
        private let storage = Locked<[TransferProgress]>([])
        var all: [TransferProgress] { storage.current }
        func add(_ report: TransferProgress) { storage.withLock { $0.append(report) } }
    }

    @Test("reports never go back or repeat, are capped at the size, and finish once")
    func monotonicAndFinishedOnce() {
        // Given
        let reports = Reports()
        let reporter = TransferProgressReporter { reports.add($0) }

        // When: a retry starts the upload again, and a transport overshoots
        for completed: Int64 in [0, 40, 40, 30, 70, 0, 120, 100] { reporter.reportUpload(completed: completed, expected: 100) }
        reporter.reportDownload(completed: 5, expected: nil)
        reporter.finishDownload(total: 9)
        reporter.finishDownload(total: 9)
        reporter.reportDownload(completed: 12, expected: nil)

        // Then
        #expect(
            reports.all == [
                TransferProgress(direction: .upload, completedBytes: 0, expectedBytes: 100, isFinished: false),
                TransferProgress(direction: .upload, completedBytes: 40, expectedBytes: 100, isFinished: false),
                TransferProgress(direction: .upload, completedBytes: 70, expectedBytes: 100, isFinished: false),
                TransferProgress(direction: .upload, completedBytes: 100, expectedBytes: 100, isFinished: true),
                TransferProgress(direction: .download, completedBytes: 5, expectedBytes: nil, isFinished: false),
                TransferProgress(direction: .download, completedBytes: 9, expectedBytes: 9, isFinished: true),
            ])
        #expect(reports.all.map(\.fractionCompleted) == [0, 0.4, 0.7, 1, nil, 1])
    }

    @Test("a download that outgrows its Content-Length (a body the transport decompressed) finishes only at its end")
    func downloadOutgrowsContentLength() {
        // Given
        let reports = Reports()
        let reporter = TransferProgressReporter { reports.add($0) }

        let shortTotal = Reports()
        let shortReporter = TransferProgressReporter { shortTotal.add($0) }

        // When: Content-Length 10, while 25 bytes arrive; and a transport that ends with the compressed size
        for completed: Int64 in [0, 6, 10, 14, 20] { reporter.reportDownload(completed: completed, expected: 10) }
        reporter.finishDownload(total: 25)
        shortReporter.reportDownload(completed: 20, expected: 10)
        shortReporter.finishDownload(total: 10)

        // Then: reaching 10 does not finish it, and past it the size is unknown
        #expect(
            reports.all == [
                TransferProgress(direction: .download, completedBytes: 0, expectedBytes: 10, isFinished: false),
                TransferProgress(direction: .download, completedBytes: 6, expectedBytes: 10, isFinished: false),
                TransferProgress(direction: .download, completedBytes: 10, expectedBytes: 10, isFinished: false),
                TransferProgress(direction: .download, completedBytes: 14, expectedBytes: nil, isFinished: false),
                TransferProgress(direction: .download, completedBytes: 20, expectedBytes: nil, isFinished: false),
                TransferProgress(direction: .download, completedBytes: 25, expectedBytes: 25, isFinished: true),
            ])
        #expect(
            shortTotal.all == [
                TransferProgress(direction: .download, completedBytes: 20, expectedBytes: nil, isFinished: false),
                TransferProgress(direction: .download, completedBytes: 20, expectedBytes: 20, isFinished: true),
            ])
    }

    /// A transport that reports a 100-byte upload and, for a 2xx answer, a 50-byte download, answering with the
    /// statuses given in turn.
    private static func reportingTransport(statuses: [Int]) -> BareTransport {
        let statuses = Protected(statuses)
        return BareTransport { params in
            let status = statuses.mutate { $0.isEmpty ? 200 : $0.removeFirst() }
            let progress = params.progress
            for sent: Int64 in [0, 60, 100] { progress?.reportUpload(completed: sent, expected: 100) }
            guard (200..<300).contains(status) else { return HttpOperationResult(statusCode: status) }
            progress?.reportDownload(completed: 30, expected: 50)
            progress?.finishDownload(total: 50)
            return HttpOperationResult(statusCode: status, body: Data(repeating: 0x61, count: 50))
        }
    }

    // @unchecked Sendable: the fixture adds only endpoint wrappers, set up in init and never reassigned.
    private final class UploadApi: Domain, @unchecked Sendable {
        @Put("/blobs/1") var put: () async throws -> Data
    }

    @Test("each call of an observed operation is reported whole: calls in a row, at once, and with a retry")
    func perCall() async throws {
        // Given
        let inRow = Reports()
        let atOnce = Reports()
        let retried = Reports()
        let api = UploadApi(transport: Self.reportingTransport(statuses: []))
        let retrying = UploadApi(transport: Self.reportingTransport(statuses: [503]))
        retrying.interceptors = [RetryInterceptor(maxAttempts: 2, sleep: { _ in }, jitter: { _ in 0 })]

        // When
        try await TransferProgress.observe({ inRow.add($0) }) {
            _ = try await api.put()
            _ = try await api.put()
        }
        try await TransferProgress.observe({ atOnce.add($0) }) {
            async let first = api.put()
            async let second = api.put()
            _ = try await (first, second)
        }
        try await TransferProgress.observe({ retried.add($0) }) { _ = try await retrying.put() }

        // Then: two whole calls each time, and the retry's upload is not reported again
        let oneCall = [0, 60, 100, 30, 50] as [Int64]
        #expect(inRow.all.map(\.completedBytes) == oneCall + oneCall)
        #expect(inRow.all.filter(\.isFinished).count == 4)
        #expect(atOnce.all.filter(\.isFinished).count == 4)
        #expect(atOnce.all.filter { $0.direction == .upload }.map(\.completedBytes).sorted() == [0, 0, 60, 60, 100, 100])
        #expect(retried.all.map(\.completedBytes) == oneCall)
        #expect(retried.all.filter(\.isFinished).count == 2)
    }

    @Test("observe hands a reporter to the calls inside it only, and returns what the operation returns")
    func scope() async throws {
        // Given
        let transport = RecordingTransport()
        let api = UploadApi(transport: transport)

        // When
        _ = try await api.put()
        let value = try await TransferProgress.observe({ _ in }) {
            _ = try await api.put()
            return 42
        }
        _ = try await api.put()

        // Then
        #expect(transport.requests.map { $0.progress != nil } == [false, true, false])
        #expect(value == 42)
    }
}
