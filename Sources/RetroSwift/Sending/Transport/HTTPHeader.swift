/// One HTTP header field as it goes on the wire.
public struct HTTPHeader: Sendable, Hashable {
    /// The field name, as declared.
    public let name: String
    /// The field value; never contains CR, LF or NUL.
    public let value: String

    /// Creates a header, for tests and custom transports; RetroSwift validates the ones it builds.
    public init(name: String, value: String) {
        self.name = name
        self.value = value
    }
}
