import ArgumentParser
import AsyncHTTPClient
import Foundation
import RetroSwift
import RetroSwiftAsyncHTTPClient
import RetroSwiftNIO
import RetroSwiftTestServer
import RetroSwiftURLSession

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Measures peak resident memory of large uploads and downloads, and of walking a long paginated list, through
/// RetroSwift, one run per process so the peak belongs to that run alone. `measure-memory.sh` drives it.
@main
struct MemoryProbe: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "memory-probe",
        abstract: "Peak memory of large RetroSwift transfers.",
        subcommands: [Serve.self, Upload.self, Download.self, Walk.self, Events.self, Oversized.self, Bomb.self]
    )
}

/// Which transport a transfer goes through.
enum TransportChoice: String, ExpressibleByArgument, CaseIterable {
    case urlsession, asynchttpclient, nio

    func make(port: Int) -> any HttpTransport {
        let transport: any HttpTransport =
            switch self {
            case .urlsession: URLSessionTransport()
            // One transfer per process: the client, made as HTTPClient.shared is but with redirects disallowed (else the
            // transport refuses it), lives until the process ends, as that one would.
            case .asynchttpclient:
                try! AsyncHTTPClientTransport(
                    client: HTTPClient(
                        eventLoopGroup: HTTPClient.defaultEventLoopGroup, configuration: AsyncHTTPClientTransport.clientConfiguration),
                    defaultTimeout: 600)
            case .nio: NIOTransport()
            }
        transport.setConfiguration(baseURL: URL(string: "http://127.0.0.1:\(port)")!, sharedHeaders: nil)
        return transport
    }
}

final class TransferApi: Domain, @unchecked Sendable {
    struct UploadRequest {
        @FormFile("file") var file = .empty
    }

    struct DownloadRequest {
        @Query var bytes: Int = 0
    }

    struct Received: Decodable {
        var bytes: Int
    }

    struct ItemsRequest: Sendable {
        @Query var page: Int = 1
        @Query("per_page") var perPage: Int = 100
        @Query var total: Int = 0
    }

    struct Item: Decodable, Sendable {
        var id: Int
        var name: String
    }

    @Get("/items", timeout: 600) var items: (ItemsRequest) async throws -> [Item]
    @Post("/upload", timeout: 600) var upload: (UploadRequest) async throws -> Received
    @Get("/download", timeout: 600) var download: (DownloadRequest) async throws -> DownloadedFile
    @Get("/download", timeout: 600) var downloadIntoMemory: (DownloadRequest) async throws -> Data
    @Get("/bomb", timeout: 600) var bomb: (DownloadRequest) async throws -> Data

    struct EventsRequest {
        @Query var blocks: Int = 1
    }

    struct Tick: Decodable {
        var n: Int
        var text: String
    }

    @Get("/events", timeout: 600) var events: (EventsRequest) async throws -> ServerSentEvents<Tick>
}

/// A 64 KiB block of Server-Sent Events ending on an event boundary, and how many events it holds.
let eventBlock: (bytes: Data, events: Int) = {
    var text = ""
    var events = 0
    while true {
        let event = "data: {\"n\":\(events),\"text\":\"the quick brown fox jumps over the lazy dog \(events % 97)\"}\n\n"
        guard text.utf8.count + event.utf8.count <= 65_536 else { break }
        text += event
        events += 1
    }
    return (Data(text.utf8), events)
}()

/// Peak resident set size of this process so far, in MiB.
func peakResidentMiB() -> Double {
    var usage = rusage()
    #if os(Linux)
        getrusage(RUSAGE_SELF.rawValue, &usage)
        return Double(usage.ru_maxrss) / 1_024
    #else
        getrusage(RUSAGE_SELF, &usage)
        return Double(usage.ru_maxrss) / 1_048_576
    #endif
}

struct Serve: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Serve /upload and /download on 127.0.0.1; prints the port, runs until killed.")

    func run() async throws {
        let server = try await TestServer.start(recordingBodies: false) { request in
            if request.method == "POST" { return .json(#"{"bytes":\#(request.bodyByteCount)}"#) }
            if request.encodedPath == "/items" {
                let query = Dictionary(request.queryItems.map { ($0.name, $0.value) }) { first, _ in first }
                let (page, perPage, total) = (
                    Int(query["page"] ?? "") ?? 1, Int(query["per_page"] ?? "") ?? 100, Int(query["total"] ?? "") ?? 0
                )
                let ids = ((page - 1) * perPage)..<min(page * perPage, total)
                // About 100 bytes per item: 10 MB of JSON for 100,000 items.
                let padding = String(repeating: "x", count: 72)
                return .json("[" + ids.map { #"{"id":\#($0),"name":"item \#($0) \#(padding)"}"# }.joined(separator: ",") + "]")
            }
            if request.encodedPath == "/events" {
                let blocks = Int(request.queryItems.first { $0.name == "blocks" }?.value ?? "1") ?? 1
                return ScriptedResponse(
                    headers: [("Content-Type", "text/event-stream")], body: eventBlock.bytes, behavior: .repeated(count: blocks))
            }
            let bytes = Int(request.queryItems.first { $0.name == "bytes" }?.value ?? "0") ?? 0
            if request.encodedPath == "/bomb" {
                // Zeros, gzip-coded: a few MB on the wire that inflate to `bytes`.
                return ScriptedResponse(
                    headers: [("Content-Type", "application/octet-stream"), ("Content-Encoding", "gzip")],
                    body: CompressedBody.gzipOfZeros(bytes))
            }
            return ScriptedResponse(
                status: 200, headers: [("Content-Type", "application/octet-stream")], behavior: .streamed(byteCount: bytes))
        }
        // A write straight to the file descriptor, unbuffered, so the script sees the port at once.
        FileHandle.standardOutput.write(Data("\(server.port)\n".utf8))
        while true { try await Task.sleep(nanoseconds: 3_600_000_000_000) }
    }
}

struct Upload: AsyncParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Upload a generated file as a multipart @FormFile from its URL.")

    @Option var port: Int
    @Option var megabytes = 200
    @Option var transport = TransportChoice.urlsession

    func run() async throws {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("memory-probe-\(UUID().uuidString).bin")
        try writeFile(url, megabytes: megabytes)
        defer { try? FileManager.default.removeItem(at: url) }
        let before = peakResidentMiB()
        let api = TransferApi(transport: transport.make(port: port))
        let received = try await api.upload(.init(file: .init(fileName: "big.bin", mimeType: "application/octet-stream", fileURL: url)))
        guard received.bytes > megabytes * 1_048_576 else { throw ValidationError("server received only \(received.bytes) bytes") }
        print(
            "upload \(megabytes) MB via \(transport.rawValue): server received \(received.bytes) bytes; peak RSS \(Int(peakResidentMiB())) MiB (\(Int(before)) MiB before the transfer)"
        )
    }

    /// Writes the file 1 MiB at a time so making it does not raise the peak we measure.
    private func writeFile(_ url: URL, megabytes: Int) throws {
        guard FileManager.default.createFile(atPath: url.path, contents: nil) else { throw ValidationError("cannot create \(url.path)") }
        let handle = try FileHandle(forWritingTo: url)
        defer { try? handle.close() }
        let block = Data((0..<1_048_576).map { UInt8(truncatingIfNeeded: $0 &* 13) })
        for _ in 0..<megabytes { try handle.write(contentsOf: block) }
    }
}

struct Download: AsyncParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Download a generated body to a file with DownloadedFile.")

    @Option var port: Int
    @Option var megabytes = 1_024
    @Option var transport = TransportChoice.urlsession

    func run() async throws {
        let before = peakResidentMiB()
        let api = TransferApi(transport: transport.make(port: port))
        let file = try await api.download(.init(bytes: megabytes * 1_048_576))
        defer { try? FileManager.default.removeItem(at: file.url) }
        let size = (try FileManager.default.attributesOfItem(atPath: file.url.path)[.size] as? NSNumber)?.intValue ?? 0
        guard size == megabytes * 1_048_576 else { throw ValidationError("downloaded \(size) bytes") }
        print(
            "download \(megabytes) MB via \(transport.rawValue): \(size) bytes on disk; peak RSS \(Int(peakResidentMiB())) MiB (\(Int(before)) MiB before the transfer)"
        )
    }
}

struct Oversized: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Ask for a body over ResponseLimits.maxBodyBytes in memory; it must be refused, memory bounded.")

    @Option var port: Int
    @Option var megabytes = 1_024
    @Option var transport = TransportChoice.urlsession

    func run() async throws {
        let before = peakResidentMiB()
        let api = TransferApi(transport: transport.make(port: port))
        do {
            let body = try await api.downloadIntoMemory(.init(bytes: megabytes * 1_048_576))
            throw ValidationError("a \(body.count)-byte body came back; it should have been refused")
        } catch let error as RequestError where error.kind == .responseTooLarge {
            print(
                "oversized \(megabytes) MB into memory via \(transport.rawValue): refused (\(error.reason)); peak RSS \(Int(peakResidentMiB())) MiB (\(Int(before)) MiB before the call)"
            )
        }
    }
}

struct Bomb: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract:
            "Ask for a gzip body inflating past ResponseLimits.maxBodyBytes in memory; it must be refused soon, memory near the limit.")

    @Option var port: Int
    @Option var megabytes = 1_024
    @Option var transport = TransportChoice.urlsession

    func run() async throws {
        let before = peakResidentMiB()
        let api = TransferApi(transport: transport.make(port: port))
        let start = ContinuousClock.now
        do {
            let body = try await api.bomb(.init(bytes: megabytes * 1_048_576))
            throw ValidationError("a \(body.count)-byte body came back; it should have been refused")
        } catch let error as RequestError where error.kind == .responseTooLarge {
            let seconds =
                Double((ContinuousClock.now - start).components.attoseconds) / 1e18
                + Double((ContinuousClock.now - start).components.seconds)
            print(
                "gzip bomb inflating to \(megabytes) MB into memory via \(transport.rawValue): refused after "
                    + String(format: "%.2f", seconds)
                    + " s (\(error.reason)); peak RSS \(Int(peakResidentMiB())) MiB (\(Int(before)) MiB before the call)")
        }
    }
}

struct Walk: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Walk a paginated list with Paginated and .pageNumber, counting the items without keeping them.")

    @Option var port: Int
    @Option var items = 100_000
    @Option var pageSize = 100
    @Option var transport = TransportChoice.urlsession

    func run() async throws {
        let before = peakResidentMiB()
        let api = TransferApi(transport: transport.make(port: port))
        let walk = Paginated(
            api.items, from: .init(perPage: pageSize, total: items), by: .pageNumber(\.page, pageSize: \.perPage, items: \.self))
        var count = 0
        var lastId = -1
        for try await item in walk {
            guard item.id == lastId + 1 else { throw ValidationError("item \(item.id) after \(lastId)") }
            lastId = item.id
            count += 1
        }
        guard count == items else { throw ValidationError("walked \(count) items") }
        print(
            "walk \(items) items in pages of \(pageSize) via \(transport.rawValue): \(count) items; peak RSS \(Int(peakResidentMiB())) MiB (\(Int(before)) MiB before the walk)"
        )
    }
}

struct Events: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Read a long Server-Sent Events stream with ServerSentEvents, decoding and counting every event.")

    @Option var port: Int
    @Option var megabytes = 1_024
    @Option var transport = TransportChoice.urlsession

    func run() async throws {
        let before = peakResidentMiB()
        let api = TransferApi(transport: transport.make(port: port))
        let blocks = megabytes * 16
        let clock = ContinuousClock()
        let start = clock.now
        var count = 0
        do {
            for try await tick in try await api.events(.init(blocks: blocks)) {
                guard tick.n == count % eventBlock.events else { throw ValidationError("event \(tick.n) at \(count)") }
                count += 1
            }
        } catch let error as TransportError where error.code == .dataLengthExceedsMaximum {
            // URLSession on Linux cannot pause: a reader slower than loopback falls behind until the limit stops it.
            print(
                "events \(megabytes) MB via \(transport.rawValue): stopped after \(count) events, the reader past the transport's buffer limit (\(error.code.map { "\($0)" } ?? "")); peak RSS \(Int(peakResidentMiB())) MiB (\(Int(before)) MiB before the stream)"
            )
            return
        }
        guard count == blocks * eventBlock.events else { throw ValidationError("read \(count) events") }
        let seconds = Double((clock.now - start).components.seconds) + Double((clock.now - start).components.attoseconds) / 1e18
        print(
            "events \(megabytes) MB via \(transport.rawValue): \(count) events in \(Int(seconds)) s; peak RSS \(Int(peakResidentMiB())) MiB (\(Int(before)) MiB before the stream)"
        )
    }
}
