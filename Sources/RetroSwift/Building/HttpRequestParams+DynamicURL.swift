import Foundation

/// Where a `@Url` field's full URL stands. `indirect`: a boxed payload keeps ``HttpRequestParams``, which every call
/// copies, one pointer larger instead of a string, a set and an array.
indirect enum DynamicURLState: Sendable {
    /// Built, its origin not yet compared with the base URL's (``HttpRequestParams/settleOrigin(baseURL:credentials:)``):
    /// the field, for the error, and the endpoint's policy.
    case pendingOriginCheck(field: String, policy: OtherHostPolicy)
    /// Bound for another origin without sharing credentials: the credential headers the request itself declared.
    /// ``RedirectFollower`` drops every other credential header, which interceptors added.
    case toOtherOrigin(declaredCredentials: [HTTPHeader])
}

extension HttpRequestParams {
    /// Compares the origin of a `@Url` field's full URL with the base URL's, before any interceptor runs: the same
    /// origin goes ahead as it is; another origin is refused unless the endpoint's ``OtherHostPolicy`` allows its
    /// host, and then goes without the shared headers and without credential headers other than the request's own
    /// (unless the policy shares credentials and the URL is not plain `http` from an `https` base).
    ///
    /// - Parameters:
    ///   - baseURL: The base URL the call would otherwise go to, or `nil` when it cannot be known (a transport that
    ///     keeps its configuration to itself): then every full URL counts as another origin.
    ///   - credentials: The call's redirect policy, which says which header names are credentials.
    /// - Throws: ``RequestError`` of kind ``RequestError/Kind/invalidValue`` naming the field when the host is not
    ///   allowed.
    mutating func settleOrigin(baseURL: URL?, credentials: RedirectPolicy) throws {
        guard case .pendingOriginCheck(let field, let policy) = dynamicURLState, let target = absoluteURL else { return }
        dynamicURLState = nil
        if let baseURL, let origin = Origin(target), Origin(baseURL) == origin { return }
        let host = OtherHostPolicy.normalized(target.host ?? "")
        guard policy.allows(host: host) else {
            let base = baseURL.map { "the base URL's (\($0.absoluteString))" } ?? "the base URL's, which the transport does not tell"
            let sameHost = baseURL.map { OtherHostPolicy.normalized($0.host ?? "") == host } ?? false
            throw RequestError(
                .invalidValue, endpoint: endpoint, field: field,
                reason: "the URL '\(target.absoluteString)' leads to another origin than \(base)"
                    + (sameHost ? " (the same host with another scheme or port)" : "") + "; nothing was sent. "
                    + "To allow it, declare the endpoint with otherHosts: .allowing([\"\(host)\"])"
            )
        }
        // Credentials never go out over plain http from an https (or unknown) base, whatever the policy says.
        let downgrade = target.scheme?.lowercased() == "http" && baseURL?.scheme?.lowercased() != "http"
        guard !policy.sharesCredentials || downgrade else { return }
        withholdsSharedHeaders = true
        withheldSharedHeaders.formUnion(RedirectPolicy.standardCredentialHeaders.union(credentials.credentialHeaders))
        dynamicURLState = .toOtherOrigin(declaredCredentials: headers.filter { credentials.isCredential($0.name) })
    }

    /// Drops the credential headers that interceptors added to a call bound for another origin (see
    /// ``DynamicURLState/toOtherOrigin(declaredCredentials:)``), and the domain's client identity; the request's own
    /// headers are sent as declared, even when an interceptor replaced them.
    mutating func dropAddedCredentials(_ credentials: RedirectPolicy) {
        guard case .toOtherOrigin(let declared) = dynamicURLState else { return }
        clientIdentity = nil
        headers.removeAll { credentials.isCredential($0.name) && !declared.contains($0) }
        for header in declared where !headers.contains(header) { headers.append(header) }
    }
}
