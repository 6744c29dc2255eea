import Foundation
import RetroSwift
import Testing

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

    @Test("observe hands its reporter to the calls inside it only, and returns what the operation returns")
    func scope() async throws {
        // Given
        let outside = TransferProgressReporter.current

        // When
        let (inside, value) = try await TransferProgress.observe({ _ in }) {
            (TransferProgressReporter.current, 42)
        }

        // Then
        #expect(outside == nil)
        #expect(inside != nil)
        #expect(value == 42)
        #expect(TransferProgressReporter.current == nil)
    }
}
