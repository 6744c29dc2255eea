import Dispatch
import Foundation
import RetroSwift
import Testing

@testable import RetroSwiftURLSession

/// The pause of a streamed URLSession task (Apple platforms), run here with a simulated task: the delegate queue
/// pauses when the buffer is full and the reader's task resumes it, and the two race.
@Suite("Streaming: pausing a transport that cannot wait")
struct SuspensionGateTests {
    /// A task's suspend and resume calls, in order.
    final class Calls: Sendable {
        private let calls = Locked<[String]>([])
        var all: [String] { calls.current }
        func add(_ call: String) { calls.withLock { $0.append(call) } }
    }

    @Test("a resume asked for before the suspend cancels that suspend; a suspended task is not suspended again; a resume follows")
    func ordering() {
        // Given
        let calls = Calls()
        let gate = SuspensionGate(suspend: { calls.add("suspend") }, resume: { calls.add("resume") })

        // When: the reader catches up before the delegate queue gets to pause; then a pause that sticks, and data
        // queued before it arrives and pauses again; then the reader catches up
        gate.demand()
        gate.pause()
        gate.pause()
        gate.pause()
        gate.demand()

        // Then: one suspend, one resume
        #expect(calls.all == ["suspend", "resume"])
    }

    @Test("a writer that pauses whenever the buffer is full delivers every byte in order to a reader racing it")
    func pausingWriterNeverStalls() async throws {
        // Given: a 4 KiB buffer, 1 000 chunks of 1 000 bytes, offered from a thread as URLSession's delegate queue would
        let chunkCount = 1_000
        @Sendable func chunk(_ index: Int) -> Data { Data(repeating: UInt8(truncatingIfNeeded: index), count: 1_000) }
        let (stream, writer) = HTTPBodyStream.makeStream(bufferCapacity: 4_096)
        let suspended = Locked(false)
        let resumed = DispatchSemaphore(value: 0)
        let gate = SuspensionGate(suspend: { suspended.withLock { $0 = true } }, resume: { resumed.signal() })
        writer.onDemand { gate.demand() }

        // When
        Thread.detachNewThread {
            for index in 0..<chunkCount {
                guard !writer.offer(chunk(index)) else { continue }
                gate.pause()
                guard
                    suspended.withLock({ state in
                        defer { state = false }
                        return state
                    })
                else { continue }
                // A stalled pause (no resume ever) fails the stream rather than hang the test.
                if resumed.wait(timeout: .now() + 60) == .timedOut {
                    return writer.finish(throwing: URLError(.timedOut))
                }
            }
            writer.finish()
        }
        // Whole chunks are compared (the buffer hands them on as offered): a byte-by-byte loop is slow under the thread
        // sanitizer, and this loop rarely suspends, so it would hold a thread of the shared pool meanwhile.
        var received = 0
        var inOrder = true
        for try await piece in stream {
            if piece != chunk(received) { inOrder = false }
            received += 1
        }

        // Then
        #expect(received == chunkCount)
        #expect(inOrder)
    }
}
