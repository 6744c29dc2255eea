import Foundation

/// A call that failed on our side of the wire: a value that cannot be sent, a response that cannot be
/// decoded, or a transport that is not set up. Server refusals are ``HTTPError``; declaration mistakes are
/// ``DeclarationError``.
public struct RequestError: Error, Sendable, CustomStringConvertible, LocalizedError {
    /// What went wrong.
    public enum Kind: Sendable, Hashable {
        /// A request field holds a value that cannot be sent (path traversal, header injection, unsupported type).
        case invalidValue
        /// A response arrived but its body does not decode into the declared type.
        case undecodableResponse
        /// The JSON body could not be encoded.
        case unencodableBody
        /// No usable base URL: neither the domain nor the transport has one, the domain's base URL, shared headers or
        /// timeout are unusable, or two domains configured the transport differently. Nothing was sent.
        case transportNotConfigured
        /// A redirect was not followed: too many of them, a downgrade from `https` to `http`, a scheme other than
        /// `http` and `https`, or a `Location` that is not a URL. ``RequestError/response`` holds the `3xx`.
        case redirectRefused
        /// A response broke HTTP's rules: a `Content-Length` that is not one number or disagrees with itself or with
        /// the body, CR, LF or NUL in a field, a field name that is not a token. It is never passed on as an answer.
        case malformedResponse
        /// A response passed one of the call's ``ResponseLimits``: too many header fields or bytes, a body too large to
        /// hold in memory, or one that decompresses too far. Reading stopped there.
        case responseTooLarge
        /// The domain's ``ServerTrust`` asks for what the transport cannot enforce (see
        /// ``ServerTrustEnforcing/serverTrustSupport``), or pins public keys for a URL that is not `https`, or the domain
        /// has a ``ClientIdentity`` the transport cannot present. Nothing was sent.
        case serverTrustUnsupported
        /// A response's `Content-Type` is a media type the endpoint's ``BodyConverter`` does not read (an HTML page
        /// answering a JSON endpoint), and the converter refused it or, if it ``BodyConverter/decodesUnlistedMediaTypes``,
        /// could not decode it (that failure is the ``RequestError/underlyingError``). ``RequestError/response`` holds
        /// the response; the reason names the status, the media type and the body's first characters.
        case unreadableMediaType
    }

    /// What went wrong.
    public let kind: Kind
    /// The endpoint that failed, when known.
    public let endpoint: EndpointIdentity?
    /// The request field at fault, for ``Kind/invalidValue``.
    public let field: String?
    /// A readable explanation.
    public let reason: String
    /// The response, for ``Kind/undecodableResponse``, ``Kind/redirectRefused`` and, when its head was whole,
    /// ``Kind/malformedResponse`` (status code, headers and body).
    public let response: HttpOperationResult?
    /// The error that caused this one, such as a `DecodingError`.
    public let underlyingError: (any Error)?

    /// Creates an error; transports may throw these too.
    public init(
        _ kind: Kind, endpoint: EndpointIdentity?, field: String? = nil, reason: String,
        response: HttpOperationResult? = nil, underlyingError: (any Error)? = nil
    ) {
        self.kind = kind
        self.endpoint = endpoint
        self.field = field
        self.reason = reason
        self.response = response
        self.underlyingError = underlyingError
    }

    /// `SchedulesApi.deleteSchedule (DELETE /api/v1/schedule/{schedule_id}), field 'ScheduleId': ...`.
    public var description: String {
        var text = endpoint.map { "\($0)" } ?? "RetroSwift"
        if let field { text += ", field '\(field)'" }
        return text + ": " + reason
    }

    /// The same as ``description``.
    public var errorDescription: String? {
        description
    }

    /// What a transport that sends only absolute URLs throws for a request whose ``HttpRequestParams/url`` is relative:
    /// neither the domain nor the transport's `setConfiguration` gave RetroSwift a base URL.
    ///
    /// - Parameter request: The request that cannot be sent.
    /// - Returns: An error of kind ``Kind/transportNotConfigured`` naming the endpoint and the fix.
    public static func missingBaseURL(of request: HttpRequestParams) -> RequestError {
        RequestError(
            .transportNotConfigured, endpoint: request.endpoint,
            reason: "neither the domain nor the transport has a base URL; set the domain's baseURL or call the transport's "
                + "setConfiguration(baseURL:sharedHeaders:) first")
    }

    /// What a transport throws when it cannot read the request's ``HttpRequestParams/clientIdentity``: a PKCS #12
    /// archive its passphrase does not open, or a key its TLS library cannot load. Thrown before anything is sent.
    ///
    /// - Parameters:
    ///   - request: The request whose domain presents the identity.
    ///   - error: What the transport's TLS library threw.
    /// - Returns: An error of kind ``Kind/invalidValue`` naming the endpoint and the field `clientIdentity`, the
    ///   library's error kept as ``underlyingError``.
    public static func unreadableClientIdentity(of request: HttpRequestParams, _ error: any Error) -> RequestError {
        let what =
            switch request.clientIdentity?.material {
            case .pkcs12?: "its PKCS #12 archive could not be opened: a wrong passphrase, or an archive that is damaged"
            default: "its certificate or private key could not be read"
            }
        return RequestError(
            .invalidValue, endpoint: request.endpoint, field: "clientIdentity", reason: "\(what) (\(error))",
            underlyingError: error)
    }
}
