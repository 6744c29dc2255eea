/// Why a value cannot be sent, as the end of a ``RequestError``'s reason; the caller names the endpoint and field.
struct InvalidValue: Error, Equatable {
    let reason: String
}
