import Foundation
import RetroSwiftTesting
import Testing

@testable import RetroSwift

@Suite("@QueryMap, @HeaderMap and @FormMap")
struct MapParameterTests {
    enum Sort: String {
        case name, date
    }

    struct SearchRequest {
        @Query var page: Int = 1
        @QueryMap var filters: [String: Any?] = [:]
        @HeaderMap var extraHeaders: [String: String] = [:]
        @Header("X-Account") var account: String = "acc"
    }

    private struct FormRequest {
        @FormParam var user: String = ""
        @FormMap var fields: [String: [String]]? = nil
    }

    private struct Body: Encodable {
        var x = 1
    }

    private struct NotAMapRequest {
        @QueryMap var filters: [String] = []
        @HeaderMap var headers: [Int: String] = [:]
        @FormMap var form: String = ""
    }

    private struct FormMapAndBodyRequest {
        @JsonBody var body = Body()
        @FormMap var fields: [String: String] = [:]
    }

    private struct FormMapOnGetRequest {
        @FormMap var fields: [String: String] = [:]
    }

    private struct NamedMapRequest {
        @Query var page: Int = 1
        @QueryMap("page") var filters: [String: String] = [:]
    }

    // @unchecked Sendable: the fixture adds only endpoint wrappers, set up in init and never reassigned.
    private final class Api: Domain, @unchecked Sendable {
        @Get("/search?fixed=1", headers: ["X-Static": "declared"]) var search: (SearchRequest) async throws -> Empty
        @Post("/form") var form: (FormRequest) async throws -> Empty
        @Get("/not-a-map") var notAMap: (NotAMapRequest) async throws -> Empty
        @Post("/mixed") var formMapAndBody: (FormMapAndBodyRequest) async throws -> Empty
        @Get("/form-on-get") var formMapOnGet: (FormMapOnGetRequest) async throws -> Empty
        @Get("/named") var namedMap: (NamedMapRequest) async throws -> Empty
    }

    private func api() -> (Api, RecordingTransport) {
        let transport = RecordingTransport()
        transport.setConfiguration(baseURL: URL(string: "https://api.example")!, sharedHeaders: nil)
        return (Api(transport: transport), transport)
    }

    @Test("entries go out in key order by the single-field rules: nil left out, arrays repeated, dates in epoch ms")
    func encoding() async throws {
        // Given
        let (api, transport) = api()
        let request = SearchRequest(
            page: 2,
            filters: [
                "tag": ["a b", "c&d"], "since": Date(timeIntervalSince1970: 1.5), "sort": Sort.date, "missing": nil,
                "ünï": "é",
            ],
            extraHeaders: ["X-Trace": "t-1", "X-Static": "from the map"])

        // When
        _ = try await api.search(request)
        _ = try await api.form(FormRequest(user: "ann", fields: ["b": ["2", "3"], "a": ["1"], "c d": ["x&y"]]))
        _ = try await api.form(FormRequest(user: "bob", fields: nil))

        // Then
        let search = try #require(transport.requests.first)
        #expect(search.encodedPathAndQuery == "/search?fixed=1&page=2&since=1500&sort=date&tag=a%20b&tag=c%26d&%C3%BCn%C3%AF=%C3%A9")
        #expect(search.headerFields.map { "\($0.name): \($0.value)" } == ["X-Static: from the map", "X-Trace: t-1", "X-Account: acc"])
        #expect(try transport.requests[1].payload?.data() == Data("user=ann&a=1&b=2&b=3&c+d=x%26y".utf8))
        #expect(try transport.requests[2].payload?.data() == Data("user=bob".utf8))
    }

    /// A map entry that cannot be sent, and the error it gives.
    enum RefusedEntry: String, CaseIterable, Sendable {
        case clashesWithQueryField, emptyKey, clashesWithHeaderField, sameHeaderTwice, invalidHeaderName, headerInjection
        case nestedArray

        var request: SearchRequest {
            switch self {
            case .clashesWithQueryField: SearchRequest(filters: ["page": 3])
            case .emptyKey: SearchRequest(filters: ["": "x"])
            case .clashesWithHeaderField: SearchRequest(extraHeaders: ["x-account": "other"])
            case .sameHeaderTwice: SearchRequest(extraHeaders: ["X-Trace": "a", "x-trace": "b"])
            case .invalidHeaderName: SearchRequest(extraHeaders: ["X Trace": "a"])
            case .headerInjection: SearchRequest(extraHeaders: ["X-Trace": "a\r\nX-Injected: 1"])
            case .nestedArray: SearchRequest(filters: ["nested": [["a"]]])
            }
        }

        var message: String {
            switch self {
            case .clashesWithQueryField:
                "Api.search (GET /search?fixed=1), field 'filters[\"page\"]': 'page' is also the name of @Query 'page'; "
                    + "send it through one of them"
            case .emptyKey:
                "Api.search (GET /search?fixed=1), field 'filters[\"\"]': the key is empty; every entry needs a name"
            case .clashesWithHeaderField:
                "Api.search (GET /search?fixed=1), field 'extraHeaders[\"x-account\"]': 'x-account' is also the name of "
                    + "@Header 'account'; send it through one of them"
            case .sameHeaderTwice:
                "Api.search (GET /search?fixed=1), field 'extraHeaders[\"x-trace\"]': 'x-trace' and 'X-Trace' name the "
                    + "same header (header names are case-insensitive)"
            case .invalidHeaderName:
                "Api.search (GET /search?fixed=1), field 'extraHeaders[\"X Trace\"]': header name contains ' ', which is "
                    + "not allowed in a field name"
            case .headerInjection:
                "Api.search (GET /search?fixed=1), field 'extraHeaders[\"X-Trace\"]': header value contains a carriage "
                    + "return (CR); CR, LF and other control characters are not allowed (they would allow header injection)"
            case .nestedArray:
                "Api.search (GET /search?fixed=1), field 'filters[\"nested\"]': nested arrays cannot be sent; flatten the array"
            }
        }
    }

    @Test("an entry that cannot be sent is refused naming the map and the key, and nothing is sent", arguments: RefusedEntry.allCases)
    func refusedEntries(entry: RefusedEntry) async throws {
        // Given
        let (api, transport) = api()

        // When
        let error = await #expect(throws: RequestError.self) { _ = try await api.search(entry.request) }

        // Then
        #expect(error?.description == entry.message)
        #expect(error?.kind == .invalidValue)
        #expect(transport.requests.isEmpty)
    }

    @Test("declaration mistakes: a map that is not a [String: Value], a form map beside a JSON body or on GET, a named map")
    func declarationMistakes() async throws {
        // Given
        let (api, transport) = api()

        // When
        let notAMap = await #expect(throws: DeclarationError.self) { _ = try await api.notAMap(NotAMapRequest()) }
        let mixed = await #expect(throws: DeclarationError.self) { _ = try await api.formMapAndBody(FormMapAndBodyRequest()) }
        let onGet = await #expect(throws: DeclarationError.self) { _ = try await api.formMapOnGet(FormMapOnGetRequest()) }
        let named = await #expect(throws: DeclarationError.self) { _ = try await api.namedMap(NamedMapRequest()) }
        let validated = #expect(throws: DeclarationError.self) { try api.validateEndpoints() }

        // Then
        #expect(
            notAMap?.description == """
                RetroSwift found 4 declaration mistakes:
                - Api.notAMap (GET /not-a-map), field 'filters': @QueryMap 'filters' has type Array<String>, not a \
                dictionary with String keys. Fix: declare it as [String: Value], such as [String: String] or [String: [String]].
                - Api.notAMap (GET /not-a-map), field 'headers': @HeaderMap 'headers' has type Dictionary<Int, String>, not \
                a dictionary with String keys. Fix: declare it as [String: Value], such as [String: String] or [String: [String]].
                - Api.notAMap (GET /not-a-map), field 'form': @FormMap 'form' has type String, not a dictionary with String \
                keys. Fix: declare it as [String: Value], such as [String: String] or [String: [String]].
                - Api.notAMap (GET /not-a-map): a GET request cannot have a body. \
                Fix: send the values as @Query fields, or declare the endpoint with @Post, @Put or @Patch.
                """)
        #expect(
            mixed?.description == """
                RetroSwift found 1 declaration mistake:
                - Api.formMapAndBody (POST /mixed): @JsonBody 'body' together with form field 'fields'; a request has one \
                body. Fix: send the values either as JSON or as form fields, not both.
                """)
        #expect(
            onGet?.description == """
                RetroSwift found 1 declaration mistake:
                - Api.formMapOnGet (GET /form-on-get): a GET request cannot have a body. \
                Fix: send the values as @Query fields, or declare the endpoint with @Post, @Put or @Patch.
                """)
        #expect(
            named?.description == """
                RetroSwift found 1 declaration mistake:
                - Api.namedMap (GET /named), field 'filters': @QueryMap 'filters' is given the name 'page', but a map's \
                keys are its names. Fix: drop the name argument; to send one value under that name, declare a @Query field.
                """)
        // From the types alone the name argument cannot be seen; the rest is found.
        #expect(validated?.issues.count == 6)
        #expect(transport.requests.isEmpty)
    }
}
