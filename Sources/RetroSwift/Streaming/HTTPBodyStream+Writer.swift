import Foundation

extension HTTPBodyStream {
    /// The transport's end of an ``HTTPBodyStream``: it writes the chunks as they arrive and ends the body.
    ///
    /// Made by ``HTTPBodyStream/makeStream(bufferCapacity:overflowLimit:onCancel:)``. Transports that read at their own pace call
    /// ``write(_:)``, which waits while the reader is behind; transports whose bytes arrive in callbacks call
    /// ``offer(_:)`` and pause when it returns `false`, until ``onDemand(_:)``'s callback runs.
    public struct Writer: Sendable {
        let buffer: StreamBuffer

        /// Adds a chunk, waiting while the buffer is full.
        ///
        /// - Parameter chunk: The bytes that arrived.
        /// - Throws: `CancellationError` when the reader is gone (stop reading and close the connection).
        public func write(_ chunk: Data) async throws {
            try await buffer.write(chunk)
        }

        /// Adds a chunk without waiting.
        ///
        /// - Parameter chunk: The bytes that arrived.
        /// - Returns: `false` when the buffer is full: pause until the ``onDemand(_:)`` callback runs.
        @discardableResult
        public func offer(_ chunk: Data) -> Bool {
            buffer.offer(chunk)
        }

        /// Sets what to call when the reader has caught up after ``offer(_:)`` returned `false`.
        ///
        /// - Parameter callback: Resumes reading; called from the reader's task.
        public func onDemand(_ callback: @escaping @Sendable () -> Void) {
            buffer.setOnDemand(callback)
        }

        /// Ends the body: cleanly, or with the error the reader's loop throws after the chunks already written.
        ///
        /// - Parameter error: Why the body ended early, or `nil` when it is complete.
        public func finish(throwing error: (any Error)? = nil) {
            buffer.finish(throwing: error)
        }
    }

    /// Makes a stream and the writer a transport fills it through.
    ///
    /// - Parameters:
    ///   - bufferCapacity: About how many bytes to hold for a reader that is behind before ``Writer/write(_:)``
    ///     waits and ``Writer/offer(_:)`` asks to pause; one megabyte by default.
    ///   - overflowLimit: For a writer that cannot pause: how many unread bytes to hold before the body fails with
    ///     `URLError(.dataLengthExceedsMaximum)` (after the chunks held) and `onCancel` runs; `nil` for no limit.
    ///   - onCancel: Called once when the reader goes away before the body ended, or the body overflowed: close the
    ///     connection.
    /// - Returns: The stream to return in ``HttpOperationResult/Body/stream(_:)``, and its writer.
    public static func makeStream(
        bufferCapacity: Int = 1 << 20, overflowLimit: Int? = nil, onCancel: @escaping @Sendable () -> Void = {}
    ) -> (stream: HTTPBodyStream, writer: Writer) {
        let buffer = StreamBuffer(capacity: bufferCapacity, overflowLimit: overflowLimit, onCancel: onCancel)
        return (HTTPBodyStream(buffer: buffer), Writer(buffer: buffer))
    }

    /// A stream that reads `chunks` in a task of its own, for transports whose bodies are `AsyncSequence`s.
    ///
    /// The task stops, and `chunks` is dropped, when the reader goes away; when `idleTimeout` passes without a byte
    /// while the reader waits, the reader's loop throws `URLError(.timedOut)`.
    ///
    /// - Parameters:
    ///   - chunks: The body's bytes.
    ///   - idleTimeout: How long the body may be silent; `nil` for no limit.
    ///   - translatingErrors: Maps the errors of `chunks` onto the ones callers should see.
    ///   - onEnd: Called when `chunks` has ended cleanly, before the reader sees the end.
    /// - Returns: The stream.
    public static func reading<Chunks: AsyncSequence & Sendable>(
        _ chunks: Chunks, idleTimeout: Duration? = nil,
        translatingErrors: @escaping @Sendable (any Error) -> any Error = { $0 },
        onEnd: @escaping @Sendable () -> Void = {}
    ) -> HTTPBodyStream where Chunks.Element == Data {
        let pump = Locked<Task<Void, Never>?>(nil)
        let (stream, writer) = makeStream { pump.withLock { $0?.cancel() } }
        let task = Task {
            await withTaskGroup(of: Void.self) { group in
                group.addTask {
                    do {
                        for try await chunk in chunks { try await writer.write(chunk) }
                        onEnd()
                        writer.finish()
                    } catch {
                        writer.finish(throwing: error is CancellationError ? error : translatingErrors(error))
                    }
                }
                if let idleTimeout {
                    group.addTask { await watch(writer.buffer, idleTimeout: idleTimeout) }
                }
                await group.next()
                group.cancelAll()
            }
        }
        pump.withLock { $0 = task }
        return stream
    }

    /// Fails the body with `URLError(.timedOut)` once it has been silent for `idleTimeout` while the reader waited;
    /// returns when the body is over either way.
    private static func watch(_ buffer: StreamBuffer, idleTimeout: Duration) async {
        while !Task.isCancelled && !buffer.isOver {
            let deadline = (buffer.silentSince ?? .now) + idleTimeout
            guard (try? await Task.sleep(until: deadline, clock: .continuous)) != nil else { return }
            if let silentSince = buffer.silentSince, ContinuousClock.now - silentSince >= idleTimeout {
                buffer.finish(throwing: URLError(.timedOut))
                return
            }
        }
    }
}
