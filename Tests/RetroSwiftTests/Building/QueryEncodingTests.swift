import Foundation
import RetroSwiftTesting
import Testing

@testable import RetroSwift

@Suite("Query parameters")
struct QueryEncodingTests {
    private enum Sort: String {
        case newest = "new est"
        case oldest
    }

    private enum Level: Int {
        case low = 1
        case high = 9
    }

    private struct Cents: ParameterValueConvertible {
        var amount: Int
        var parameterValue: String { "\(amount / 100).\(String(format: "%02d", amount % 100))" }
    }

    private struct Opaque {
        var value = 1
    }

    private struct FilterRequest {
        @Query var text: String = ""
        @Query var page: Int? = nil
        @Query("tag") var tags: [String] = []
        @Query var since: Date? = nil
        @Query var archived: Bool = false
        @Query var sort: Sort = .oldest
        @Query var level: Level? = nil
        @Query var price: Cents? = nil
        @Query var ratio: Double? = nil
    }

    private struct OpaqueRequest {
        @Query var opaque: Opaque = Opaque()
    }

    private struct NestedRequest {
        @Query var matrix: [[Int]] = []
    }

    private final class Api: Domain, @unchecked Sendable {
        @Get("/filter") var filter: (FilterRequest) async throws -> Empty
        @Get("/opaque") var opaque: (OpaqueRequest) async throws -> Empty
        @Get("/nested") var nested: (NestedRequest) async throws -> Empty
    }

    private func send(_ request: FilterRequest) async throws -> HttpRequestParams {
        let transport = RecordingTransport()
        _ = try await Api(transport: transport).filter(request)
        return try #require(transport.lastRequest)
    }

    @Test("query components encode + & = # and space, and keep / ? : @")
    func encodesComponent() async throws {
        // Given
        let request = FilterRequest(text: "a+b&c=d#e f/g?h:i@j")

        // When
        let params = try await send(request)

        // Then
        #expect(params.encodedQuery == "text=a%2Bb%26c%3Dd%23e%20f/g?h:i@j&archived=false&sort=oldest")
        #expect(params.queryItems.first == HTTPQueryItem(name: "text", value: "a+b&c=d#e f/g?h:i@j"))
    }

    @Test("nil is omitted, arrays repeat the key in order")
    func omitsNilAndRepeatsArrays() async throws {
        // Given
        let request = FilterRequest(text: "x", page: nil, tags: ["b", "a", "b"])

        // When
        let params = try await send(request)

        // Then
        #expect(params.encodedQuery == "text=x&tag=b&tag=a&tag=b&archived=false&sort=oldest")
    }

    @Test("Date is epoch milliseconds, Bool is true/false, enums send their raw values")
    func formatsScalars() async throws {
        // Given
        let request = FilterRequest(
            text: "", page: 3, since: Date(timeIntervalSince1970: 1_700_000_000.123), archived: true,
            sort: .newest, level: .high, price: Cents(amount: 1_999), ratio: 0.5
        )

        // When
        let params = try await send(request)

        // Then
        #expect(params.encodedQuery == "text=&page=3&since=1700000000123&archived=true&sort=new%20est&level=9&price=19.99&ratio=0.5")
    }

    @Test("a value of an unsupported type throws an error naming the endpoint and field")
    func rejectsUnsupportedType() async throws {
        // Given
        let transport = RecordingTransport()

        // When
        let error = await #expect(throws: RequestError.self) {
            _ = try await Api(transport: transport).opaque(OpaqueRequest())
        }

        // Then
        #expect(
            error?.description
                == "Api.opaque (GET /opaque), field 'opaque': values of type Opaque cannot be sent; conform it to ParameterValueConvertible"
        )
        #expect(transport.requests.isEmpty)
    }

    @Test("nested arrays are rejected")
    func rejectsNestedArrays() async throws {
        // When
        let error = await #expect(throws: RequestError.self) {
            _ = try await Api(transport: RecordingTransport()).nested(NestedRequest(matrix: [[1, 2]]))
        }

        // Then
        #expect(error?.description == "Api.nested (GET /nested), field 'matrix': nested arrays cannot be sent; flatten the array")
    }
}

@Suite("Request types")
struct RequestTypeTests {
    /// A class: its fields are read through `Mirror` on every call instead of by offset.
    private final class ClassRequest {
        @Query var q: String = "a b"
        @Header("X-Id") var id: Int = 7
        @Path var name: String = "x/y"
    }

    private struct StructRequest {
        @Query var q: String = "a b"
        @Header("X-Id") var id: Int = 7
        @Path var name: String = "x/y"
    }

    private final class Api: Domain, @unchecked Sendable {
        @Get("/users/{name}") var byClass: (ClassRequest) async throws -> Empty
        @Get("/users/{name}") var byStruct: (StructRequest) async throws -> Empty
    }

    @Test("class and struct requests produce the same wire request")
    func classAndStruct() async throws {
        // Given
        let transport = RecordingTransport()
        let api = Api(transport: transport)

        // When
        _ = try await api.byClass(ClassRequest())
        _ = try await api.byStruct(StructRequest())
        _ = try await api.byStruct(StructRequest())

        // Then
        let sent = transport.requests.map { "\($0.encodedPathAndQuery) \($0.headers)" }
        #expect(sent == Array(repeating: #"/users/x%2Fy?q=a%20b [RetroSwift.HTTPHeader(name: "X-Id", value: "7")]"#, count: 3))
    }
}
