import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The delegate of one URLSession task started by ``URLSessionTransport``.
///
/// - Redirects are refused, so the `3xx` comes back to RetroSwift, which follows it by its ``RedirectPolicy``:
///   URLSession on Linux would otherwise send `Authorization` and cookies on to another host, and drop the body
///   of a `307`.
/// - An HTTP authentication challenge (Basic, Digest, NTLM, Negotiate) is answered only with the transport's
///   configured credential, only for the configured host, and only once; otherwise the `401` or `407` is the
///   answer. Server-trust and client-certificate challenges get URLSession's default handling.
// @unchecked Sendable: URLSession calls it from its delegate queue; `refused` is only touched while `lock` is held.
final class SessionTaskDelegate: NSObject, URLSessionTaskDelegate, @unchecked Sendable {
    private let credential: URLCredential?
    private let credentialOrigin: URL?
    private let lock = NSLock()
    private var refused: HTTPURLResponse?

    /// - Parameters:
    ///   - credential: The credential to answer challenges with, if any.
    ///   - credentialOrigin: The base URL whose host and port may receive it.
    init(credential: URLCredential?, credentialOrigin: URL?) {
        self.credential = credential
        self.credentialOrigin = credentialOrigin
    }

    /// The challenge response this delegate refused to answer, when it did.
    var refusedChallengeResponse: HTTPURLResponse? {
        lock.withLock { refused }
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
        guard Self.httpAuthenticationMethods.contains(space.authenticationMethod) else {
            completionHandler(.performDefaultHandling, nil)
            return
        }
        if let credential, challenge.previousFailureCount == 0, isCredentialOrigin(space) {
            completionHandler(.useCredential, credential)
            return
        }
        #if canImport(FoundationNetworking)
        // swift-corelibs-foundation waits forever after a challenge it cannot answer; cancelling ends the task at
        // once, and the runner returns the response kept here.
        lock.withLock { refused = challenge.failureResponse as? HTTPURLResponse }
        completionHandler(.cancelAuthenticationChallenge, nil)
        #else
        // Apple's URLSession delivers the 401 with its body when it has no stored credential to try.
        completionHandler(.performDefaultHandling, nil)
        #endif
    }

    private func isCredentialOrigin(_ space: URLProtectionSpace) -> Bool {
        guard let origin = credentialOrigin, let host = origin.host else { return false }
        let port = origin.port ?? (origin.scheme?.lowercased() == "https" ? 443 : 80)
        return space.host.lowercased() == host.lowercased() && space.port == port
    }

    private static let httpAuthenticationMethods: Set<String> = [
        NSURLAuthenticationMethodHTTPBasic, NSURLAuthenticationMethodHTTPDigest, NSURLAuthenticationMethodNTLM,
        NSURLAuthenticationMethodNegotiate,
    ]
}
