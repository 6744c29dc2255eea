/// A custom type that can be sent as a query, header, path or form value.
///
/// Strings, integers, floating-point numbers, `Bool`, `Date`, `UUID`, `URL`, `Decimal`, raw-value enums,
/// optionals and arrays of these work without it.
public protocol ParameterValueConvertible {
    /// The text sent on the wire, before percent-encoding.
    var parameterValue: String { get }
}
