import AsyncHTTPClient
import Foundation
import NIOCore
import RetroSwift
import RetroSwiftAsyncHTTPClient
import RetroSwiftNIO
import RetroSwiftURLSession

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The calls measured end to end.
public enum E2EOperation: String, CaseIterable, CustomStringConvertible, Sendable {
    case get = "GET"
    case post = "POST"
    /// The GET's document as bytes, decoded by neither side: what the client itself costs, without Foundation's
    /// `JSONDecoder`, which costs both sides the same and most of a 1 KB call (BENCHMARKS.md section 3).
    case bytes = "BYTES"

    /// The two calls every table measures; ``bytes`` only where asked for (`e2e-ratios --nio --bytes`).
    public static var allCases: [E2EOperation] { [.get, .post] }

    public var description: String { self == .bytes ? "GET (bytes)" : rawValue }
}

/// How large the JSON document is that a GET gets and a POST sends.
public enum E2EDocumentSize: String, CaseIterable, CustomStringConvertible, Sendable {
    case oneKB = "1k"
    case hundredKB = "100k"

    public var description: String { self == .oneKB ? "1 KB" : "100 KB" }

    /// Where the server serves it.
    var path: String { self == .oneKB ? "/catalog" : "/catalog/large" }

    /// The document.
    var payload: E2EPayload { self == .oneKB ? .sample : .large }
}

/// Who makes the call: RetroSwift on a transport, or the same client by hand.
public enum E2EClient: String, CaseIterable, CustomStringConvertible, Sendable {
    case rawURLSession = "raw URLSession.data(for:) (baseline)"
    case retroSwiftURLSession = "RetroSwift + URLSessionTransport"
    case rawAsyncHTTPClient = "raw async-http-client (baseline)"
    case retroSwiftAsyncHTTPClient = "RetroSwift + AsyncHTTPClientTransport"
    case retroSwiftNIO = "RetroSwift + NIOTransport"

    public var description: String { rawValue }

    /// Its short name on command lines: `raw-urlsession`, `urlsession`, `raw-ahc`, `ahc` or `nio`.
    public var shortName: String {
        switch self {
        case .rawURLSession: "raw-urlsession"
        case .retroSwiftURLSession: "urlsession"
        case .rawAsyncHTTPClient: "raw-ahc"
        case .retroSwiftAsyncHTTPClient: "ahc"
        case .retroSwiftNIO: "nio"
        }
    }

    /// The client of a ``shortName``.
    public init?(shortName: some StringProtocol) {
        guard let client = Self.allCases.first(where: { $0.shortName == shortName }) else { return nil }
        self = client
    }
}

/// The JSON document: 1 KB (``sample``) or 100 KB (``large``).
public struct E2EPayload: Codable, Sendable {
    public var items: [Catalog.Item]

    /// The document as a server of another make serves it (`scale-curve --write-document`).
    public static var document: Data {
        get throws { try JSONEncoder().encode(sample) }
    }

    /// What the server answers a GET with and what every POST sends.
    static let sample = E2EPayload(items: 12)
    /// The same with 1,250 items: about 100 KB.
    static let large = E2EPayload(items: 1250)

    private init(items count: Int) {
        items = (0..<count).map { Catalog.Item(id: $0, name: "Item number \($0)", price: 1.25, available: true, tags: ["a", "b"]) }
    }
}

struct E2EPostRequest {
    @JsonBody var payload: E2EPayload
}

struct E2EAck: Codable, Sendable {
    var ok: Bool
}

final class E2EApi: Domain, @unchecked Sendable {
    @Get("/catalog") var catalog: () async throws -> E2EPayload
    @Get("/catalog") var catalogBytes: () async throws -> Data
    @Post("/catalog") var post: (E2EPostRequest) async throws -> E2EAck
    @Get("/catalog/fresh") var fresh: () async throws -> HTTPResponse<E2EPayload>
    @Get("/catalog/revalidated") var revalidated: () async throws -> HTTPResponse<E2EPayload>
    @Get("/catalog/large") var catalogLarge: () async throws -> E2EPayload
    @Post("/catalog/large") var postLarge: (E2EPostRequest) async throws -> E2EAck
}

/// What the cache benchmark compares: the same GET of the 1 KB document from the network, as a fresh cache hit, and
/// revalidated by a `304`.
public enum E2ECacheCall: String, CaseIterable, CustomStringConvertible, Sendable {
    case network = "network, no cache"
    case hit = "fresh cache hit"
    case diskHit = "fresh hit, disk cache"
    case revalidated = "revalidated (304)"

    public var description: String { rawValue }
}

/// The clients, made once per process, calling a server in another process.
public final class E2EHarness: Sendable {
    /// The harness of the ordo-one benchmarks. Their server is `e2e-ratios --serve` from the same build directory;
    /// nothing stops it explicitly: it exits when this process does, as that closes its standard input.
    public static let shared = Task {
        let server = try E2EServerProcess.start(E2EServerProcess.executableNextToThisOne())
        return E2EHarness(baseURL: server.baseURL, server: server)
    }

    let baseURL: URL
    let session = URLSession(configuration: .ephemeral)
    let urlSessionApi: E2EApi
    let asyncHTTPClientApi: E2EApi
    /// On NIOTransport with its defaults, as a server app makes it.
    let nioApi: E2EApi
    /// The transport under ``nioApi``.
    public let nioTransport: NIOTransport
    /// The same API with an ``HTTPCache``, on each transport.
    let cachedApis: [E2EApi]
    /// The same API with an ``HTTPCache`` on disk, on each transport.
    let diskCachedApis: [E2EApi]
    /// Where the disk caches are; ``removeDiskCaches()`` deletes it.
    let diskCacheDirectory: URL
    /// Only held, so that the server's standard input stays open (and the server alive) as long as the harness.
    private let server: E2EServerProcess?

    /// Measures against the server at `baseURL`, `http://127.0.0.1:<port>` of an ``E2EServerProcess``.
    public convenience init(baseURL: URL) {
        self.init(baseURL: baseURL, server: nil)
    }

    private init(baseURL: URL, server: E2EServerProcess?) {
        self.baseURL = baseURL
        self.server = server
        let urlSessionTransport = URLSessionTransport(configuration: .ephemeral)
        urlSessionTransport.setConfiguration(baseURL: baseURL, sharedHeaders: nil)
        urlSessionApi = E2EApi(transport: urlSessionTransport)
        // The client the raw baseline uses, as an app would hand its own client to the transport.
        // Cannot throw: the client disallows redirects.
        let asyncHTTPClientTransport = try! AsyncHTTPClientTransport(client: AppHTTPClient.shared)
        asyncHTTPClientTransport.setConfiguration(baseURL: baseURL, sharedHeaders: nil)
        asyncHTTPClientApi = E2EApi(transport: asyncHTTPClientTransport)
        nioTransport = NIOTransport()
        nioTransport.setConfiguration(baseURL: baseURL, sharedHeaders: nil)
        nioApi = E2EApi(transport: nioTransport)
        let transports: [any HttpTransport] = [urlSessionTransport, asyncHTTPClientTransport]
        cachedApis = transports.map { transport in
            let api = E2EApi(transport: transport)
            api.httpCache = HTTPCache()
            return api
        }
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("retroswift-bench-cache-\(UUID().uuidString)")
        diskCacheDirectory = directory
        diskCachedApis = transports.enumerated().map { index, transport in
            let api = E2EApi(transport: transport)
            api.httpCache = try? HTTPCache(directory: directory.appendingPathComponent("\(index)"))
            return api
        }
    }

    /// Deletes the disk caches' directory.
    public func removeDiskCaches() {
        try? FileManager.default.removeItem(at: diskCacheDirectory)
    }

    /// One GET of the document by RetroSwift on URLSession (`asyncHTTPClient` false) or async-http-client, as `call`
    /// says: without a cache, or through one where it is fresh, or through one that revalidates it.
    public func cacheCall(_ call: E2ECacheCall, asyncHTTPClient: Bool) async throws {
        let api = cachedApis[asyncHTTPClient ? 1 : 0]
        switch call {
        case .network: consume(try await (asyncHTTPClient ? asyncHTTPClientApi : urlSessionApi).catalog())
        case .hit, .diskHit:
            let response = try await (call == .hit ? api : diskCachedApis[asyncHTTPClient ? 1 : 0]).fresh()
            guard response.source == .cache || response.source == .network else { throw URLError(.badServerResponse) }
            consume(response)
        case .revalidated:
            let response = try await api.revalidated()
            guard response.source == .revalidatedCache || response.source == .network else { throw URLError(.badServerResponse) }
            consume(response)
        }
    }

    /// Runs `tasks` concurrent calls and waits for all of them. One call is made by the calling task itself, as an app
    /// makes one call after another: a child task for it would add a task's start and a hop between threads to every
    /// call of every client, a fixed cost that hides how much the clients differ.
    public func batch(_ operation: E2EOperation, with client: E2EClient, tasks: Int, size: E2EDocumentSize = .oneKB) async throws {
        guard tasks > 1 else { return try await call(operation, with: client, size: size) }
        try await withThrowingTaskGroup(of: Void.self) { group in
            for _ in 0..<tasks { group.addTask { try await self.call(operation, with: client, size: size) } }
            try await group.waitForAll()
        }
    }

    /// One call by `client`.
    public func call(_ operation: E2EOperation, with client: E2EClient, size: E2EDocumentSize = .oneKB) async throws {
        let api =
            switch client {
            case .retroSwiftURLSession, .rawURLSession: urlSessionApi
            case .retroSwiftNIO: nioApi
            case .retroSwiftAsyncHTTPClient, .rawAsyncHTTPClient: asyncHTTPClientApi
            }
        switch (operation, client, size) {
        case (_, .rawURLSession, _): try await rawURLSession(operation, size)
        case (_, .rawAsyncHTTPClient, _): try await rawAsyncHTTPClient(operation, size)
        case (.get, _, .oneKB): consume(try await api.catalog())
        case (.bytes, _, _): consume(try await api.catalogBytes())
        case (.post, _, .oneKB): consume(try await api.post(E2EPostRequest(payload: size.payload)))
        case (.get, _, .hundredKB): consume(try await api.catalogLarge())
        case (.post, _, .hundredKB): consume(try await api.postLarge(E2EPostRequest(payload: size.payload)))
        }
    }

    /// What careful hand-written URLSession code does: build, send, check the status, decode.
    private func rawURLSession(_ operation: E2EOperation, _ size: E2EDocumentSize) async throws {
        var request = URLRequest(url: baseURL.appendingPathComponent(String(size.path.dropFirst())))
        request.httpMethod = operation == .post ? "POST" : "GET"
        if operation == .post {
            request.setValue("application/json", forHTTPHeaderField: "Content-Type")
            request.httpBody = try JSONEncoder().encode(size.payload)
        }
        let (data, response) = try await session.data(for: request)
        guard (response as? HTTPURLResponse)?.statusCode == 200 else { throw URLError(.badServerResponse) }
        if operation == .bytes {
            consume(data)
        } else if operation == .get {
            consume(try JSONDecoder().decode(E2EPayload.self, from: data))
        } else {
            consume(try JSONDecoder().decode(E2EAck.self, from: data))
        }
    }

    private func rawAsyncHTTPClient(_ operation: E2EOperation, _ size: E2EDocumentSize) async throws {
        var request = HTTPClientRequest(url: baseURL.absoluteString + size.path)
        request.method = operation == .post ? .POST : .GET
        if operation == .post {
            request.headers.add(name: "Content-Type", value: "application/json")
            request.body = .bytes(ByteBuffer(bytes: try JSONEncoder().encode(size.payload)))
        }
        let response = try await AppHTTPClient.shared.execute(request, timeout: .seconds(60))
        guard response.status.code == 200 else { throw URLError(.badServerResponse) }
        let body = Data(try await response.body.collect(upTo: 1 << 20).readableBytesView)
        if operation == .bytes {
            consume(body)
        } else if operation == .get {
            consume(try JSONDecoder().decode(E2EPayload.self, from: body))
        } else {
            consume(try JSONDecoder().decode(E2EAck.self, from: body))
        }
    }
}

/// Keeps a result alive so the optimizer cannot drop the work that made it.
@inline(never)
public func consume<T>(_ value: T) {
    withExtendedLifetime(value) {}
}
