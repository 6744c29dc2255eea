#if NIO
    import Foundation
    import NIOCore
    import NIOPosix
    import RetroSwift

    /// Writes a response body to a new temporary file as it arrives, with blocking writes run on NIOPosix's thread pool
    /// (the one `NonBlockingFileIO` uses), never on the event loop or the cooperative pool.
    ///
    /// Lives on one event loop: the handler appends parts there, and the pool's jobs report back there. One write runs at
    /// a time, with the parts that arrived meanwhile joined into the next; past ``maxBehind`` bytes not yet written the
    /// file is behind, and the handler stops reading the socket until ``onCaughtUp`` runs.
    final class FileSink {
        /// How many bytes may wait for the disk before the socket is no longer read.
        static let maxBehind = 4 << 20

        private let eventLoop: any EventLoop
        private let onCaughtUp: () -> Void
        private var file: (url: URL, handle: FileHandle)?
        private var queued: [ByteBuffer] = []
        /// Bytes queued or being written.
        private var behind = 0
        private var writing = false
        private var error: (any Error)?
        /// Set once the body is whole; called when the file is written and closed.
        private var completion: ((Result<URL, any Error>) -> Void)?
        /// The call failed: the file is deleted once nothing writes to it.
        private var abandoned = false

        init(directory: URL, eventLoop: any EventLoop, onCaughtUp: @escaping () -> Void) {
            self.eventLoop = eventLoop
            self.onCaughtUp = onCaughtUp
            let opened = NIOThreadPool.singleton.runIfActive(eventLoop: eventLoop) {
                let (url, handle) = try TemporaryFile.create(.download, in: directory)
                return OpenedFile(url: url, handle: handle)
            }
            opened.assumeIsolated().whenComplete { [self] result in
                switch result {
                case .success(let opened):
                    file = (opened.url, opened.handle)
                    if abandoned { discard() } else { writeQueued() }
                case .failure(let error):
                    self.error = error
                    finishIfDone()
                }
            }
        }

        /// Whether the disk is behind the network: the handler stops reading until ``onCaughtUp`` runs.
        var isBehind: Bool {
            behind >= Self.maxBehind
        }

        /// Queues a part of the body.
        func append(_ buffer: ByteBuffer) {
            guard !abandoned, error == nil else { return }
            queued.append(buffer)
            behind += buffer.readableBytes
            writeQueued()
        }

        /// The body is whole: `completion` gets the file once everything is written and the file closed, or the error
        /// that stopped it (the file then deleted).
        func finish(_ completion: @escaping (Result<URL, any Error>) -> Void) {
            self.completion = completion
            finishIfDone()
        }

        /// The call failed: the file is deleted, and nothing is reported.
        func fail() {
            abandoned = true
            completion = nil
            queued = []
            if !writing { discard() }
        }

        private func writeQueued() {
            guard !writing, let file, !queued.isEmpty, error == nil, !abandoned else {
                finishIfDone()
                return
            }
            var data = Data()
            data.reserveCapacity(queued.reduce(0) { $0 + $1.readableBytes })
            for buffer in queued { data.append(contentsOf: buffer.readableBytesView) }
            queued.removeAll(keepingCapacity: true)
            let chunk = data
            writing = true
            let handle = file.handle
            let written = NIOThreadPool.singleton.runIfActive(eventLoop: eventLoop) { try handle.write(contentsOf: chunk) }
            written.assumeIsolated().whenComplete { [self] result in
                writing = false
                let wasBehind = isBehind
                behind -= chunk.count
                if case .failure(let error) = result { self.error = error }
                if abandoned {
                    discard()
                    return
                }
                if wasBehind && !isBehind { onCaughtUp() }
                writeQueued()
            }
        }

        private func finishIfDone() {
            guard let completion, !writing, queued.isEmpty || error != nil else { return }
            guard let file else {
                // Not open yet: finished once it is, unless it could not be made.
                if let error {
                    self.completion = nil
                    completion(.failure(error))
                }
                return
            }
            self.completion = nil
            let error = self.error
            let handle = file.handle
            let url = file.url
            self.file = nil
            let closed = NIOThreadPool.singleton.runIfActive(eventLoop: eventLoop) {
                try handle.close()
                if error != nil { try? FileManager.default.removeItem(at: url) }
            }
            closed.assumeIsolated().whenComplete { result in
                if let error {
                    completion(.failure(error))
                } else if case .failure(let closeError) = result {
                    try? FileManager.default.removeItem(at: url)
                    completion(.failure(closeError))
                } else {
                    completion(.success(url))
                }
            }
        }

        /// Closes and deletes the file, off the event loop.
        private func discard() {
            guard let file else { return }
            self.file = nil
            let handle = file.handle
            let url = file.url
            NIOThreadPool.singleton.submit { _ in
                try? handle.close()
                try? FileManager.default.removeItem(at: url)
            }
        }
    }

    /// A file the thread pool opened, handed back to the event loop.
    // @unchecked Sendable: made by one thread-pool job and handed once to the event loop, which alone uses it after.
    private struct OpenedFile: @unchecked Sendable {
        let url: URL
        let handle: FileHandle
    }
#endif
