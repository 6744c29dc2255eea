import Foundation
import Testing

/// The tests' own starter of programs (``ChildProcess``): what the child gets of this process, and how its end is read.
@Suite("Test support: ChildProcess")
struct ChildProcessTests {
    #if os(Linux)
        @Test("the child has only its standard input, output and error of this process's descriptors")
        func onlyStandardDescriptors() throws {
            // Given: a descriptor of this process's, open and inheritable
            let directory = FileManager.default.temporaryDirectory.appendingPathComponent("retroswift-child-\(UUID())")
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            defer { try? FileManager.default.removeItem(at: directory) }
            let inheritable = open("/dev/null", O_RDONLY)
            defer { close(inheritable) }
            let output = directory.appendingPathComponent("fds")

            // When: the child lists its descriptors (ls's own directory descriptor among them)
            let exit = try ChildProcess("/bin/sh", ["-c", "ls /proc/$$/fd"], output: output).waitUntilExit()

            // Then
            #expect(inheritable > 2)
            #expect(exit == ChildProcess.Exit(status: 0, signalled: false))
            let listed = try String(contentsOf: output, encoding: .utf8).split(whereSeparator: \.isWhitespace)
            #expect(listed.sorted() == ["0", "1", "2"])
        }
    #endif

    @Test("an exit status and a signal come back as the program ended")
    func exitAndSignal() async throws {
        // Given
        let failing = try ChildProcess("/bin/sh", ["-c", "exit 3"])
        let sleeping = try ChildProcess("/bin/sh", ["-c", "sleep 60"])

        // When
        let failed = failing.waitUntilExit()
        #expect(sleeping.isRunning)
        sleeping.send(SIGKILL)
        let killed = sleeping.waitUntilExit()

        // Then
        #expect(failed == ChildProcess.Exit(status: 3, signalled: false))
        #expect(killed == ChildProcess.Exit(status: SIGKILL, signalled: true))
        #expect(!sleeping.isRunning)
    }
}
