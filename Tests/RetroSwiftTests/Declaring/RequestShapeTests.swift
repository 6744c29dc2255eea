import Foundation
import RetroSwiftTesting
import Testing

@testable import RetroSwift

// Every shape a request type can take, called with many seeded random values and, where the declared type allows,
// different dynamic types in turn. Each call's query and headers are compared with what `Mirror` says the value
// holds, formatted by this file's own oracle (not the library's code). Run under the address sanitizer in CI.

protocol SearchQuery {}

enum ShapeLevel: Int {
    case low = 1, mid = 5, high = 9
}

/// Fields of every width, so offsets and padding differ from field to field.
struct MixedWidthQuery: SearchQuery {
    @Query var flag: Bool = false
    @Query var tiny: Int8 = 0
    @Query var big: Int64 = 0
    @Query var byte: UInt8 = 0
    @Query var ratio: Double = 0
    @Query var note: String? = nil
    @Query var id: UUID = UUID(uuid: (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0))
    @Query("tag") var tags: [String] = []
    @Query var level: ShapeLevel = .low
    @Query var when: Date = Date(timeIntervalSince1970: 0)
    @Header("X-Tiny") var headerTiny: Int8 = 0
}

/// Another conformer with a different layout: a header first, then narrow fields.
struct NarrowQuery: SearchQuery {
    @Header("X-Name") var name: String = ""
    @Query var count: UInt8 = 0
    @Query var on: Bool = false
    @Query var text: String? = nil
}

struct GenericQuery<Value> {
    @Query var value: Value
    @Query var flag: Bool = false
}

class BaseQuery: SearchQuery {
    @Query var page: Int = 0
    @Header("X-Base") var base: String = ""

    init(page: Int, base: String) {
        self.page = page
        self.base = base
    }
}

final class DerivedQuery: BaseQuery {
    @Query var limit: Int8 = 0

    init(page: Int, base: String, limit: Int8) {
        self.limit = limit
        super.init(page: page, base: base)
    }
}

enum ChoiceRequest {
    case first(Int)
    case second
}

struct OuterRequest {
    @Query var page: Int = 0
    var inner = NarrowQuery()
}

struct PartlyWrappedRequest {
    @Query var page: Int = 0
    var plain: String = ""
}

// @unchecked Sendable: adds no stored state to Domain; endpoint wrappers guard their own.
final class ShapesApi: Domain, @unchecked Sendable {
    @Get("/search") var search: (any SearchQuery) async throws -> Empty
    @Get("/anything") var anything: (Any) async throws -> Empty
    @Get("/mixed") var mixed: (MixedWidthQuery) async throws -> Empty
    @Get("/generic") var genericInt16: (GenericQuery<Int16>) async throws -> Empty
    @Get("/generic") var genericOptional: (GenericQuery<String?>) async throws -> Empty
    @Get("/base") var base: (BaseQuery) async throws -> Empty
    @Get("/optional") var optional: (MixedWidthQuery?) async throws -> Empty
    @Get("/choice") var choice: (ChoiceRequest) async throws -> Empty
    @Get("/tuple") var tuple: ((Int, String)) async throws -> Empty
    @Get("/outer") var outer: (OuterRequest) async throws -> Empty
    @Get("/partly") var partly: (PartlyWrappedRequest) async throws -> Empty
}

/// What `Mirror` says a request holds, formatted by the documented rules.
enum WireOracle {
    struct Wire: Equatable, CustomStringConvertible {
        var query: [String] = []
        var headers: [String] = []
        var description: String { "query \(query) headers \(headers)" }
    }

    static func expected(for request: Any) -> Wire {
        var wire = Wire()
        var mirrors: [Mirror] = []
        var mirror: Mirror? = Mirror(reflecting: request)
        while let current = mirror {
            mirrors.insert(current, at: 0)
            mirror = current.superclassMirror
        }
        for current in mirrors {
            for child in current.children {
                let wrapper = Mirror(reflecting: child.value)
                let wrapperType = String(reflecting: type(of: child.value))
                let value = wrapper.descendant("wrappedValue")!
                let explicitName = wrapper.descendant("name") as? String
                let name = explicitName ?? String(child.label!.dropFirst())
                let strings = format(value)
                if wrapperType.contains("LocationMarkers.Query") {
                    wire.query += strings.map { "\(name)=\($0)" }
                } else if wrapperType.contains("LocationMarkers.Header"), !strings.isEmpty {
                    wire.headers.append("\(name): \(strings.joined(separator: ", "))")
                }
            }
        }
        return wire
    }

    static func actual(_ params: HttpRequestParams) -> Wire {
        Wire(
            query: params.queryItems.map { "\($0.name)=\($0.value)" },
            headers: params.headerFields.map { "\($0.name): \($0.value)" }
        )
    }

    private static func format(_ value: Any) -> [String] {
        let mirror = Mirror(reflecting: value)
        switch mirror.displayStyle {
        case .optional: return mirror.children.first.map { format($0.value) } ?? []
        case .collection: return mirror.children.flatMap { format($0.value) }
        default: break
        }
        switch value {
        case let bool as Bool: return [bool ? "true" : "false"]
        case let double as Double: return ["\(double)"]
        case let uuid as UUID: return [uuid.uuidString]
        case let level as ShapeLevel: return ["\(level.rawValue)"]
        case let date as Date: return ["\(Int64((date.timeIntervalSince1970 * 1000).rounded()))"]
        default: return ["\(value)"]
        }
    }
}

/// SplitMix64: the same values on every run and platform.
struct SeededGenerator: RandomNumberGenerator {
    var state: UInt64

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

extension SeededGenerator {
    mutating func text() -> String {
        let alphabet = Array("abcXYZ019 -_.~!*'()é€😀/?&=+#")
        return String((0..<Int.random(in: 0...12, using: &self)).map { _ in alphabet.randomElement(using: &self)! })
    }

    mutating func mixed() -> MixedWidthQuery {
        let hex = (0..<32).map { _ in String(UInt8.random(in: 0...15, using: &self), radix: 16) }.joined()
        let groups = [0..<8, 8..<12, 12..<16, 16..<20, 20..<32].map { range in
            String(hex.dropFirst(range.lowerBound).prefix(range.count))
        }
        let id = UUID(uuidString: groups.joined(separator: "-"))!
        return MixedWidthQuery(
            flag: Bool.random(using: &self), tiny: Int8.random(in: .min ... .max, using: &self),
            big: Int64.random(in: .min ... .max, using: &self), byte: UInt8.random(in: 0...255, using: &self),
            ratio: Double.random(in: -1e6...1e6, using: &self), note: Bool.random(using: &self) ? text() : nil, id: id,
            tags: (0..<Int.random(in: 0...3, using: &self)).map { _ in text() },
            level: [ShapeLevel.low, .mid, .high].randomElement(using: &self)!,
            when: Date(timeIntervalSince1970: Double(Int.random(in: 0...4_000_000_000_000, using: &self)) / 1000),
            headerTiny: Int8.random(in: .min ... .max, using: &self)
        )
    }

    mutating func narrow() -> NarrowQuery {
        NarrowQuery(
            name: "n" + text().filter { $0.isASCII && !$0.isWhitespace }, count: UInt8.random(in: 0...255, using: &self),
            on: Bool.random(using: &self), text: Bool.random(using: &self) ? text() : nil
        )
    }

    mutating func classQuery() -> BaseQuery {
        let page = Int.random(in: -1000...1000, using: &self)
        let base = "b" + String(UInt16.random(in: 0...UInt16.max, using: &self))
        if Bool.random(using: &self) { return BaseQuery(page: page, base: base) }
        return DerivedQuery(page: page, base: base, limit: Int8.random(in: .min ... .max, using: &self))
    }
}

@Suite("Request shapes")
struct RequestShapeTests {
    private let transport = RecordingTransport()
    private var api: ShapesApi { ShapesApi(transport: transport) }

    private func sent() throws -> WireOracle.Wire {
        WireOracle.actual(try #require(transport.lastRequest))
    }

    @Test("an existential request sends each conforming value's own fields, whatever type came before")
    func existentialRequests() async throws {
        // Given
        var random = SeededGenerator(state: 11)
        let api = api

        for _ in 0..<300 {
            let value: any SearchQuery
            switch Int.random(in: 0..<3, using: &random) {
            case 0: value = random.mixed()
            case 1: value = random.narrow()
            default: value = random.classQuery()
            }

            // When
            _ = try await api.search(value)

            // Then
            #expect(try sent() == WireOracle.expected(for: value))
        }
    }

    @Test("an Any request sends the fields of whatever struct or class it holds")
    func anyRequests() async throws {
        // Given
        var random = SeededGenerator(state: 12)
        let api = api

        for round in 0..<200 {
            let value: Any
            switch round % 4 {
            case 0: value = random.mixed()
            case 1: value = random.narrow()
            case 2: value = GenericQuery(value: Int16.random(in: .min ... .max, using: &random), flag: true)
            default: value = random.classQuery()
            }

            // When
            _ = try await api.anything(value)

            // Then
            #expect(try sent() == WireOracle.expected(for: value))
        }
    }

    @Test("a concrete struct of mixed-width fields sends exactly what it holds")
    func mixedWidthStruct() async throws {
        // Given
        var random = SeededGenerator(state: 13)
        let api = api

        for _ in 0..<300 {
            let value = random.mixed()

            // When
            _ = try await api.mixed(value)

            // Then
            #expect(try sent() == WireOracle.expected(for: value))
        }
    }

    @Test("generic structs send their own values for each specialization")
    func genericStructs() async throws {
        // Given
        var random = SeededGenerator(state: 14)
        let api = api

        for _ in 0..<100 {
            let number = GenericQuery(value: Int16.random(in: .min ... .max, using: &random), flag: Bool.random(using: &random))
            let text = GenericQuery<String?>(value: Bool.random(using: &random) ? random.text() : nil)

            // When
            _ = try await api.genericInt16(number)
            let first = try sent()
            _ = try await api.genericOptional(text)

            // Then
            #expect(first == WireOracle.expected(for: number))
            #expect(try sent() == WireOracle.expected(for: text))
        }
    }

    @Test("a class request sends its superclass's fields too, and a subclass's own")
    func classRequests() async throws {
        // Given
        var random = SeededGenerator(state: 15)
        let api = api

        for _ in 0..<100 {
            let value = random.classQuery()

            // When
            _ = try await api.base(value)

            // Then
            #expect(try sent() == WireOracle.expected(for: value))
        }
        #expect(WireOracle.expected(for: DerivedQuery(page: 1, base: "b", limit: 2)).query == ["page=1", "limit=2"])
    }

    @Test("calls of different dynamic types at once each send their own values")
    func concurrentDynamicTypes() async throws {
        // Given
        let api = api
        @Sendable func value(_ index: Int) -> any SearchQuery {
            var random = SeededGenerator(state: UInt64(100 + index))
            return index % 2 == 0 ? random.mixed() : random.narrow()
        }

        // When
        try await withThrowingTaskGroup(of: Void.self) { group in
            for index in 0..<64 {
                group.addTask { _ = try await api.search(value(index)) }
            }
            try await group.waitForAll()
        }

        // Then
        let sent = Set(transport.requests.map { "\(WireOracle.actual($0))" })
        #expect(sent.count == 64)
        #expect(sent == Set((0..<64).map { "\(WireOracle.expected(for: value($0)))" }))
    }

    @Test("request types whose fields cannot be read are refused, naming the endpoint and saying what to do")
    func refusedShapes() async throws {
        // Given
        let api = api
        let fix = "declare a struct whose stored properties are @Query, @Header, @Path, @JsonBody, @FormParam or @FormFile fields"

        // When / Then
        await #expect(throws: DeclarationError.self) { _ = try await api.optional(MixedWidthQuery()) }
        let optional = await message { _ = try await api.optional(nil) }
        #expect(
            optional == """
                RetroSwift found 1 declaration mistake:
                - ShapesApi.optional (GET /optional): request type Optional<MixedWidthQuery> is optional. \
                Fix: declare the endpoint with the wrapped type and always pass a value.
                """)
        let choice = await message { _ = try await api.choice(.first(1)) }
        #expect(
            choice == """
                RetroSwift found 1 declaration mistake:
                - ShapesApi.choice (GET /choice): request type ChoiceRequest is an enum; RetroSwift reads a request's \
                fields from a struct. Fix: \(fix).
                """)
        let tuple = await message { _ = try await api.tuple((1, "a")) }
        #expect(
            tuple == """
                RetroSwift found 1 declaration mistake:
                - ShapesApi.tuple (GET /tuple): request type (Int, String) is a tuple; RetroSwift reads a request's \
                fields from a struct. Fix: \(fix).
                """)
        let outer = await message { _ = try await api.outer(OuterRequest()) }
        #expect(
            outer == """
                RetroSwift found 1 declaration mistake:
                - ShapesApi.outer (GET /outer), field 'inner': 'inner' of OuterRequest is not a request parameter. \
                Fix: mark it @Query, @Header, @Path, @JsonBody, @FormParam, @FormFile, @QueryMap, @HeaderMap or @FormMap, \
                or make it a computed property.
                """)
        let partly = await message { _ = try await api.partly(PartlyWrappedRequest()) }
        #expect(
            partly == """
                RetroSwift found 1 declaration mistake:
                - ShapesApi.partly (GET /partly), field 'plain': 'plain' of PartlyWrappedRequest is not a request \
                parameter. Fix: mark it @Query, @Header, @Path, @JsonBody, @FormParam, @FormFile, @QueryMap, \
                @HeaderMap or @FormMap, or make it a computed property.
                """)
        let notAStruct = await message { _ = try await api.anything(42) }
        #expect(
            notAStruct == """
                RetroSwift found 1 declaration mistake:
                - ShapesApi.anything (GET /anything), field '_value': '_value' of Int is not a request parameter. \
                Fix: mark it @Query, @Header, @Path, @JsonBody, @FormParam, @FormFile, @QueryMap, @HeaderMap or @FormMap, \
                or make it a computed property.
                """)
        #expect(transport.requests.isEmpty)
    }

    @Test("validateEndpoints checks every shape from its type alone without crashing, existentials included")
    func validatesFromTypes() throws {
        // Given
        let api = api

        // When
        let error = try #require(throws: DeclarationError.self) { try api.validateEndpoints() }

        // Then
        #expect(
            error.issues.map { "\($0.endpoint.name): \($0.problem)" } == [
                "optional: request type Optional<MixedWidthQuery> is optional",
                "choice: request type ChoiceRequest is an enum; RetroSwift reads a request's fields from a struct",
                "tuple: request type (Int, String) is a tuple; RetroSwift reads a request's fields from a struct",
                "outer: 'inner' of OuterRequest is not a request parameter",
                "partly: 'plain' of PartlyWrappedRequest is not a request parameter",
            ])
    }

    private func message(_ call: () async throws -> Void) async -> String? {
        do {
            try await call()
            return nil
        } catch {
            return "\(error)"
        }
    }
}
