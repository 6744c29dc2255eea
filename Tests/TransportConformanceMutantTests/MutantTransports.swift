import Foundation
import RetroSwiftTestServer

@testable import RetroSwift

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// A shipped transport with exactly one rule broken: everything else is the wrapped transport's, so a conformance case
/// that fails against the mutant fails for the broken rule. (RetroSwift keeps the domain's configuration for the
/// mutant, a class, and hands it requests already resolved, which the transport underneath sends as they are.)
protocol MutantTransport: HttpTransport {
    /// The shipped transport underneath.
    var inner: any HttpTransport { get }
}

/// Lets a timeout surface ten times late: the transport times out on time, then waits nine timeouts more.
final class LateTimeouts: MutantTransport {
    let inner: any HttpTransport
    init(_ inner: any HttpTransport) { self.inner = inner }

    func sendRequest(with params: HttpRequestParams) async throws -> HttpOperationResult {
        do {
            return try await inner.sendRequest(with: params)
        } catch let error as URLError where error.code == .timedOut {
            try await Task.sleep(for: .seconds(9 * (params.timeout ?? 60)))
            throw error
        }
    }
}

/// Throws for an error status instead of returning it as the answer it is.
final class ThrowsOnErrorStatus: MutantTransport {
    let inner: any HttpTransport
    init(_ inner: any HttpTransport) { self.inner = inner }

    func sendRequest(with params: HttpRequestParams) async throws -> HttpOperationResult {
        let result = try await inner.sendRequest(with: params)
        if result.statusCode >= 400 { throw URLError(.badServerResponse) }
        return result
    }
}

/// Returns error statuses without their bodies.
final class DropsErrorBodies: MutantTransport {
    let inner: any HttpTransport
    init(_ inner: any HttpTransport) { self.inner = inner }

    func sendRequest(with params: HttpRequestParams) async throws -> HttpOperationResult {
        var result = try await inner.sendRequest(with: params)
        if result.statusCode >= 400 { result.body = .bytes(Data()) }
        return result
    }
}

/// Keeps a cookie jar: stores every `Set-Cookie` and sends the cookies back on every later request.
final class KeepsCookies: MutantTransport {
    let inner: any HttpTransport
    private let jar = Locked<[String: String]>([:])
    init(_ inner: any HttpTransport) { self.inner = inner }

    func sendRequest(with params: HttpRequestParams) async throws -> HttpOperationResult {
        let cookies = jar.current.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }
        let request = cookies.isEmpty ? params : try params.settingHeader("Cookie", to: cookies.joined(separator: "; "))
        let result = try await inner.sendRequest(with: request)
        for cookie in result.headers.values(for: "Set-Cookie") {
            let pair = cookie.split(separator: ";", maxSplits: 1)[0].split(separator: "=", maxSplits: 1)
            if pair.count == 2 { jar.withLock { $0[String(pair[0])] = String(pair[1]) } }
        }
        return result
    }
}

/// Sends a request again, whatever its method, when its connection failed.
/// Sends any request once more when the first attempt timed out: within the 0.9–3 s a 1 s timeout may take, so only a
/// count of what the server received catches it.
final class ResendsAfterTimeout: MutantTransport {
    let inner: any HttpTransport
    init(_ inner: any HttpTransport) { self.inner = inner }

    func sendRequest(with params: HttpRequestParams) async throws -> HttpOperationResult {
        do {
            return try await inner.sendRequest(with: params)
        } catch let error as URLError where error.code == .timedOut {
            return try await inner.sendRequest(with: params)
        }
    }
}

final class ResendsAfterConnectionError: MutantTransport {
    let inner: any HttpTransport
    init(_ inner: any HttpTransport) { self.inner = inner }

    func sendRequest(with params: HttpRequestParams) async throws -> HttpOperationResult {
        do {
            return try await inner.sendRequest(with: params)
        } catch let error as URLError where error.code == .networkConnectionLost {
            return try await inner.sendRequest(with: params)
        }
    }
}

/// Reports no progress: the call's reporter never reaches the transport.
final class ReportsNoProgress: MutantTransport {
    let inner: any HttpTransport
    init(_ inner: any HttpTransport) { self.inner = inner }

    func sendRequest(with params: HttpRequestParams) async throws -> HttpOperationResult {
        var request = params
        request.progress = nil
        return try await inner.sendRequest(with: request)
    }
}

/// Ignores cancellation: the exchange runs in a task of its own, which the caller's cancellation never reaches, and
/// the call waits for its answer.
final class IgnoresCancellation: MutantTransport {
    let inner: any HttpTransport
    init(_ inner: any HttpTransport) { self.inner = inner }

    func sendRequest(with params: HttpRequestParams) async throws -> HttpOperationResult {
        let inner = inner
        return try await Task { try await inner.sendRequest(with: params) }.value
    }
}

/// Follows a redirect itself, with a `GET`, instead of returning the `3xx` to RetroSwift's policy.
final class FollowsRedirects: MutantTransport {
    let inner: any HttpTransport
    init(_ inner: any HttpTransport) { self.inner = inner }

    func sendRequest(with params: HttpRequestParams) async throws -> HttpOperationResult {
        let result = try await inner.sendRequest(with: params)
        guard (300..<400).contains(result.statusCode), let location = result.headers["Location"],
            let target = URL(string: location, relativeTo: result.url ?? params.url)?.absoluteURL
        else { return result }
        var next = params
        next.absoluteURL = target
        next.method = .get
        next.payload = nil
        return try await inner.sendRequest(with: next)
    }
}

/// Reorders header fields: sends the request's fields, and hands back the response's, in reverse. (Sorting them by
/// name, the other reordering that comes to mind, changes nothing through URLSession, which sorts them itself.)
final class ReordersFields: MutantTransport {
    let inner: any HttpTransport
    init(_ inner: any HttpTransport) { self.inner = inner }

    func sendRequest(with params: HttpRequestParams) async throws -> HttpOperationResult {
        var request = params
        request.headers.reverse()
        var result = try await inner.sendRequest(with: request)
        result.headers = HTTPHeaderFields(result.headers.fields.reversed())
        return result
    }
}

/// Adds a credential of its own to every request.
final class AddsAuthorization: MutantTransport {
    let inner: any HttpTransport
    init(_ inner: any HttpTransport) { self.inner = inner }

    func sendRequest(with params: HttpRequestParams) async throws -> HttpOperationResult {
        try await inner.sendRequest(with: params.settingHeader("Authorization", to: "Bearer mutant-token"))
    }
}

/// Joins the fields of a repeated name into one, `Set-Cookie` included.
final class JoinsRepeatedFields: MutantTransport {
    let inner: any HttpTransport
    init(_ inner: any HttpTransport) { self.inner = inner }

    func sendRequest(with params: HttpRequestParams) async throws -> HttpOperationResult {
        var result = try await inner.sendRequest(with: params)
        var joined: [HTTPHeader] = []
        for field in result.headers.fields {
            if let index = joined.firstIndex(where: { $0.name.lowercased() == field.name.lowercased() }) {
                joined[index] = HTTPHeader(name: joined[index].name, value: joined[index].value + ", " + field.value)
            } else {
                joined.append(field)
            }
        }
        result.headers = HTTPHeaderFields(joined)
        return result
    }
}

/// Drops the last chunk of a streamed body that ends in an error: each chunk is held until the next one comes, and
/// the one held when the error comes is lost.
final class DropsLastChunkBeforeError: MutantTransport {
    let inner: any HttpTransport
    init(_ inner: any HttpTransport) { self.inner = inner }

    func sendRequest(with params: HttpRequestParams) async throws -> HttpOperationResult {
        var result = try await inner.sendRequest(with: params)
        guard let body = result.bodyStream else { return result }
        let (stream, writer) = HTTPBodyStream.makeStream()
        Task {
            var held: Data?
            do {
                for try await chunk in body {
                    if let held { try await writer.write(held) }
                    held = chunk
                }
                if let held { try await writer.write(held) }
                writer.finish()
            } catch {
                writer.finish(throwing: error)
            }
        }
        result.body = .stream(stream)
        return result
    }
}

/// Holds a body past the call's limits: the transport underneath reads it with no limits at all.
final class IgnoresLimits: MutantTransport {
    let inner: any HttpTransport
    init(_ inner: any HttpTransport) { self.inner = inner }

    func sendRequest(with params: HttpRequestParams) async throws -> HttpOperationResult {
        let unlimited = ResponseLimits(
            maxHeaderFields: .max, maxHeaderBytes: .max, maxBodyBytes: .max, maxDecompressionRatio: .max, maxStreamElementBytes: .max)
        return try await inner.sendRequest(with: remade(params, responseLimits: unlimited))
    }
}

/// `params` made again with another timeout or other limits (both are `let`s), every other part copied over.
private func remade(
    _ params: HttpRequestParams, timeout: TimeInterval?? = nil, responseLimits: ResponseLimits? = nil
) -> HttpRequestParams {
    var request = HttpRequestParams(
        method: params.method, encodedPath: params.encodedPath, encodedQuery: params.encodedQuery, queryItems: params.queryItems,
        headers: params.headers, payload: params.payload, timeout: timeout ?? params.timeout,
        responseDestination: params.responseDestination, endpoint: params.endpoint, domainTarget: params.domainTarget,
        responseLimits: responseLimits ?? params.responseLimits)
    request.absoluteURL = params.absoluteURL
    request.withheldSharedHeaders = params.withheldSharedHeaders
    request.withholdsSharedHeaders = params.withholdsSharedHeaders
    request.progress = params.progress
    request.attempt = params.attempt
    request.serverTrust = params.serverTrust
    request.clientIdentity = params.clientIdentity
    request.caching = params.caching
    request.dynamicURLState = params.dynamicURLState
    request.target = params.target
    return request
}

/// Turns the timeout into a deadline for the whole call, as a transport that arms one timer when the call starts does: a
/// call still running when its timeout has passed fails with `URLError(.timedOut)`, however steadily its bytes move.
final class WholeCallDeadline: MutantTransport {
    let inner: any HttpTransport
    init(_ inner: any HttpTransport) { self.inner = inner }

    func sendRequest(with params: HttpRequestParams) async throws -> HttpOperationResult {
        guard let timeout = params.timeout, timeout.isFinite else { return try await inner.sendRequest(with: params) }
        let inner = inner
        return try await withThrowingTaskGroup(of: HttpOperationResult.self) { group in
            group.addTask { try await inner.sendRequest(with: params) }
            group.addTask {
                try await Task.sleep(for: .seconds(timeout))
                throw URLError(.timedOut)
            }
            // The first to finish decides; the other is cancelled (the call ends at once, as cancelled calls do).
            defer { group.cancelAll() }
            guard let first = try await group.next() else { throw URLError(.unknown) }
            return first
        }
    }
}

/// Uses a timeout of 2.5 s whatever the call asks for, as a transport with a fixed timeout of its own does.
final class FixedTimeout: MutantTransport {
    let inner: any HttpTransport
    init(_ inner: any HttpTransport) { self.inner = inner }

    func sendRequest(with params: HttpRequestParams) async throws -> HttpOperationResult {
        try await inner.sendRequest(with: remade(params, timeout: 2.5))
    }
}

/// Rounds the timeout down to whole seconds, as swift-corelibs-foundation does with `timeoutInterval`: 1.5 s becomes
/// 1 s, and a timeout under a second fires at once.
final class WholeSecondTimeouts: MutantTransport {
    let inner: any HttpTransport
    init(_ inner: any HttpTransport) { self.inner = inner }

    func sendRequest(with params: HttpRequestParams) async throws -> HttpOperationResult {
        guard let timeout = params.timeout, timeout.isFinite else { return try await inner.sendRequest(with: params) }
        guard timeout >= 1 else { throw URLError(.timedOut) }
        return try await inner.sendRequest(with: remade(params, timeout: timeout.rounded(.down)))
    }
}

/// Hands a compressed body back still compressed: the decoded bytes are encoded again as the server sent them, as a
/// transport that skips decoding would return them.
final class SkipsDecompression: MutantTransport {
    let inner: any HttpTransport
    init(_ inner: any HttpTransport) { self.inner = inner }

    func sendRequest(with params: HttpRequestParams) async throws -> HttpOperationResult {
        var result = try await inner.sendRequest(with: params)
        switch result.headers["Content-Encoding"]?.lowercased() {
        case "gzip": result.data = CompressedBody.gzip(result.data)
        case "deflate": result.data = CompressedBody.zlib(result.data)
        default: break
        }
        return result
    }
}

/// Reports another URL than the one requested: the server's root. (Reporting none would change nothing: RetroSwift
/// then takes the URL it requested.)
final class ReportsWrongURL: MutantTransport {
    let inner: any HttpTransport
    init(_ inner: any HttpTransport) { self.inner = inner }

    func sendRequest(with params: HttpRequestParams) async throws -> HttpOperationResult {
        var result = try await inner.sendRequest(with: params)
        result.url = URL(string: "/", relativeTo: params.url)?.absoluteURL
        return result
    }
}

/// Reports one failure as another: a timeout as a lost connection, or a connection lost after the request went out
/// as one never made (as async-http-client's error mapping once did: a retry policy would then take a POST the server
/// has for one never sent).
final class MisreportsError: MutantTransport {
    let inner: any HttpTransport
    let reported: URLError.Code
    let instead: URLError.Code
    init(_ inner: any HttpTransport, reporting reported: URLError.Code, as instead: URLError.Code) {
        self.inner = inner
        self.reported = reported
        self.instead = instead
    }

    func sendRequest(with params: HttpRequestParams) async throws -> HttpOperationResult {
        do {
            return try await inner.sendRequest(with: params)
        } catch let error as URLError where error.code == reported {
            throw URLError(instead)
        }
    }
}

/// Reads a body stream of unknown length whole before sending it, with a `Content-Length`, as a client that cannot
/// send chunked would: nothing of it reaches the server until the stream ends.
final class BuffersStreamBodies: MutantTransport {
    let inner: any HttpTransport
    init(_ inner: any HttpTransport) { self.inner = inner }

    func sendRequest(with params: HttpRequestParams) async throws -> HttpOperationResult {
        guard let payload = params.payload, case .stream(let stream) = payload.content, stream.length == nil else {
            return try await inner.sendRequest(with: params)
        }
        var request = params
        request.payload = RequestPayload(contentType: payload.contentType, content: .data(try await HTTPRequestBody.stream(stream).data()))
        return try await inner.sendRequest(with: request)
    }
}

/// Drops the body of an error status when the call asked for a file or a stream, as a transport that sends every body
/// of such a call to the file or stream, and hands RetroSwift none, would.
final class DropsErrorBodiesOfDownloads: MutantTransport {
    let inner: any HttpTransport
    init(_ inner: any HttpTransport) { self.inner = inner }

    func sendRequest(with params: HttpRequestParams) async throws -> HttpOperationResult {
        var result = try await inner.sendRequest(with: params)
        if result.statusCode >= 400, params.responseDestination != .memory { result.body = .bytes(Data()) }
        return result
    }
}

/// Returns a download to a file whose connection broke as a success, with the file as far as it got (here empty).
final class ReturnsCutDownloads: MutantTransport {
    let inner: any HttpTransport
    init(_ inner: any HttpTransport) { self.inner = inner }

    func sendRequest(with params: HttpRequestParams) async throws -> HttpOperationResult {
        do {
            return try await inner.sendRequest(with: params)
        } catch let error as URLError where error.code == .networkConnectionLost && params.responseDestination == .file {
            let file = FileManager.default.temporaryDirectory.appendingPathComponent("mutant-\(UUID().uuidString)")
            try Data().write(to: file)
            return HttpOperationResult(statusCode: 200, body: .file(file), url: params.url)
        }
    }
}

/// Reports the URL requested without its query.
final class DropsQueryFromURL: MutantTransport {
    let inner: any HttpTransport
    init(_ inner: any HttpTransport) { self.inner = inner }

    func sendRequest(with params: HttpRequestParams) async throws -> HttpOperationResult {
        var result = try await inner.sendRequest(with: params)
        var components = URLComponents(url: result.url ?? params.url, resolvingAgainstBaseURL: true)
        components?.query = nil
        result.url = components?.url
        return result
    }
}

/// Sends the request without its body.
final class DropsRequestBody: MutantTransport {
    let inner: any HttpTransport
    init(_ inner: any HttpTransport) { self.inner = inner }

    func sendRequest(with params: HttpRequestParams) async throws -> HttpOperationResult {
        var request = params
        request.payload = nil
        return try await inner.sendRequest(with: request)
    }
}

/// Alters the status: rounds it down to the first of its class (203 to 200, 418 to 400, 503 to 500), as a client
/// that keeps only the class would.
final class RoundsStatus: MutantTransport {
    let inner: any HttpTransport
    init(_ inner: any HttpTransport) { self.inner = inner }

    func sendRequest(with params: HttpRequestParams) async throws -> HttpOperationResult {
        var result = try await inner.sendRequest(with: params)
        result.statusCode = result.statusCode / 100 * 100
        return result
    }
}

/// Answers a repeated `GET` from a cache of its own: the previous response for the same URL, without sending.
final class CachesResponses: MutantTransport {
    let inner: any HttpTransport
    private let cache = Locked<[String: HttpOperationResult]>([:])
    init(_ inner: any HttpTransport) { self.inner = inner }

    func sendRequest(with params: HttpRequestParams) async throws -> HttpOperationResult {
        let key = params.urlString
        guard params.method == .get, params.responseDestination == .memory else { return try await inner.sendRequest(with: params) }
        if let cached = cache.current[key] { return cached }
        let result = try await inner.sendRequest(with: params)
        cache.withLock { $0[key] = result }
        return result
    }
}

/// Refuses a URL whose scheme is not in lower case, as swift-corelibs-foundation does: `HTTP://` fails with
/// `URLError(.unsupportedURL)` before anything is sent.
final class RefusesCapitalSchemes: MutantTransport {
    let inner: any HttpTransport
    init(_ inner: any HttpTransport) { self.inner = inner }

    func sendRequest(with params: HttpRequestParams) async throws -> HttpOperationResult {
        let scheme = params.urlString.utf8.prefix { $0 != UInt8(ascii: ":") }
        if scheme.contains(where: { (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains($0) }) { throw URLError(.unsupportedURL) }
        return try await inner.sendRequest(with: params)
    }
}

/// A mutant through which calls with a `ServerTrust` still reach the transport underneath: it enforces what that one
/// does, so that RetroSwift does not refuse them before sending (and the TLS cases see the mutant at work).
protocol TrustForwardingMutant: MutantTransport, ServerTrustEnforcing {}

extension TrustForwardingMutant {
    var serverTrustSupport: ServerTrustSupport { (inner as? any ServerTrustEnforcing)?.serverTrustSupport ?? [] }
}

/// Refuses a host that is an IPv6 literal, as swift-corelibs-foundation does on Linux (libcurl reads the host as
/// `[::1]`, Foundation as `::1`, and the two must agree): `URLError(.badURL)` before anything is sent.
final class RefusesIPv6Literals: TrustForwardingMutant {
    let inner: any HttpTransport
    init(_ inner: any HttpTransport) { self.inner = inner }

    func sendRequest(with params: HttpRequestParams) async throws -> HttpOperationResult {
        if params.url.host?.contains(":") == true { throw URLError(.badURL) }
        return try await inner.sendRequest(with: params)
    }
}

/// Keeps connections per host as written, as a pool keyed by the host's spelling does: the calls to each spelling of a
/// host go through a transport of their own, which shares no connection with the others.
final class PoolsByHostSpelling: TrustForwardingMutant {
    let inner: any HttpTransport
    private let make: @Sendable (Int) -> any HttpTransport
    private let bySpelling = Locked<[String: any HttpTransport]>([:])
    init(_ make: @escaping @Sendable (Int) -> any HttpTransport) {
        self.make = make
        inner = make(0)
    }

    func sendRequest(with params: HttpRequestParams) async throws -> HttpOperationResult {
        // The authority as written: what follows "://" up to the path.
        let url = params.urlString
        let spelling = String(url.range(of: "://").map { url[$0.upperBound...].prefix { $0 != "/" && $0 != "?" } } ?? url[...])
        let transport = bySpelling.withLock { transports in
            if let transport = transports[spelling] { return transport }
            let transport = transports.isEmpty ? inner : make(transports.count)
            transports[spelling] = transport
            return transport
        }
        return try await transport.sendRequest(with: params)
    }
}

/// Reaches an IP literal under a name: `https://127.0.0.1:port` is requested as `https://localhost:port`, so the
/// transport sends `localhost` as the server name (SNI) and verifies the certificate for it, as a transport that
/// resolved the address to a name before the handshake would.
final class NamesIPLiterals: TrustForwardingMutant {
    let inner: any HttpTransport
    init(_ inner: any HttpTransport) { self.inner = inner }

    func sendRequest(with params: HttpRequestParams) async throws -> HttpOperationResult {
        let url = params.urlString
        guard url.hasPrefix("https://127.0.0.1:"), let named = URL(string: "https://localhost:" + url.dropFirst(18)) else {
            return try await inner.sendRequest(with: params)
        }
        var request = params
        request.absoluteURL = named
        return try await inner.sendRequest(with: request)
    }
}

/// Presents no client certificate: the domain's `ClientIdentity` is dropped before the transport sees the call, as a
/// transport that never reads `HttpRequestParams.clientIdentity` yet claims to present it would.
final class DropsClientIdentity: TrustForwardingMutant {
    let inner: any HttpTransport
    init(_ inner: any HttpTransport) { self.inner = inner }

    func sendRequest(with params: HttpRequestParams) async throws -> HttpOperationResult {
        var request = params
        request.clientIdentity = nil
        return try await inner.sendRequest(with: request)
    }
}

/// Presents the first client certificate it is given on every later call, whatever its domain's: a transport with one
/// TLS configuration for all its domains, or a pool that ignores the identity, does as much.
final class PresentsFirstClientIdentity: TrustForwardingMutant {
    let inner: any HttpTransport
    private let first = Locked<ClientIdentity?>(nil)
    init(_ inner: any HttpTransport) { self.inner = inner }

    func sendRequest(with params: HttpRequestParams) async throws -> HttpOperationResult {
        var request = params
        request.clientIdentity = first.withLock { first in
            if first == nil { first = params.clientIdentity }
            return first
        }
        return try await inner.sendRequest(with: request)
    }
}
