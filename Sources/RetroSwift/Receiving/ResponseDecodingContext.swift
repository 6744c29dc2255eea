import Foundation

/// What a response type needs to decode a response: the domain's decoder and the endpoint, for errors.
public struct ResponseDecodingContext: Sendable {
    /// The domain's JSON decoder.
    public let decoder: JSONDecoder
    /// The endpoint being called.
    public let endpoint: EndpointIdentity
    /// The domain's limits; streamed responses read ``ResponseLimits/maxStreamElementBytes`` from them.
    public let responseLimits: ResponseLimits

    /// Creates a context; tests of custom response types use this.
    ///
    /// - Parameters:
    ///   - decoder: The JSON decoder.
    ///   - endpoint: The endpoint being called, for errors.
    ///   - responseLimits: The limits the response is held to; ``ResponseLimits/default`` unless given.
    public init(decoder: JSONDecoder, endpoint: EndpointIdentity, responseLimits: ResponseLimits = .default) {
        self.decoder = decoder
        self.endpoint = endpoint
        self.responseLimits = responseLimits
    }

    /// Decodes `type` from `response` by RetroSwift's rules: an ``HTTPResponseDecodable`` type reads the response
    /// itself; any other `Decodable` is JSON-decoded from a 2xx body; a non-2xx status throws ``HTTPError``.
    public func decode<T>(_ type: T.Type, from response: HttpOperationResult) throws -> T {
        try decode(type, from: response, acceptingAnyStatus: false)
    }

    /// The same, but decoding the body whatever the status: how `Either` reads an error body.
    func decode<T>(_ type: T.Type, from response: HttpOperationResult, acceptingAnyStatus: Bool) throws -> T {
        let statusAccepted = acceptingAnyStatus || response.isSuccess
        if let custom = T.self as? any HTTPResponseDecodable.Type {
            guard statusAccepted || custom.decodesErrorStatuses else {
                throw HTTPError(response: response, endpoint: endpoint)
            }
            return try cast(custom.decode(from: response, context: self))
        }
        guard statusAccepted else { throw HTTPError(response: response, endpoint: endpoint) }
        guard let decodable = T.self as? any Decodable.Type else {
            throw RequestError(.undecodableResponse, endpoint: endpoint, reason: "\(T.self) is not Decodable", response: response)
        }
        return try cast(decodeJSON(decodable, from: response))
    }

    /// JSON-decodes `type` from the body, wrapping failures in a ``RequestError`` that names the endpoint.
    public func decodeJSON<T: Decodable>(_ type: T.Type, from response: HttpOperationResult) throws -> T {
        do {
            return try decoder.decode(T.self, from: response.body)
        } catch {
            throw RequestError(
                .undecodableResponse, endpoint: endpoint,
                reason: "the HTTP \(response.statusCode) body does not decode as \(T.self): \(Self.describe(error))",
                response: response, underlyingError: error
            )
        }
    }

    private func cast<T>(_ value: Any) throws -> T {
        guard let typed = value as? T else {
            throw RequestError(.undecodableResponse, endpoint: endpoint, reason: "decoded \(type(of: value)), expected \(T.self)")
        }
        return typed
    }

    static func describe(_ error: any Error) -> String {
        guard let decodingError = error as? DecodingError else { return "\(error)" }
        switch decodingError {
        case .dataCorrupted(let context), .keyNotFound(_, let context), .typeMismatch(_, let context), .valueNotFound(_, let context):
            let path = context.codingPath.map(\.stringValue).joined(separator: ".")
            return path.isEmpty ? context.debugDescription : "\(path): \(context.debugDescription)"
        @unknown default:
            return "\(error)"
        }
    }
}
