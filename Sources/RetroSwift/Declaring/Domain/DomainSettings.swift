import Foundation

/// A domain's settings, read once per call: a call runs with the values it started with.
///
/// Every call copies them (out of the domain's lock, then into its request builder), so they sit in one immutable
/// object and a copy is one retain; a change makes a new object. Read and set them by name, as ``Values``' fields.
@dynamicMemberLookup
struct DomainSettings: Sendable {
    /// The settings themselves.
    struct Values: Sendable {
        var jsonEncoder: JSONEncoder
        var jsonDecoder: JSONDecoder
        /// `nil`: JSON through ``jsonEncoder`` and ``jsonDecoder``, sending no `Accept`, as before converters.
        var converter: (any BodyConverter)? {
            didSet { converterAccept = converter.map { MediaRanges.acceptValue(for: $0.readableMediaTypes) } }
        }
        /// The `Accept` value of ``converter``, made when it is set rather than on every call.
        var converterAccept: String?
        var multipartBoundary: @Sendable () -> String
        var timeout: TimeInterval?
        var interceptors: [any Interceptor] = []
        var redirectPolicy: RedirectPolicy = .default
        var responseLimits: ResponseLimits = .default
        var cache: HTTPCache?
        /// `nil` for ``ServerTrust/system``, so most calls copy no arrays for it.
        var serverTrust: ServerTrust?
        /// The certificate and key the domain's calls present, if any.
        var clientIdentity: ClientIdentity?
        /// The domain's own base URL and shared headers; `nil` when it has neither.
        var target: DomainTarget?
    }

    /// One set of values, never changed once made.
    private final class Snapshot: Sendable {
        let values: Values

        init(_ values: Values) {
            self.values = values
        }
    }

    private var snapshot: Snapshot

    init(_ values: Values) {
        snapshot = Snapshot(values)
    }

    subscript<Value>(dynamicMember field: WritableKeyPath<Values, Value>) -> Value {
        get { snapshot.values[keyPath: field] }
        set {
            var values = snapshot.values
            values[keyPath: field] = newValue
            snapshot = Snapshot(values)
        }
    }

    static func makeDefault() -> DomainSettings {
        let encoder = JSONEncoder()
        encoder.dateEncodingStrategy = EpochMilliseconds.encodingStrategy
        let decoder = JSONDecoder()
        // Accepts integers and fractions alike.
        decoder.dateDecodingStrategy = .millisecondsSince1970
        return DomainSettings(
            Values(
                jsonEncoder: encoder, jsonDecoder: decoder, converter: nil, multipartBoundary: { "RetroSwift-" + UUID().uuidString },
                timeout: nil)
        )
    }

    mutating func setConfiguration(baseURL: URL?, sharedHeaders: [String: String]) {
        self.target = baseURL == nil && sharedHeaders.isEmpty ? nil : DomainTarget(baseURL: baseURL, sharedHeaders: sharedHeaders)
    }
}
