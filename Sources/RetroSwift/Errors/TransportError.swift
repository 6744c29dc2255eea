import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// A call whose exchange did not complete: the transport could not connect, timed out, lost the connection, failed
/// TLS or gave up otherwise. It names the endpoint, the method and the URL, and keeps the transport's error as it was
/// thrown, so the error that reaches your `catch` says where it happened:
///
/// ```
/// SchedulesApi.getSchedules (GET /api/v1/schedule) at https://api.example.com/api/v1/schedule?page=1: the request
/// timed out (URLError -1001)
/// ```
///
/// The transport's error becomes a `TransportError` as it leaves the transport, so interceptors see it as one too
/// (``RetryInterceptor`` retries by its ``code``). An error an interceptor, a token refresher or a mock throws of its
/// own is never wrapped: it reaches the caller as it was thrown, so `catch let error as MyError` matches it.
///
/// The shipped transports report their failures as `URLError`; ``code`` reads its code. Cancelling the calling task
/// throws `CancellationError` instead, as Swift code expects of a cancelled task.
public struct TransportError: Error, Sendable, CustomStringConvertible, LocalizedError {
    /// The endpoint that was called.
    public let endpoint: EndpointIdentity
    /// The URL the request went to, with the values of secret query parameters (``QueryRedaction``'s default names)
    /// reading `<redacted>`.
    public let url: String
    /// The error the transport threw.
    public let underlyingError: any Error

    /// Creates an error; the call pipeline makes these for you.
    ///
    /// - Parameters:
    ///   - endpoint: The endpoint that was called.
    ///   - url: The request's URL, already redacted.
    ///   - underlyingError: The error that was thrown.
    init(endpoint: EndpointIdentity, url: String, underlyingError: any Error) {
        self.endpoint = endpoint
        self.url = url
        self.underlyingError = underlyingError
    }

    /// The code of the underlying `URLError`, or `nil` when the underlying error is of another type.
    public var code: URLError.Code? {
        (underlyingError as? URLError)?.code
    }

    /// `SchedulesApi.getSchedules (GET /api/v1/schedule) at https://api.example.com/api/v1/schedule: the request
    /// timed out (URLError -1001)`.
    public var description: String {
        "\(endpoint) at \(url): \(reason)"
    }

    /// The same as ``description``.
    public var errorDescription: String? {
        description
    }

    /// What went wrong, in words: the common `URLError` codes are spelled out, other errors described as they
    /// describe themselves.
    private var reason: String {
        guard let error = underlyingError as? URLError else { return String(describing: underlyingError) }
        let words: String
        switch error.code {
        case .timedOut: words = "the request timed out"
        case .cannotConnectToHost: words = "could not connect to the server"
        case .cannotFindHost, .dnsLookupFailed: words = "the server's host name was not found"
        case .networkConnectionLost: words = "the connection was lost before the response was complete"
        case .notConnectedToInternet: words = "the device is not connected to the internet"
        case .secureConnectionFailed: words = "the TLS connection failed"
        case .serverCertificateUntrusted, .serverCertificateHasBadDate, .serverCertificateNotYetValid,
            .serverCertificateHasUnknownRoot:
            words = "the server's TLS certificate was not trusted"
        case .dataLengthExceedsMaximum: words = "the response was longer than allowed"
        case .badServerResponse: words = "the server's response could not be read"
        case .cancelled: words = "the request was cancelled"
        default: words = "the transport failed"
        }
        return "\(words) (URLError \(error.code.rawValue))"
    }

    /// `error` wrapped with the call's context, unless it already names where it happened (RetroSwift's own errors)
    /// or is a cancellation; `url` names where it happened when that is not the request's own URL (a streamed
    /// body after redirects).
    static func wrapping(_ error: any Error, of request: HttpRequestParams, at url: URL? = nil) -> any Error {
        switch error {
        case is CancellationError, is HTTPError, is RequestError, is DeclarationError, is PaginationError,
            is TransportError:
            return error
        default:
            let redacted = QueryRedaction().redact((url ?? request.url).absoluteString)
            return TransportError(endpoint: request.endpoint, url: redacted, underlyingError: error)
        }
    }
}
