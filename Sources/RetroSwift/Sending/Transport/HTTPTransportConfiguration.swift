import Foundation

/// Where a transport sends requests, and the headers it adds to each.
struct HTTPTransportConfiguration: Sendable, Hashable {
    /// The base URL: scheme, host, optional port and optional base path.
    let baseURL: URL
    /// Headers sent with every request; a request's own header of the same name wins.
    let sharedHeaders: [String: String]
    /// `baseURL` as the start of every request's URL: its string without query, fragment or trailing slashes. Made
    /// once here, so that a call only appends its path and query.
    let urlPrefix: String

    /// Creates a configuration.
    init(baseURL: URL, sharedHeaders: [String: String]? = nil) {
        self.baseURL = baseURL
        self.sharedHeaders = sharedHeaders ?? [:]
        self.urlPrefix = Self.urlPrefix(of: baseURL)
    }

    /// The start of the URLs made from `baseURL`: its string without query, fragment or trailing slashes.
    static func urlPrefix(of baseURL: URL) -> String {
        // UTF-8 code units, not Characters: the delimiters are ASCII, and grapheme breaking is the slow part here.
        let base = baseURL.absoluteString
        let utf8 = base.utf8
        var end = utf8.firstIndex { $0 == UInt8(ascii: "?") || $0 == UInt8(ascii: "#") } ?? utf8.endIndex
        while end > utf8.startIndex, utf8[utf8.index(before: end)] == UInt8(ascii: "/") { end = utf8.index(before: end) }
        return String(base[..<end])
    }

    /// Why `baseURL` and `sharedHeaders` cannot be used, or `nil` when they can: the base URL must be an absolute
    /// `http` or `https` URL with a host, and header names and values must be valid (no CR, LF or NUL).
    package static func problem(baseURL: URL?, sharedHeaders: [String: String]) -> String? {
        if let baseURL {
            guard let scheme = baseURL.scheme?.lowercased(), scheme == "http" || scheme == "https", baseURL.host != nil else {
                return "base URL '\(baseURL)' must be an absolute http or https URL"
            }
        }
        for (name, value) in sharedHeaders.sorted(by: { $0.key < $1.key }) {
            if let reason = HeaderRules.problem(inName: name) ?? HeaderRules.problem(inValue: value) {
                return "shared header '\(name)': \(reason)"
            }
        }
        return nil
    }

    /// This configuration with `headers` added, replacing shared headers of the same name (compared
    /// case-insensitively).
    func adding(sharedHeaders headers: [String: String]) -> HTTPTransportConfiguration {
        guard !headers.isEmpty else { return self }
        let replaced = Set(headers.keys.map(HeaderName.key))
        let kept = sharedHeaders.filter { !replaced.contains(HeaderName.key($0.key)) }
        return HTTPTransportConfiguration(baseURL: baseURL, sharedHeaders: kept.merging(headers) { _, domain in domain })
    }
}
