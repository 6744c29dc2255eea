import Foundation
import RetroSwiftTestServer

/// The end-to-end server, in a process of its own as end-to-end runs require: in the measuring process its event
/// loop would share threads with async-http-client (both use NIO's singleton group) and its work and allocations
/// would be counted with the client's.
public final class E2EServerProcess: Sendable {
    /// `http://127.0.0.1:<port>` of the running server.
    public let baseURL: URL
    private let process: Process
    /// The server's standard input: closing it (or this process ending) makes the server exit.
    private let input: Pipe

    private init(baseURL: URL, process: Process, input: Pipe) {
        self.baseURL = baseURL
        self.process = process
        self.input = input
    }

    /// Runs `executable --serve` and waits for the port it prints; `executable` must run ``serve()`` for `--serve`.
    public static func start(_ executable: URL) throws -> E2EServerProcess {
        let process = Process()
        let input = Pipe()
        let output = Pipe()
        process.executableURL = executable
        process.arguments = ["--serve"]
        process.standardInput = input
        process.standardOutput = output
        try process.run()
        // Blocks the calling thread until the first line; the server prints it as soon as it listens, or exits.
        var printed = Data()
        while !printed.contains(UInt8(ascii: "\n")) {
            let chunk = output.fileHandleForReading.availableData
            guard !chunk.isEmpty else {
                process.waitUntilExit()
                throw E2EServerError("\(executable.path) --serve exited with status \(process.terminationStatus) before printing its port")
            }
            printed.append(chunk)
        }
        let line = String(decoding: printed, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        guard let port = Int(line) else {
            process.terminate()
            throw E2EServerError("\(executable.path) --serve printed \"\(line)\" instead of a port")
        }
        return E2EServerProcess(baseURL: URL(string: "http://127.0.0.1:\(port)")!, process: process, input: input)
    }

    /// Stops the server and waits for it to exit.
    public func stop() {
        try? input.fileHandleForWriting.close()
        if process.isRunning { process.terminate() }
        process.waitUntilExit()
    }

    /// `e2e-ratios` from the running executable's directory, where a release build of this package puts every
    /// product; the ordo-one benchmarks do not build it themselves.
    public static func executableNextToThisOne() throws -> URL {
        let running = Bundle.main.executableURL ?? URL(fileURLWithPath: CommandLine.arguments[0])
        let executable = running.deletingLastPathComponent().appendingPathComponent("e2e-ratios")
        guard FileManager.default.isExecutableFile(atPath: executable.path) else {
            throw E2EServerError(
                "the end-to-end benchmarks need their server, \(executable.path), which is missing: "
                    + "run `swift build -c release --product e2e-ratios` in Benchmarks first")
        }
        return executable
    }

    /// The `--serve` side: answers GET /catalog with the 1 KB document (and `/catalog/fresh` and
    /// `/catalog/revalidated` with it, for the cache), GET /catalog/large with the 100 KB one, a POST to either with
    /// `{"ok":true}` and
    /// GET /events?count=N with N copies of ``StreamingFixture/block`` (a `text/event-stream`), GET /lines?count=N with
    /// N copies of ``StreamingFixture/lines`` (JSON Lines) on
    /// 127.0.0.1, prints the port, and returns when standard input closes, so the server never outlives its parent.
    public static func serve() async throws {
        let catalog = try JSONEncoder().encode(E2EPayload.sample)
        let largeCatalog = try JSONEncoder().encode(E2EPayload.large)
        let block = StreamingFixture.block.bytes
        let lines = StreamingFixture.lines.bytes
        let server = try await TestServer.start(recordingBodies: false) { request in
            if request.encodedPath == "/events" {
                let count = Int(request.queryItems.first { $0.name == "count" }?.value ?? "1") ?? 1
                return ScriptedResponse(headers: [("Content-Type", "text/event-stream")], body: block, behavior: .repeated(count: count))
            }
            if request.encodedPath == "/lines" {
                let count = Int(request.queryItems.first { $0.name == "count" }?.value ?? "1") ?? 1
                return ScriptedResponse(headers: [("Content-Type", "application/jsonl")], body: lines, behavior: .repeated(count: count))
            }
            // The cache benchmark's two: fresh for an hour, and revalidated every time (a 304 to its ETag).
            if request.encodedPath == "/catalog/fresh" {
                return ScriptedResponse(
                    status: 200, headers: [("Content-Type", "application/json"), ("Cache-Control", "max-age=3600")], body: catalog)
            }
            if request.encodedPath == "/catalog/revalidated" {
                if request.header("If-None-Match") == "\"catalog\"" {
                    return ScriptedResponse(status: 304, headers: [("ETag", "\"catalog\"")])
                }
                return ScriptedResponse(
                    status: 200, headers: [("Content-Type", "application/json"), ("Cache-Control", "no-cache"), ("ETag", "\"catalog\"")],
                    body: catalog)
            }
            return request.method == "GET"
                ? ScriptedResponse(
                    status: 200, headers: [("Content-Type", "application/json")],
                    body: request.encodedPath == "/catalog/large" ? largeCatalog : catalog)
                : .json(#"{"ok":true}"#)
        }
        // A write straight to the file descriptor, unbuffered, so the parent sees the port at once.
        FileHandle.standardOutput.write(Data("\(server.port)\n".utf8))
        await endOfStandardInput()
        await server.stop()
    }

    /// Waits on a thread of its own, as the read blocks and must not hold one of Swift's few concurrency threads.
    private static func endOfStandardInput() async {
        await withCheckedContinuation { continuation in
            Thread {
                _ = FileHandle.standardInput.readDataToEndOfFile()
                continuation.resume()
            }.start()
        }
    }
}

/// Why the end-to-end server could not be started.
public struct E2EServerError: Error, CustomStringConvertible {
    public let description: String

    init(_ description: String) {
        self.description = description
    }
}
