import Foundation

/// A domain's settings, read once per call: a call runs with the values it started with.
struct DomainSettings: Sendable {
    var jsonEncoder: JSONEncoder
    var jsonDecoder: JSONDecoder
    var multipartBoundary: @Sendable () -> String
    var timeout: TimeInterval?
    var interceptors: [any Interceptor] = []
    var redirectPolicy: RedirectPolicy = .default
    var baseURL: URL?
    var sharedHeaders: [String: String] = [:]
    /// Why `baseURL` or `sharedHeaders` cannot be used, worked out once when they are set rather than on every call.
    var configurationProblem: String?

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
        self.baseURL = baseURL
        self.sharedHeaders = sharedHeaders
        configurationProblem = HttpTransportConfiguration.problem(baseURL: baseURL, sharedHeaders: sharedHeaders)
    }
}
