import Foundation
import RetroSwift

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The delegate of one URLSession task started by ``URLSessionTransport``.
///
/// - Redirects are refused, so the `3xx` comes back to RetroSwift, which follows it by its ``RedirectPolicy``:
///   URLSession on Linux would otherwise send `Authorization` and cookies on to another host, and drop the body
///   of a `307`.
/// - An HTTP authentication challenge (Basic, Digest; NTLM and Negotiate on Apple platforms) is answered only with
///   the transport's configured credential, only for the configured origin, and only once; otherwise the `401` is
///   the answer.
/// - A server-trust challenge of a call whose domain has a ``ServerTrust`` is decided by it, on Apple platforms (the
///   only ones that deliver server-trust challenges): the chain is verified against its certificate authorities and
///   the host name, then held to its pins.
/// - A client-certificate challenge of a call whose domain has a ``ClientIdentity`` is answered with it, on Apple
///   platforms.
/// - Every other challenge (server trust, client certificates) goes to the delegate of the session the user gave,
///   so certificate pinning done there keeps working; without one, URLSession's default handling applies.
// @unchecked Sendable: an NSObject subclass cannot be checked; its stored properties are `let`s of Sendable types.
final class SessionTaskDelegate: NSObject, URLSessionTaskDelegate, @unchecked Sendable {
    private let credential: URLCredential?
    private let credentialOrigin: URL?
    private let userSession: URLSession
    private let serverTrust: ServerTrust?
    private let clientCredential: URLCredential?
    private let refused = Locked<HTTPURLResponse?>(nil)
    private let refusedTrust = Locked(false)

    /// - Parameters:
    ///   - credential: The credential to answer HTTP authentication challenges with, if any.
    ///   - credentialOrigin: The base URL whose scheme, host and port may receive it.
    ///   - userSession: The session the transport was given, whose delegate decides every other challenge.
    ///   - serverTrust: The call's trust, which decides server-trust challenges instead of the user's delegate.
    ///   - clientCredential: The domain's client identity, which answers client-certificate challenges instead of the
    ///     user's delegate.
    init(
        credential: URLCredential?, credentialOrigin: URL?, userSession: URLSession, serverTrust: ServerTrust? = nil,
        clientCredential: URLCredential? = nil
    ) {
        self.credential = credential
        self.credentialOrigin = credentialOrigin
        self.userSession = userSession
        self.serverTrust = serverTrust
        self.clientCredential = clientCredential
    }

    /// Whether this delegate refused the server's chain, which ends the task as cancelled.
    var refusedServerTrust: Bool {
        refusedTrust.current
    }

    /// The challenge response this delegate refused to answer, when it did.
    var refusedChallengeResponse: HTTPURLResponse? {
        refused.current
    }

    func urlSession(
        _ session: URLSession, task: URLSessionTask, willPerformHTTPRedirection response: HTTPURLResponse,
        newRequest request: URLRequest, completionHandler: @escaping @Sendable (URLRequest?) -> Void
    ) {
        completionHandler(nil)
    }

    func urlSession(
        _ session: URLSession, task: URLSessionTask, didReceive challenge: URLAuthenticationChallenge,
        completionHandler: @escaping @Sendable (URLSession.AuthChallengeDisposition, URLCredential?) -> Void
    ) {
        let space = challenge.protectionSpace
        #if canImport(Security) && !canImport(FoundationNetworking)
            if space.authenticationMethod == NSURLAuthenticationMethodServerTrust, let serverTrust, let trust = space.serverTrust {
                guard ServerTrustEvaluation.accepts(trust, host: space.host, by: serverTrust) else {
                    refusedTrust.withLock { $0 = true }
                    return completionHandler(.cancelAuthenticationChallenge, nil)
                }
                return completionHandler(.useCredential, URLCredential(trust: trust))
            }
            if space.authenticationMethod == NSURLAuthenticationMethodClientCertificate, let clientCredential {
                return completionHandler(.useCredential, clientCredential)
            }
        #endif
        guard Self.httpAuthenticationMethods.contains(space.authenticationMethod) else {
            return forwardToUserDelegate(challenge, task: task, completionHandler: completionHandler)
        }
        if let credential, challenge.previousFailureCount == 0, isCredentialOrigin(space) {
            return completionHandler(.useCredential, credential)
        }
        #if canImport(FoundationNetworking)
            // swift-corelibs-foundation has no way to go on without a credential (it waits forever after a challenge
            // it cannot answer); cancelling ends the task at once, losing the body, and the runner returns the
            // response kept here.
            refused.withLock { $0 = challenge.failureResponse as? HTTPURLResponse }
            completionHandler(.cancelAuthenticationChallenge, nil)
        #else
            // No credential: go on without one, so the 401 arrives with its body (default handling could try stored
            // credentials the user never gave this transport).
            completionHandler(.useCredential, nil)
        #endif
    }

    /// Hands a challenge that is not HTTP authentication to the user's session delegate, task level first.
    private func forwardToUserDelegate(
        _ challenge: URLAuthenticationChallenge, task: URLSessionTask,
        completionHandler: @escaping @Sendable (URLSession.AuthChallengeDisposition, URLCredential?) -> Void
    ) {
        #if canImport(FoundationNetworking)
            // swift-corelibs-foundation's protocol methods are not optional: the default answers default handling.
            guard let delegate = userSession.delegate as? URLSessionTaskDelegate else {
                return completionHandler(.performDefaultHandling, nil)
            }
            delegate.urlSession(userSession, task: task, didReceive: challenge, completionHandler: completionHandler)
        #else
            let delegate = userSession.delegate
            if let taskDelegate = delegate as? URLSessionTaskDelegate,
                taskDelegate.responds(to: #selector(URLSessionTaskDelegate.urlSession(_:task:didReceive:completionHandler:)))
            {
                taskDelegate.urlSession?(userSession, task: task, didReceive: challenge, completionHandler: completionHandler)
            } else if let delegate, delegate.responds(to: #selector(URLSessionDelegate.urlSession(_:didReceive:completionHandler:))) {
                delegate.urlSession?(userSession, didReceive: challenge, completionHandler: completionHandler)
            } else {
                completionHandler(.performDefaultHandling, nil)
            }
        #endif
    }

    /// The credential goes only to the configured scheme, host and port, and never to a proxy.
    private func isCredentialOrigin(_ space: URLProtectionSpace) -> Bool {
        guard let origin = credentialOrigin, let host = origin.host, let scheme = origin.scheme?.lowercased(), !space.isProxy() else {
            return false
        }
        let port = origin.port ?? (scheme == "https" ? 443 : 80)
        let spaceScheme = space.protocol?.lowercased()
        return space.host.lowercased() == host.lowercased() && space.port == port && (spaceScheme == nil || spaceScheme == scheme)
    }

    private static let httpAuthenticationMethods: Set<String> = [
        NSURLAuthenticationMethodHTTPBasic, NSURLAuthenticationMethodHTTPDigest, NSURLAuthenticationMethodNTLM,
        NSURLAuthenticationMethodNegotiate,
    ]
}
