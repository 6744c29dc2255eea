import Foundation

/// The chunks of one streamed response body, between the transport that writes them and the caller that reads them.
///
/// It holds at most about `capacity` bytes: a writer that can wait (``HTTPBodyStream/Writer/write(_:)``) is suspended
/// until the reader catches up, and one that cannot (a URLSession delegate, ``HTTPBodyStream/Writer/offer(_:)``) is
/// told to pause and called back through `onDemand`. When the reader goes away (the sequence is dropped, the loop is
/// left early, or its task is cancelled) the buffer drops what it holds and calls `onCancel` once, so the transport
/// closes the connection.
final class StreamBuffer: Sendable {
    private enum Outcome {
        case open
        case finished
        case failed(any Error)
    }

    private struct State {
        var chunks: [Data] = []
        var head = 0
        var bufferedBytes = 0
        var outcome = Outcome.open
        var cancelled = false
        var reader: CheckedContinuation<Data?, any Error>?
        var writer: CheckedContinuation<Void, any Error>?
        var writerPaused = false
        var lastActivity = ContinuousClock.now

        var isWaitingForNetwork: Bool {
            writer == nil && !writerPaused
        }

        mutating func pop() -> Data? {
            guard head < chunks.count else { return nil }
            let chunk = chunks[head]
            chunks[head] = Data()
            head += 1
            if head == chunks.count {
                chunks.removeAll(keepingCapacity: true)
                head = 0
            }
            bufferedBytes -= chunk.count
            return chunk
        }
    }

    private let state = Locked(State())
    private let capacity: Int

    /// What a second reader of a body gets: a second iterator, or a copy of the iterator reading from another task
    /// while the first waits.
    static var alreadyRead: RequestError {
        RequestError(
            .undecodableResponse, endpoint: nil,
            reason: "this streamed body is already being read, or was read; a stream is read once, by one loop")
    }
    private let onCancel: @Sendable () -> Void
    private let onDemand = Locked<(@Sendable () -> Void)?>(nil)

    /// The most a writer that cannot pause may leave unread before the body fails, or `nil` for no limit.
    private let overflowLimit: Int?

    init(capacity: Int, overflowLimit: Int? = nil, onCancel: @escaping @Sendable () -> Void) {
        // A limit below the capacity must still be enforced: the overflow check runs once the buffer is full.
        self.capacity = max(min(capacity, overflowLimit ?? capacity), 1)
        self.overflowLimit = overflowLimit
        self.onCancel = onCancel
    }

    /// Whether a writer waits in ``write(_:)`` for the reader to make room: what a test of back pressure waits for,
    /// instead of waiting for a time.
    var hasWaitingWriter: Bool {
        state.withLock { $0.writer != nil }
    }

    // MARK: Reading

    /// The next chunk, `nil` at the end; the transport's error once, then `nil`.
    func next() async throws -> Data? {
        if Task.isCancelled {
            cancel()
            throw CancellationError()
        }
        if let ready = take(orWaitWith: nil) { return try ready.get() }
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Data?, any Error>) in
                if let ready = take(orWaitWith: continuation) { continuation.resume(with: ready) }
            }
        } onCancel: {
            cancel()
        }
    }

    /// A chunk or the end that is already there; `nil` when the reader must wait, after registering `continuation`
    /// (when given) to be resumed by the next chunk, the end or a cancellation.
    private func take(orWaitWith continuation: CheckedContinuation<Data?, any Error>?) -> Result<Data?, any Error>? {
        let (ready, wake) = state.withLock { state -> (Result<Data?, any Error>?, Wake) in
            if let chunk = state.pop() { return (.success(chunk), wakeWriter(&state)) }
            if state.cancelled { return (.failure(CancellationError()), .none) }
            switch state.outcome {
            case .finished: return (.success(nil), .none)
            case .failed(let error):
                state.outcome = .finished
                return (.failure(error), .none)
            case .open:
                guard let continuation else { return (nil, .none) }
                // Copies of one iterator reading from two tasks would each wait for the same chunks; the second is told.
                guard state.reader == nil else { return (.failure(Self.alreadyRead), .none) }
                state.reader = continuation
                return (nil, .none)
            }
        }
        wake.perform(onDemand: onDemand.current)
        return ready
    }

    private enum Wake {
        case none
        case writer(CheckedContinuation<Void, any Error>)
        case demand

        func perform(onDemand: (@Sendable () -> Void)?) {
            switch self {
            case .none: break
            case .writer(let continuation): continuation.resume()
            case .demand: onDemand?()
            }
        }
    }

    /// Lets a suspended or paused writer go on once the reader has made room (half the capacity for a paused one,
    /// so a URLSession task is not resumed and suspended for every chunk).
    private func wakeWriter(_ state: inout State) -> Wake {
        if let writer = state.writer, state.bufferedBytes < capacity {
            state.writer = nil
            state.lastActivity = .now
            return .writer(writer)
        }
        if state.writerPaused, state.bufferedBytes <= capacity / 2 {
            state.writerPaused = false
            state.lastActivity = .now
            return .demand
        }
        return .none
    }

    /// The reader is gone: drop the chunks, fail a waiting writer and tell the transport, once.
    func cancel() {
        let (reader, writer, wasOpen) = state.withLock { state in
            guard !state.cancelled else {
                return (nil, nil, false) as (CheckedContinuation<Data?, any Error>?, CheckedContinuation<Void, any Error>?, Bool)
            }
            state.cancelled = true
            state.chunks = []
            state.head = 0
            state.bufferedBytes = 0
            defer {
                state.reader = nil
                state.writer = nil
            }
            if case .open = state.outcome { return (state.reader, state.writer, true) }
            return (state.reader, state.writer, false)
        }
        reader?.resume(throwing: CancellationError())
        writer?.resume(throwing: CancellationError())
        if wasOpen { onCancel() }
    }

    // MARK: Writing

    /// Adds a chunk, suspending while the buffer is full.
    func write(_ chunk: Data) async throws {
        guard try append(chunk, pausing: false) else { return }
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                let resumeNow: Result<Void, any Error>? = state.withLock { state in
                    if state.cancelled { return .failure(CancellationError()) }
                    if state.bufferedBytes < capacity { return .success(()) }
                    state.writer = continuation
                    return nil
                }
                if let resumeNow { continuation.resume(with: resumeNow) }
            }
        } onCancel: {
            let writer = state.withLock { state in
                defer { state.writer = nil }
                return state.writer
            }
            writer?.resume(throwing: CancellationError())
        }
    }

    /// Adds a chunk without waiting; returns `false` when the writer should pause until `onDemand` is called.
    /// Past the overflow limit the body fails after the chunks already held, and the transport is told to stop.
    func offer(_ chunk: Data) -> Bool {
        let full = (try? append(chunk, pausing: true)) ?? false
        guard full else { return true }
        let overflowed = state.withLock { state in
            guard case .open = state.outcome, !state.cancelled, let overflowLimit else { return false }
            return state.bufferedBytes > overflowLimit
        }
        if overflowed {
            finish(throwing: URLError(.dataLengthExceedsMaximum))
            onCancel()
        }
        return false
    }

    func setOnDemand(_ callback: @escaping @Sendable () -> Void) {
        onDemand.withLock { $0 = callback }
    }

    /// Appends `chunk` or hands it to a waiting reader; returns whether the buffer is now full (or the body over). Throws
    /// `CancellationError` when the reader is gone.
    ///
    /// - Parameter pausing: Whether a full buffer pauses the writer until `onDemand`. It is marked paused under the same
    ///   lock that found it full: marked later, a reader that emptied the buffer in between would see no paused writer
    ///   to wake, and the paused transport would wait forever.
    private func append(_ chunk: Data, pausing: Bool) throws -> Bool {
        guard !chunk.isEmpty else { return false }
        let (reader, full) = try state.withLock { state -> (CheckedContinuation<Data?, any Error>?, Bool) in
            if state.cancelled { throw CancellationError() }
            // A body already ended (failed past the overflow limit) wants nothing more: the writer should stop.
            guard case .open = state.outcome else {
                if pausing { state.writerPaused = true }
                return (nil, true)
            }
            state.lastActivity = .now
            if let reader = state.reader {
                state.reader = nil
                return (reader, false)
            }
            state.chunks.append(chunk)
            state.bufferedBytes += chunk.count
            let full = state.bufferedBytes >= capacity
            if full && pausing { state.writerPaused = true }
            return (nil, full)
        }
        reader?.resume(returning: chunk)
        return full
    }

    /// Ends the body, cleanly or with `error`; later calls change nothing.
    func finish(throwing error: (any Error)? = nil) {
        let reader = state.withLock { state -> CheckedContinuation<Data?, any Error>? in
            guard case .open = state.outcome else { return nil }
            state.outcome = error.map { .failed($0) } ?? .finished
            guard let reader = state.reader else { return nil }
            state.reader = nil
            if error != nil { state.outcome = .finished }
            return reader
        }
        guard let reader else { return }
        if let error { reader.resume(throwing: error) } else { reader.resume(returning: nil) }
    }

    // MARK: Idle time

    /// When the body has been silent since, or `nil` when it is not waiting for the network (it ended, or the
    /// reader is behind).
    var silentSince: ContinuousClock.Instant? {
        state.withLock { state in
            guard case .open = state.outcome, !state.cancelled, state.isWaitingForNetwork, state.bufferedBytes < capacity else {
                return nil
            }
            return state.lastActivity
        }
    }

    var isOver: Bool {
        state.withLock { state in
            if state.cancelled { return true }
            if case .open = state.outcome { return false }
            return true
        }
    }
}
