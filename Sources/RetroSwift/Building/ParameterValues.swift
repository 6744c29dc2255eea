import Foundation

/// Turns a field's value into the strings sent on the wire, by Echo's rules. The one place that does.
enum ParameterValues {
    enum Failure: Error {
        case unsupported(String)
        case nested
        /// A value of a supported type that has no faithful wire form: a NaN or infinite number, a date out of range.
        case unrepresentable(String)
    }

    /// The wire strings of one field: none (`nil`), one (a scalar), or one per element (an array).
    enum WireStrings {
        case none
        case one(String)
        case many([String])
    }

    /// The strings for `value`. The commonest field types are recognised by their static type first, which
    /// saves boxing the value in `Any` and trying it against every type below on each call.
    static func wireStrings<Value>(of value: Value) throws(Failure) -> WireStrings {
        if Value.self == String.self, let string = value as? String { return .one(text(string)) }
        if Value.self == Int.self, let int = value as? Int { return .one(text(int)) }
        if Value.self == Bool.self, let bool = value as? Bool { return .one(text(bool)) }
        if Value.self == String?.self, let string = value as? String? { return string.map { .one(text($0)) } ?? .none }
        if Value.self == Int?.self, let int = value as? Int? { return int.map { .one(text($0)) } ?? .none }
        let strings = try strings(from: value as Any)
        switch strings.count {
        case 0: return .none
        case 1: return .one(strings[0])
        default: return .many(strings)
        }
    }

    /// The strings for `value`: none for `nil`, one for a scalar, one per element for an array.
    static func strings(from value: Any) throws(Failure) -> [String] {
        if let optional = value as? any OptionalValue {
            guard let wrapped = optional.wrappedAny else { return [] }
            return try strings(from: wrapped)
        }
        if let array = value as? any ArrayValue {
            var result: [String] = []
            for element in array.elementsAny {
                if element is any ArrayValue { throw .nested }
                result.append(contentsOf: try strings(from: element))
            }
            return result
        }
        return [try scalar(value)]
    }

    // Common types first.
    private static func scalar(_ value: Any) throws(Failure) -> String {
        switch value {
        case let string as String: return text(string)
        case let int as Int: return text(int)
        case let bool as Bool: return text(bool)
        case let double as Double: return try finite(double)
        case let date as Date:
            do {
                return String(try EpochMilliseconds.of(date))
            } catch {
                throw .unrepresentable(error.reason)
            }
        case let uuid as UUID: return uuid.uuidString
        case let url as URL: return url.absoluteString
        case let decimal as Decimal:
            if decimal.isNaN { throw .unrepresentable("NaN cannot be sent: only finite numbers have a wire form") }
            return decimal.description
        case let float as Float: return try finite(float)
        // Other floating-point types (`CGFloat`, `Float16`) print through `LosslessStringConvertible` below.
        case let number as any FloatingPoint where !number.isFinite:
            throw .unrepresentable(nonFiniteReason(number))
        case let custom as any ParameterValueConvertible: return custom.parameterValue
        case let raw as any RawRepresentable: return try scalar(rawValue(of: raw))
        case let lossless as any LosslessStringConvertible: return lossless.description
        // `CGFloat` on Linux prints through neither protocol; its value is a `Double`'s.
        case let number as any BinaryFloatingPoint: return Double(number).description
        default: throw .unsupported(String(describing: type(of: value)))
        }
    }

    /// `number` as Swift prints it, or a failure for NaN and the infinities: `nan` and `inf` would reach a server as
    /// words that no JSON or number parser reads back as the value asked for.
    private static func finite<Number: BinaryFloatingPoint & LosslessStringConvertible>(_ number: Number) throws(Failure) -> String {
        guard number.isFinite else { throw .unrepresentable(nonFiniteReason(number)) }
        return number.description
    }

    private static func nonFiniteReason(_ number: some FloatingPoint) -> String {
        let name = number.isNaN ? "NaN" : number.sign == .minus ? "-infinity" : "infinity"
        return "\(name) cannot be sent: only finite numbers have a wire form"
    }

    private static func text(_ string: String) -> String {
        string
    }

    private static func text(_ int: Int) -> String {
        String(int)
    }

    private static func text(_ bool: Bool) -> String {
        bool ? "true" : "false"
    }

    private static func rawValue<T: RawRepresentable>(of value: T) -> Any {
        value.rawValue
    }
}

/// Lets `ParameterValues` see through `Optional` held in an `Any`.
protocol OptionalValue {
    var wrappedAny: Any? { get }
    static var wrappedType: Any.Type { get }
}

extension Optional: OptionalValue {
    static var wrappedType: Any.Type { Wrapped.self }

    var wrappedAny: Any? {
        switch self {
        case .some(let value): return value
        case .none: return nil
        }
    }
}

/// Lets `ParameterValues` iterate an `Array` held in an `Any` without bridging it to `[Any]`.
protocol ArrayValue {
    var elementsAny: [Any] { get }
}

extension Array: ArrayValue {
    var elementsAny: [Any] { map { $0 } }
}

/// Lets the builder read a `[String: Value]`, or an optional one, held in an `Any`: the entries of `@QueryMap`,
/// `@HeaderMap` and `@FormMap` fields.
protocol StringKeyedEntries {
    /// The entries sorted by key, so the wire order does not depend on hashing; `nil` for a `nil` optional.
    var entriesInKeyOrder: [(key: String, value: Any)]? { get }
}

extension Dictionary: StringKeyedEntries where Key == String {
    var entriesInKeyOrder: [(key: String, value: Any)]? {
        sorted { $0.key < $1.key }.map { ($0.key, $0.value as Any) }
    }
}

extension Optional: StringKeyedEntries where Wrapped: StringKeyedEntries {
    var entriesInKeyOrder: [(key: String, value: Any)]? {
        self?.entriesInKeyOrder ?? nil
    }
}
