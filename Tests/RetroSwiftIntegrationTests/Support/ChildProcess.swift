import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// A program a test runs (openssl, curl, nginx, tinyproxy, this test binary again), its output to a file or nowhere.
///
/// On Linux it is started with `posix_spawn` rather than Foundation's `Process`: swift-corelibs-foundation's
/// `Process.run()` (Swift 6.3) now and then crashes the whole test run while it lists `/proc/self/fd`, reading a
/// directory entry past the end of its buffer (swiftlang/swift-corelibs-foundation#5472), which a run of the
/// coverage suite met with some 1,300 descriptors open. Like `Process`, it leaves the child only its standard input,
/// output and error, and with no signal blocked. Elsewhere it is Foundation's `Process`.
///
/// `@unchecked Sendable`: its one mutable value, how the program ended, is read and written under `lock` only.
final class ChildProcess: @unchecked Sendable {
    /// How a program ended.
    struct Exit: Equatable, Sendable {
        /// Its exit status, or the number of the signal that ended it.
        let status: Int32
        /// Whether a signal ended it.
        let signalled: Bool
    }

    private let lock = NSLock()
    private var exit: Exit?

    #if os(Linux)
        /// The program's process id.
        let processIdentifier: pid_t
    #else
        private let process: Process

        /// The program's process id.
        var processIdentifier: Int32 { process.processIdentifier }
    #endif

    /// Starts `executable` with `arguments`.
    ///
    /// - Parameters:
    ///   - executable: The program's path.
    ///   - arguments: Its arguments, without its name.
    ///   - environment: Its environment; this process's when `nil`.
    ///   - output: The file its standard output and error are appended to; nowhere when `nil`.
    /// - Throws: `POSIXError` when it cannot be started (no such file, not executable).
    init(_ executable: String, _ arguments: [String], environment: [String: String]? = nil, output: URL? = nil) throws {
        #if os(Linux)
            var actions = posix_spawn_file_actions_t()
            posix_spawn_file_actions_init(&actions)
            defer { posix_spawn_file_actions_destroy(&actions) }
            posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
            posix_spawn_file_actions_addopen(&actions, 1, output?.path ?? "/dev/null", O_WRONLY | O_CREAT | O_APPEND, 0o644)
            posix_spawn_file_actions_adddup2(&actions, 1, 2)
            // Nothing else of this process's: a daemon holding a test's socket would keep its port or its peer open.
            Self.closeTheRest(&actions)

            var attributes = posix_spawnattr_t()
            posix_spawnattr_init(&attributes)
            defer { posix_spawnattr_destroy(&attributes) }
            // The test runner's threads may block signals (SIGTERM among them) that the child must act on.
            var noSignals = sigset_t()
            sigemptyset(&noSignals)
            posix_spawnattr_setsigmask(&attributes, &noSignals)
            var everySignal = sigset_t()
            sigfillset(&everySignal)
            posix_spawnattr_setsigdefault(&attributes, &everySignal)
            posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))

            let argv: [UnsafeMutablePointer<CChar>?] = ([executable] + arguments).map { strdup($0) } + [nil]
            let envp: [UnsafeMutablePointer<CChar>?] =
                (environment ?? ProcessInfo.processInfo.environment).map { strdup("\($0.key)=\($0.value)") } + [nil]
            defer {
                for string in argv + envp { free(string) }
            }
            var pid = pid_t()
            let result = posix_spawn(&pid, executable, &actions, &attributes, argv, envp)
            guard result == 0 else { throw POSIXError(POSIXErrorCode(rawValue: result) ?? .EIO) }
            processIdentifier = pid
        #else
            process = Process()
            process.executableURL = URL(fileURLWithPath: executable)
            process.arguments = arguments
            if let environment { process.environment = environment }
            let handle: FileHandle
            if let output {
                if !FileManager.default.fileExists(atPath: output.path) {
                    _ = FileManager.default.createFile(atPath: output.path, contents: nil)
                }
                handle = try FileHandle(forWritingTo: output)
                try handle.seekToEnd()
            } else {
                handle = FileHandle.nullDevice
            }
            process.standardInput = FileHandle.nullDevice
            process.standardOutput = handle
            process.standardError = handle
            try process.run()
        #endif
    }

    /// Whether the program still runs.
    var isRunning: Bool {
        lock.withLock {
            if exit != nil { return false }
            #if os(Linux)
                var status: Int32 = 0
                guard waitpid(processIdentifier, &status, WNOHANG) == processIdentifier else { return true }
                exit = Self.exit(status)
                return false
            #else
                guard !process.isRunning else { return true }
                exit = Exit(status: process.terminationStatus, signalled: process.terminationReason == .uncaughtSignal)
                return false
            #endif
        }
    }

    /// Sends `signal` to the program, if it still runs.
    ///
    /// - Parameter signal: The signal, such as `SIGKILL`.
    func send(_ signal: Int32) {
        if isRunning { kill(processIdentifier, signal) }
    }

    /// Waits, blocking the thread, until the program ends.
    ///
    /// - Returns: How it ended.
    @discardableResult
    func waitUntilExit() -> Exit {
        if let exit = lock.withLock({ exit }) { return exit }
        #if os(Linux)
            var status: Int32 = 0
            while true {
                let waited = waitpid(processIdentifier, &status, 0)
                if waited == processIdentifier { break }
                if waited == -1, errno == EINTR { continue }
                // Reaped by `isRunning` on another thread meanwhile: its record is there.
                return lock.withLock { exit } ?? Exit(status: -1, signalled: false)
            }
            let ended = Self.exit(status)
        #else
            process.waitUntilExit()
            let ended = Exit(status: process.terminationStatus, signalled: process.terminationReason == .uncaughtSignal)
        #endif
        return lock.withLock {
            if exit == nil { exit = ended }
            return exit ?? ended
        }
    }

    #if os(Linux)
        /// Adds to `actions` the closing of every descriptor from 3 up: glibc's `posix_spawn_file_actions_addclosefrom_np`
        /// (2.34 and later), looked up at run time since Swift's Glibc module does not declare it; else one close for each
        /// descriptor `/proc/self/fd` lists, read through `FileManager` (which reads directory entries safely).
        private static func closeTheRest(_ actions: inout posix_spawn_file_actions_t) {
            typealias CloseFrom = @convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, Int32) -> Int32
            if let symbol = dlsym(nil, "posix_spawn_file_actions_addclosefrom_np") {
                _ = unsafeBitCast(symbol, to: CloseFrom.self)(&actions, 3)
                return
            }
            let open = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd")) ?? []
            for descriptor in open.compactMap({ Int32($0) }) where descriptor > 2 {
                posix_spawn_file_actions_addclose(&actions, descriptor)
            }
        }

        /// `waitpid`'s status read as `WIFSIGNALED`, `WTERMSIG` and `WEXITSTATUS` would, which Swift does not import.
        private static func exit(_ status: Int32) -> Exit {
            let signal = status & 0x7f
            return signal == 0 ? Exit(status: (status >> 8) & 0xff, signalled: false) : Exit(status: signal, signalled: true)
        }
    #endif
}
