import Foundation

/// Turns a field's value into the strings sent on the wire, by Echo's rules.
enum ParameterValues {
    enum Failure: Error {
        case unsupported(String)
        case nested
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

    // Common types first: this runs for every field of every call.
    private static func scalar(_ value: Any) throws(Failure) -> String {
        switch value {
        case let string as String: return string
        case let int as Int: return String(int)
        case let bool as Bool: return bool ? "true" : "false"
        case let double as Double: return String(double)
        case let date as Date: return String(Int64((date.timeIntervalSince1970 * 1000).rounded()))
        case let uuid as UUID: return uuid.uuidString
        case let url as URL: return url.absoluteString
        case let decimal as Decimal: return decimal.description
        case let custom as any ParameterValueConvertible: return custom.parameterValue
        case let raw as any RawRepresentable: return try scalar(rawValue(of: raw))
        case let lossless as any LosslessStringConvertible: return lossless.description
        default: throw .unsupported(String(describing: type(of: value)))
        }
    }

    private static func rawValue<T: RawRepresentable>(of value: T) -> Any {
        value.rawValue
    }
}

/// Lets `ParameterValues` see through `Optional` held in an `Any`.
protocol OptionalValue {
    var wrappedAny: Any? { get }
}

extension Optional: OptionalValue {
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
