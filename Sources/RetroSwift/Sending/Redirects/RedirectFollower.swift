import Foundation

/// Follows `3xx` redirects by the rules of ``RedirectPolicy``.
///
/// It sits between the last interceptor and the transport: headers an interceptor added (a bearer token) are
/// withheld from other origins like the request's own, one interceptor run covers the whole chain of redirects,
/// and every transport behaves the same because none of them follows redirects itself.
enum RedirectFollower {
    static func send(
        _ request: HttpRequestParams, policy: RedirectPolicy, to transport: any HttpTransport
    ) async throws -> HttpOperationResult {
        // A call cancelled before it reaches the network sends nothing.
        try Task.checkCancellation()
        if request.dynamicURLState != nil { return try await sendToOtherOrigin(request, policy: policy, to: transport) }
        let first = try await exchange(request, with: transport)
        // The everyday answer is no redirect: it costs one status check, nothing more.
        guard policy.followsRedirects, FollowedStatus(rawValue: first.statusCode) != nil else { return first }
        return try await follow(first, of: request, policy: policy, to: transport)
    }

    /// One exchange: through the domain's cache when it has one (``CachingExchange``), else with the transport.
    private static func exchange(_ request: HttpRequestParams, with transport: any HttpTransport) async throws -> HttpOperationResult {
        guard let caching = request.caching else { return try await networkExchange(request, with: transport) }
        return try await CachingExchange.send(request, caching: caching) { try await networkExchange($0, with: transport) }
    }

    /// One exchange with the transport, its response held to ``ResponseChecks`` before anything else sees it (or
    /// stores it); a refused response's stream is closed and its file deleted.
    private static func networkExchange(_ request: HttpRequestParams, with transport: any HttpTransport) async throws
        -> HttpOperationResult
    {
        if let trust = request.serverTrust { try checkEnforceable(trust, of: request, by: transport) }
        if request.clientIdentity != nil { try checkPresentable(request, by: transport) }
        var result: HttpOperationResult
        do {
            result = try await transport.sendRequest(with: request)
        } catch {
            // What the transport throws leaves it as a TransportError naming the endpoint and this hop's URL, so that
            // interceptors, and the caller, tell it from an error an interceptor threw.
            throw TransportError.wrapping(error, of: request)
        }
        // A relative `Location` resolves against the URL requested, which RetroSwift knows when the transport does
        // not say.
        if !result.reportsURL, request.target != nil || request.absoluteURL != nil { result.setURL(string: request.urlString) }
        // What a refused response leaves behind, kept apart so that the response itself moves into the checks.
        let stream = result.bodyStream
        let file = result.downloadedFileURL
        do {
            return try ResponseChecks.checked(result, for: request)
        } catch {
            stream?.discard()
            if let file { try? FileManager.default.removeItem(at: file) }
            throw error
        }
    }

    /// Refuses, before anything is sent, a call whose domain's trust `transport` cannot enforce, or that pins keys for
    /// a URL that TLS does not protect (a redirect's target included).
    private static func checkEnforceable(_ trust: ServerTrust, of request: HttpRequestParams, by transport: any HttpTransport)
        throws
    {
        let url = request.url
        let isHTTPS = url.scheme?.lowercased() == "https"
        if !isHTTPS {
            guard trust.pinnedPublicKeys.isEmpty else {
                throw RequestError(
                    .serverTrustUnsupported, endpoint: request.endpoint,
                    reason: "the domain's ServerTrust pins public keys, but '\(QueryRedaction().redact(url.absoluteString))' "
                        + "is not an https URL; nothing was sent")
            }
            return
        }
        let supported = (transport as? any ServerTrustEnforcing)?.serverTrustSupport ?? []
        let missing = trust.requirements.subtracting(supported)
        guard !missing.isEmpty else { return }
        let what =
            missing.contains(.publicKeyPins)
            ? "pins public keys" : "trusts certificate authorities of its own"
        throw RequestError(
            .serverTrustUnsupported, endpoint: request.endpoint,
            reason: "the domain's ServerTrust \(what), which \(type(of: transport)) cannot enforce "
                + "(see its serverTrustSupport); nothing was sent")
    }

    /// Refuses, before anything is sent, an `https` call whose domain's client identity `transport` cannot present: sent
    /// without it, the call would reach the server as another client. Over `http` there is nothing to present it to.
    private static func checkPresentable(_ request: HttpRequestParams, by transport: any HttpTransport) throws {
        guard request.url.scheme?.lowercased() == "https" else { return }
        let support = (transport as? any ServerTrustEnforcing)?.serverTrustSupport ?? []
        if support.contains(.clientIdentity) { return }
        guard support.contains(.pkcs12ClientIdentity) else {
            throw RequestError(
                .serverTrustUnsupported, endpoint: request.endpoint,
                reason: "the domain has a ClientIdentity, which \(type(of: transport)) cannot present "
                    + "(see its serverTrustSupport); nothing was sent")
        }
        guard case .pem? = request.clientIdentity?.material else { return }
        throw RequestError(
            .serverTrustUnsupported, endpoint: request.endpoint,
            reason: "the domain's ClientIdentity is made from PEM, and \(type(of: transport)) presents only one made from a "
                + "PKCS #12 archive, ClientIdentity(pkcs12:passphrase:) (see its serverTrustSupport); nothing was sent")
    }

    /// Sends a call that a `@Url` field leads to another origin, without the credentials interceptors added.
    private static func sendToOtherOrigin(
        _ request: HttpRequestParams, policy: RedirectPolicy, to transport: any HttpTransport
    ) async throws -> HttpOperationResult {
        var request = request
        request.dropAddedCredentials(policy)
        let first = try await exchange(request, with: transport)
        guard policy.followsRedirects, FollowedStatus(rawValue: first.statusCode) != nil else { return first }
        return try await follow(first, of: request, policy: policy, to: transport)
    }

    /// Follows the chain that `first`, the answer to `request`, starts.
    private static func follow(
        _ first: HttpOperationResult, of request: HttpRequestParams, policy: RedirectPolicy, to transport: any HttpTransport
    ) async throws -> HttpOperationResult {
        var request = request
        var result = first
        let originalOrigin = first.url.flatMap(Origin.init)
        var redirects = 0
        while let status = FollowedStatus(rawValue: result.statusCode), let location = result.header("Location") {
            try Task.checkCancellation()
            redirects += 1
            let target = try self.target(of: location, from: result, request: request, policy: policy, redirects: redirects)
            if Origin(target) == nil || Origin(target) != originalOrigin {
                // A client certificate is a credential too: another origin learns nothing of who the client is.
                request.clientIdentity = nil
                request.headers.removeAll { policy.isCredential($0.name) }
                request.withheldSharedHeaders.formUnion(RedirectPolicy.standardCredentialHeaders.union(policy.credentialHeaders))
            }
            if status.becomesGet(after: request.method) {
                request.method = .get
                request.payload = nil
                request.headers.removeAll { bodyHeaders.contains(HeaderName.key($0.name)) }
                request.withheldSharedHeaders.formUnion(bodyHeaders)
            }
            request.point(at: target)
            result = try await exchange(request, with: transport)
        }
        return result
    }

    /// The redirect statuses that are followed; `300`, `304`, `305` and `306` are returned as they are.
    private enum FollowedStatus: Int {
        case movedPermanently = 301, found = 302, seeOther = 303, temporaryRedirect = 307, permanentRedirect = 308

        /// RFC 9110 §15.4: after `303` anything but `HEAD` becomes `GET`; after `301` and `302` a `POST` does too
        /// (what user agents do, which the RFC allows); `307` and `308` never change the method.
        func becomesGet(after method: HTTPMethod) -> Bool {
            switch self {
            case .seeOther: method != .head && method != .get
            case .movedPermanently, .found: method == .post
            case .temporaryRedirect, .permanentRedirect: false
            }
        }
    }

    /// Headers that describe a body, dropped with it (the Fetch standard's request-body-header names).
    private static let bodyHeaders: Set<String> = [
        "content-type", "content-length", "content-encoding", "content-language", "content-location",
    ]

    /// The absolute URL `location` points to, or a ``RequestError`` when it may not be followed.
    private static func target(
        of location: String, from result: HttpOperationResult, request: HttpRequestParams, policy: RedirectPolicy,
        redirects: Int
    ) throws -> URL {
        func refused(_ reason: String) -> RequestError {
            RequestError(.redirectRefused, endpoint: request.endpoint, reason: reason, response: result)
        }
        if redirects > policy.maximumRedirects {
            throw refused("more than \(policy.maximumRedirects) redirects; the last was \(result.statusCode) to '\(location)'")
        }
        // `result.header("Location")` combines repeats; which of two to follow is unknowable.
        let locations = result.headers.values(for: "Location")
        if locations.count > 1 {
            throw refused("the \(result.statusCode) redirect has \(locations.count) Location fields; which one to follow is unknowable")
        }
        guard let resolved = URL(string: encodedLocation(location), relativeTo: result.url)?.absoluteURL,
            var components = URLComponents(url: resolved, resolvingAgainstBaseURL: false),
            let scheme = components.scheme?.lowercased(), components.host?.isEmpty == false
        else {
            let from = result.url.map { " from \($0.absoluteString)" } ?? " (the transport did not report the URL it requested)"
            throw refused(
                "the \(result.statusCode) redirect's Location '\(location)' is not an absolute URL or one relative to the response\(from)")
        }
        // URLSession would turn `user:password@` into an `Authorization: Basic` header: credentials chosen by whoever
        // wrote the Location, sent wherever it points. Refused on every transport rather than quietly stripped.
        if components.percentEncodedUser != nil || components.percentEncodedPassword != nil {
            throw refused(
                "the \(result.statusCode) redirect's Location '\(redactingUserInfo(location))' carries user information; "
                    + "credentials in a redirect are never used, so it is not followed"
            )
        }
        guard scheme == "http" || scheme == "https" else {
            throw refused("the \(result.statusCode) redirect leads to '\(location)'; only http and https are followed")
        }
        if scheme == "http", result.url?.scheme?.lowercased() == "https", !policy.allowsInsecureDowngrade {
            throw refused(
                "the \(result.statusCode) redirect leads from https to '\(location)'; allow it with "
                    + "RedirectPolicy.follow(allowingInsecureDowngrade: true)"
            )
        }
        // A fragment names a part of a document; it is never sent.
        components.fragment = nil
        guard let target = components.url else { throw refused("the \(result.statusCode) redirect's Location '\(location)' is not a URL") }
        return target
    }
}

/// `location` with any `user:password@` replaced by `***@`, so an error message never repeats a secret.
private func redactingUserInfo(_ location: String) -> String {
    guard let schemeEnd = location.range(of: "://") else { return location }
    let authorityEnd = location[schemeEnd.upperBound...].firstIndex { "/?#".contains($0) } ?? location.endIndex
    guard let at = location[schemeEnd.upperBound..<authorityEnd].lastIndex(of: "@") else { return location }
    return String(location[..<schemeEnd.upperBound]) + "***" + location[at...]
}

/// `location` with every byte that RFC 3986 allows nowhere in a URL (spaces, controls, non-ASCII) percent-encoded,
/// as browsers do; `%` is kept, so an already encoded `Location` stays as it is. `URL(string:)` would encode these
/// on some platforms and refuse them on others.
private func encodedLocation(_ location: String) -> String {
    PercentEncoding.encode(location, allowing: urlCharacters)
}

/// Every character RFC 3986 allows somewhere in a URL, and `%`.
private let urlCharacters = PercentEncoding.AllowedSet("-._~:/?#[]@!$&'()*+,;=%")

extension HttpRequestParams {
    /// Points the request at `target`: the URL transports use, and the path and query that logs and transports read.
    fileprivate mutating func point(at target: URL) {
        absoluteURL = target
        let components = URLComponents(url: target, resolvingAgainstBaseURL: false)
        let path = components?.percentEncodedPath ?? ""
        encodedPath = path.isEmpty ? "/" : path
        encodedQuery = components?.percentEncodedQuery
        queryItems = (components?.queryItems ?? []).map { HTTPQueryItem(name: $0.name, value: $0.value ?? "") }
    }
}
