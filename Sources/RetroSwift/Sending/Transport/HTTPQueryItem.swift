/// One query parameter as the server will decode it: name and value are not percent-encoded.
struct HTTPQueryItem: Sendable, Hashable {
    /// The decoded name.
    let name: String
    /// The decoded value.
    let value: String

    /// Creates a query item, for tests and custom transports; RetroSwift validates the ones it builds.
    init(name: String, value: String) {
        self.name = name
        self.value = value
    }
}
