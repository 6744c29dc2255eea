import Foundation

/// Hides the values of secret query parameters in log lines, as header values are hidden: an API key sent as
/// `?api_key=...` must not end up in logs.
///
/// Names are compared case-insensitively after percent-decoding, so `?API%5Fkey=` is caught too.
public struct QueryRedaction: Sendable, Hashable {
    /// The query parameter names redacted by default: `api_key`, `apikey`, `access_token`, `refresh_token`,
    /// `id_token`, `token`, `key`, `signature`, `sig`, `secret`, `client_secret`, `password`, `auth`, `code`.
    public static let defaultNames: Set<String> = [
        "api_key", "apikey", "access_token", "refresh_token", "id_token", "token", "key", "signature", "sig",
        "secret", "client_secret", "password", "auth", "code",
    ]

    /// The names whose values are replaced by `<redacted>`, lowercased.
    public let names: Set<String>

    /// Redacts ``defaultNames`` plus `extraNames`.
    ///
    /// - Parameter extraNames: More query parameter names to redact, in any case.
    public init(adding extraNames: Set<String> = []) {
        names = Self.defaultNames.union(extraNames.map { $0.lowercased() })
    }

    /// `target` (a path with a query, or a whole URL) with the values of the named query parameters replaced by
    /// `<redacted>`; everything else, including the order of parameters, is kept.
    ///
    /// - Parameter target: The text to redact, for example `/search?q=swift&api_key=abc`.
    /// - Returns: The same text with secret values hidden, for example `/search?q=swift&api_key=<redacted>`.
    public func redact(_ target: String) -> String {
        guard let questionMark = target.firstIndex(of: "?") else { return target }
        let fragmentStart = target[questionMark...].firstIndex(of: "#") ?? target.endIndex
        let query = target[target.index(after: questionMark)..<fragmentStart]
        let items = query.split(separator: "&", omittingEmptySubsequences: false).map { item -> String in
            guard let equals = item.firstIndex(of: "=") else { return String(item) }
            let name = item[..<equals]
            let decoded = PercentEncoding.decodedText(String(name)).lowercased()
            return names.contains(decoded) ? name + "=<redacted>" : String(item)
        }
        return target[...questionMark] + items.joined(separator: "&") + target[fragmentStart...]
    }
}
