// `_forEachField` is the standard library's reflection over a type's stored properties without an instance;
// it is SPI, but stable since Swift 5.2 and the only way to find field offsets without `Mirror`.
@_spi(Reflection) import Swift

// The only file in RetroSwift that touches raw memory. The target builds with `.strictMemorySafety()`, so every
// unsafe expression is marked `unsafe` and says on its line why it cannot read memory it does not own.

/// What kind of type a request type is, read from its runtime metadata.
enum RequestTypeKind: Equatable {
    case `struct`, `class`, `enum`, optional, tuple, function, existential, metatype, other

    /// The kind of `type`, from the first word of its metadata (Swift ABI, stable since Swift 5.0).
    init(of type: Any.Type) {
        if type is AnyClass {
            self = .class
            return
        }
        // unsafe: a metatype always points at live, immutable type metadata whose first word is its kind.
        let raw = unsafe unsafeBitCast(type, to: UnsafeRawPointer.self).load(as: UInt.self)
        switch raw {
        case 0x200: self = .struct
        case 0x201: self = .enum
        case 0x202: self = .optional
        case 0x301: self = .tuple
        case 0x302: self = .function
        case 0x303: self = .existential
        case 0x304, 0x306: self = .metatype
        default: self = .other
        }
    }
}

/// The stored properties of one struct type, as the runtime lays them out.
// @unchecked Sendable: immutable, and `Any.Type` values are immutable runtime metadata.
struct StructLayout: @unchecked Sendable {
    /// One stored property.
    struct StoredField {
        let label: String
        let offset: Int
        let type: Any.Type
    }

    /// The struct type these offsets belong to; reading is refused for any other type.
    let structType: ObjectIdentifier
    let fields: [StoredField]

    /// The layout of `type`, or `nil` when it is not a struct. `_forEachField` crashes on existential types and
    /// reports no fields for enums, so it is only called after the metadata kind says "struct".
    init?(of type: Any.Type) {
        guard RequestTypeKind(of: type) == .struct else { return nil }
        var fields: [StoredField] = []
        // unsafe: only called for struct metadata (checked above), for which the runtime walks its field records.
        let described = unsafe _forEachField(of: type) { name, offset, fieldType, _ in
            // unsafe: the runtime passes a NUL-terminated field name that lives as long as the type's metadata.
            fields.append(StoredField(label: unsafe String(cString: name), offset: offset, type: fieldType))
            return true
        }
        guard described else { return nil }
        self.structType = ObjectIdentifier(type)
        self.fields = fields
    }
}

/// Where each request parameter wrapper lives inside values of one struct type.
// @unchecked Sendable: immutable; it holds metatypes, which are immutable runtime metadata.
struct ParameterSlots: @unchecked Sendable {
    struct Slot {
        let offset: Int
        let type: any RequestParameter.Type
    }

    let structType: ObjectIdentifier
    let slots: [Slot]

    /// The slots of `layout`, or `nil` if any stored property is not a request parameter.
    init?(_ layout: StructLayout) {
        var slots: [Slot] = []
        slots.reserveCapacity(layout.fields.count)
        for field in layout.fields {
            guard let type = field.type as? any RequestParameter.Type else { return nil }
            slots.append(Slot(offset: field.offset, type: type))
        }
        self.structType = layout.structType
        self.slots = slots
    }
}

/// Receives the parameter wrappers of one request value, in declaration order, typed (never boxed in `Any`).
protocol RequestParameterVisitor {
    mutating func visit<Parameter: RequestParameter>(_ parameter: Parameter, slot: Int) throws
}

enum UnsafeStructMemory {
    /// A slot that does not fit inside the value; never thrown while slots come from the value's own metadata.
    struct SlotOutOfBounds: Error {}

    /// Hands every wrapper stored in `value` to `visitor`, reading them at the offsets in `slots`.
    ///
    /// Returns `false`, reading nothing, unless `slots` was computed from exactly `T` — the one condition under
    /// which the offsets describe these bytes.
    static func visitParameters<T, Visitor: RequestParameterVisitor>(
        of value: T, slots: ParameterSlots, with visitor: inout Visitor
    ) throws -> Bool {
        guard slots.structType == ObjectIdentifier(T.self) else { return false }
        // unsafe: the bytes of a `T` value, valid for the closure, and `slots` were made from `T`'s metadata.
        try unsafe withUnsafeBytes(of: value) { bytes in
            for (index, slot) in slots.slots.enumerated() {
                // unsafe: passes the bytes on to the one load below, which checks the offset against their bounds.
                try unsafe slot.type.visitStored(in: bytes, at: slot.offset, slot: index, with: &visitor)
            }
        }
        return true
    }
}

extension RequestParameter {
    /// Reads the wrapper of this type stored `offset` bytes into `bytes` and hands it to `visitor`.
    fileprivate static func visitStored<Visitor: RequestParameterVisitor>(
        in bytes: UnsafeRawBufferPointer, at offset: Int, slot: Int, with visitor: inout Visitor
    ) throws {
        // The offset came from this struct's metadata, so this never fails; it keeps a bad slot from ever turning
        // into a wild read.
        guard offset >= 0, offset + MemoryLayout<Self>.size <= bytes.count,
            offset % MemoryLayout<Self>.alignment == 0
        else { throw UnsafeStructMemory.SlotOutOfBounds() }
        // unsafe: `bytes` are a live value of the struct whose metadata gave `offset` and this field type `Self`.
        let parameter = unsafe bytes.load(fromByteOffset: offset, as: Self.self)
        try visitor.visit(parameter, slot: slot)
    }
}

/// Searches a string's UTF-8 bytes where they lie, for the checks every header field goes through on every call.
///
/// Walking `String.UTF8View` by index re-checks the string's representation at every byte (callgrind: about 40
/// instructions a byte, a thousand for a typical response field); reading its contiguous storage takes a few.
enum UTF8Bytes {
    /// The first byte of `text`'s UTF-8 for which `predicate` is true, or `nil`.
    static func first(in text: String, where predicate: (UInt8) -> Bool) -> UInt8? {
        // unsafe: the buffer is the string's own storage (or a copy of a small string), valid for the closure, and
        // read only within its count by `first(in:where:)` below.
        let found: UInt8?? = unsafe text.utf8.withContiguousStorageIfAvailable { bytes in unsafe first(in: bytes, where: predicate) }
        // A native Swift string is always contiguous; a bridged one may not be, and is walked byte by byte.
        if let found { return found }
        return text.utf8.first(where: predicate)
    }

    /// The index of the first line feed in `bytes` at or after `start` — or carriage return, when
    /// `carriageReturnBreaks` — or `nil`: the line scan of every streamed body, byte by byte, without the bounds check
    /// and reloads an array subscript costs in a loop that also emits lines (callgrind: 18 instructions a byte before).
    static func firstLineBreak(in bytes: [UInt8], from start: Int, carriageReturnBreaks: Bool) -> Int? {
        guard start >= 0 else { return nil }
        // unsafe: the array's own storage, valid for the closure, read below its count.
        return unsafe bytes.withUnsafeBufferPointer { buffer in
            var index = start
            while index < buffer.count {
                // unsafe: `index` is at least `start` (not negative, checked above) and below the buffer's count.
                let byte = unsafe buffer[index]
                // Nearly every byte is above CR (0x0D): one comparison lets it pass.
                if byte <= 0x0D, byte == 0x0A || (carriageReturnBreaks && byte == 0x0D) { return index }
                index &+= 1
            }
            return nil
        }
    }

    /// Whether `lhs` and `rhs` have the same UTF-8 bytes once ASCII letters are lowercased.
    static func equalIgnoringASCIICase(_ lhs: String, _ rhs: String) -> Bool {
        // unsafe: both buffers are the strings' own storage (or copies of small strings), valid for their closures,
        // and read only within their counts by `equalIgnoringASCIICase` below.
        let equal: Bool?? = unsafe lhs.utf8.withContiguousStorageIfAvailable { left in
            unsafe rhs.utf8.withContiguousStorageIfAvailable { right in unsafe equalIgnoringASCIICase(left, right) }
        }
        if let equal, let equal { return equal }
        // A bridged string may not be contiguous, and is walked byte by byte.
        return lhs.utf8.count == rhs.utf8.count && zip(lhs.utf8, rhs.utf8).allSatisfy { asciiLowercase($0) == asciiLowercase($1) }
    }

    private static func equalIgnoringASCIICase(_ lhs: UnsafeBufferPointer<UInt8>, _ rhs: UnsafeBufferPointer<UInt8>) -> Bool {
        guard lhs.count == rhs.count else { return false }
        for index in 0..<lhs.count {
            // unsafe: `index` is below the count of both buffers, checked equal above.
            guard unsafe asciiLowercase(lhs[index]) == asciiLowercase(rhs[index]) else { return false }
        }
        return true
    }

    private static func asciiLowercase(_ byte: UInt8) -> UInt8 {
        byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z") ? byte + 32 : byte
    }

    private static func first(in bytes: UnsafeBufferPointer<UInt8>, where predicate: (UInt8) -> Bool) -> UInt8? {
        for index in 0..<bytes.count {
            // unsafe: `index` is below the buffer's count.
            let byte = unsafe bytes[index]
            if predicate(byte) { return byte }
        }
        return nil
    }
}
