import Foundation

/// A domain's settings, read once per call: a call runs with the values it started with.
struct DomainSettings: Sendable {
    var jsonEncoder: JSONEncoder
    var jsonDecoder: JSONDecoder
    var multipartBoundary: @Sendable () -> String
    var timeout: TimeInterval?
    var interceptors: [any Interceptor] = []
    var redirectPolicy: RedirectPolicy = .default
    var responseLimits: ResponseLimits = .default
    var cache: HTTPCache?
    /// `nil` for ``ServerTrust/system``, so most calls copy no arrays for it.
    var serverTrust: ServerTrust?
    /// The domain's own base URL and shared headers; `nil` when it has neither, so a call copies no more than one
    /// reference for them (they are read on every call).
    var target: DomainTarget?

    static func makeDefault() -> DomainSettings {
        let encoder = JSONEncoder()
        encoder.dateEncodingStrategy = EpochMilliseconds.encodingStrategy
        let decoder = JSONDecoder()
        // Accepts integers and fractions alike.
        decoder.dateDecodingStrategy = .millisecondsSince1970
        return DomainSettings(
            jsonEncoder: encoder, jsonDecoder: decoder,
            multipartBoundary: { "RetroSwift-" + UUID().uuidString }, timeout: nil
        )
    }

    mutating func setConfiguration(baseURL: URL?, sharedHeaders: [String: String]) {
        target = baseURL == nil && sharedHeaders.isEmpty ? nil : DomainTarget(baseURL: baseURL, sharedHeaders: sharedHeaders)
    }
}
