/// One query parameter as the server will decode it: name and value are not percent-encoded.
public struct HTTPQueryItem: Sendable, Hashable {
    /// The decoded name.
    public let name: String
    /// The decoded value.
    public let value: String

    /// Creates a query item, for tests and custom transports; RetroSwift validates the ones it builds.
    public init(name: String, value: String) {
        self.name = name
        self.value = value
    }
}
