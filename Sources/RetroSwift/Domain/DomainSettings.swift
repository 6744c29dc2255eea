import Foundation

/// A domain's encoding settings, read once per call.
struct DomainSettings: Sendable {
    var jsonEncoder: JSONEncoder
    var jsonDecoder: JSONDecoder
    var multipartBoundary: @Sendable () -> String
    var timeout: TimeInterval?
    var interceptors: [any Interceptor] = []
    var redirectPolicy: RedirectPolicy = .default

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
}
