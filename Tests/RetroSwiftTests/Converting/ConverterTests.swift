import Foundation
import RetroSwiftTesting
import Testing

@testable import RetroSwift

@Suite("Converters")
struct ConverterTests {
    private struct User: Codable, Equatable {
        var name: String
    }

    private struct UserBody {
        @Body var user = User(name: "a")
    }

    private struct TextBody {
        @Body var note: String? = "hi"
    }

    // @unchecked Sendable: the fixture adds only endpoint wrappers, set up in init and never reassigned.
    private final class Api: Domain, @unchecked Sendable {
        @Post("/text", converter: TextConverter()) var wrongBody: (UserBody) async throws -> Empty
        @Get("/bytes", converter: BytesConverter()) var wrongResponse: () async throws -> User
        @Post("/note", converter: TextConverter()) var note: (TextBody) async throws -> Empty
        @Post("/json", headers: ["Accept": "application/vnd.a+json"]) var json: (UserBody) async throws -> User
    }

    @Test("A converter that cannot encode the @Body or decode the response is a declaration mistake")
    func declarationMistakes() throws {
        // Given
        let api = Api(transport: RecordingTransport { _ in .json("{}") })

        // When
        let error = #expect(throws: DeclarationError.self) { try api.validateEndpoints() }

        // Then
        #expect(
            error?.description == """
                RetroSwift found 2 declaration mistakes:
                - Api.wrongBody (POST /text), field 'user': @Body 'user' is User, which the endpoint's converter \
                TextConverter cannot encode. Fix: declare the body as a type TextConverter encodes, or choose another \
                converter:.
                - Api.wrongResponse (GET /bytes): response type User is not one the endpoint's converter BytesConverter \
                decodes. Fix: declare a response type BytesConverter decodes, or choose another converter:.
                """)
    }

    @Test("With no converter chosen a @Body is JSON and no Accept is sent; a chosen one sets Content-Type and Accept")
    func defaultsAndNegotiation() async throws {
        // Given
        let transport = RecordingTransport { _ in .json("{\"name\":\"b\"}") }
        let api = Api(transport: transport)

        // When
        let user = try await api.json(UserBody())
        _ = try await api.note(TextBody())
        api.converter = TextConverter()
        let domainWide = await #expect(throws: RequestError.self) { _ = try await api.json(UserBody()) }

        // Then
        #expect(user == User(name: "b"))
        #expect(transport.requests[0].payload?.contentType == "application/json")
        #expect(transport.requests[0].headers.map(\.name) == ["Accept"])
        #expect(transport.requests[1].payload?.contentType == "text/plain; charset=utf-8")
        #expect(transport.requests[1].headers.first { $0.name == "Accept" }?.value == "text/*")
        #expect(domainWide?.kind == .unencodableBody)
        #expect(domainWide?.field == "user")
    }

    @Test("Each built-in converter reads back what it writes")
    func roundTrips() throws {
        // Given
        let user = User(name: "ä & b=c")

        // When
        let text = try TextConverter().decode(String.self, from: TextConverter().encode("héllo"))
        let bytes = try BytesConverter().decode(Data.self, from: BytesConverter().encode(Data([0, 255])))
        let plist = try PropertyListConverter().decode(User.self, from: PropertyListConverter().encode(user))
        let form = try FormConverter().decode(User.self, from: FormConverter().encode(user))
        let json = try JSONConverter().decode(User.self, from: JSONConverter().encode(user))

        // Then
        #expect(text == "héllo")
        #expect(bytes == Data([0, 255]))
        #expect([plist, form, json] == [user, user, user])
        #expect(String(decoding: try FormConverter().encode(user), as: UTF8.self) == "name=%C3%A4+%26+b%3Dc")
        #expect(throws: EncodingError.self) { try FormConverter().encode(["nested": user]) }
    }

    // @unchecked Sendable: the fixture adds only endpoint wrappers, set up in init and never reassigned.
    private final class Labels: Domain, @unchecked Sendable {
        @Get("/user") var user: () async throws -> User
        @Get("/form", converter: FormConverter()) var form: () async throws -> User
        @Get("/plist", converter: PropertyListConverter()) var plist: () async throws -> User
    }

    @Test(
        "JSON decodes under any label or none, and only a body that does not decode under another format's label is called that format",
        arguments: [
            nil, "application/json", "application/problem+json", "application/vnd.x+json", "text/json", "text/plain",
            "text/html; charset=UTF-8", "application/octet-stream", "TEXT/JAVASCRIPT",
        ])
    func jsonUnderAnyLabel(contentType: String?) async throws {
        // Given JSON labelled as servers label it (PHP sends text/html unless told otherwise)
        let headers: HTTPHeaderFields = contentType.map { ["Content-Type": $0] } ?? [:]
        let api = Labels(
            transport: RecordingTransport { _ in HttpOperationResult(statusCode: 200, headers: headers, body: Data(#"{"name":"a"}"#.utf8)) }
        )

        // When
        let user = try await api.user()

        // Then
        #expect(user == User(name: "a"))
    }

    @Test("A body that is not JSON under another format's label is unreadableMediaType, keeping the decoding error")
    func htmlPageIsNamed() async throws {
        // Given a captive portal's page
        let page = HttpOperationResult(statusCode: 200, headers: ["Content-Type": "text/html"], body: Data("<p>Sign in</p>".utf8))
        let api = Labels(transport: RecordingTransport { _ in page })

        // When
        let error = await #expect(throws: RequestError.self) { _ = try await api.user() }

        // Then
        #expect(error?.kind == .unreadableMediaType)
        #expect(error?.underlyingError is DecodingError)
        #expect(
            error?.description.hasPrefix(
                "Labels.user (GET /user): the HTTP 200 response is text/html, which the JSON decoder does not read (it reads "
                    + "application/json, */*+json, text/json) and it does not decode as User either (") == true)
        #expect(error?.description.hasSuffix("); the body begins: <p>Sign in</p>") == true)
    }

    @Test("A JSON body that misses a key under a JSON label stays undecodableResponse; under text/plain it names both")
    func labelledJSONMissingKey() async throws {
        // Given
        let missing = Data(#"{"other":1}"#.utf8)
        let labelled = Labels(
            transport: RecordingTransport { _ in
                HttpOperationResult(statusCode: 200, headers: ["Content-Type": "application/json"], body: missing)
            })
        let plain = Labels(
            transport: RecordingTransport { _ in
                HttpOperationResult(statusCode: 200, headers: ["Content-Type": "text/plain"], body: missing)
            })

        // When
        let labelledError = await #expect(throws: RequestError.self) { _ = try await labelled.user() }
        let plainError = await #expect(throws: RequestError.self) { _ = try await plain.user() }

        // Then
        #expect(labelledError?.kind == .undecodableResponse)
        #expect(plainError?.kind == .unreadableMediaType)
        #expect(plainError?.description.contains("and it does not decode as User either (No value associated with key") == true)
    }

    @Test("A converter that does not try unlisted media types refuses them before decoding; a property list is tried")
    func strictAndTryingConverters() async throws {
        // Given a form body labelled text/plain, and a property list labelled application/octet-stream
        let plist = try PropertyListEncoder().encode(User(name: "p"))
        let api = Labels(
            transport: RecordingTransport { request in
                request.url.path.hasSuffix("/form")
                    ? HttpOperationResult(statusCode: 200, headers: ["Content-Type": "text/plain"], body: Data("name=f".utf8))
                    : HttpOperationResult(statusCode: 200, headers: ["Content-Type": "application/octet-stream"], body: plist)
            })

        // When
        let formError = await #expect(throws: RequestError.self) { _ = try await api.form() }
        let user = try await api.plist()

        // Then
        #expect(formError?.kind == .unreadableMediaType)
        #expect(formError?.underlyingError == nil)
        #expect(
            formError?.description
                == "Labels.form (GET /form): the HTTP 200 response is text/plain, which FormConverter does not read (it reads "
                + "application/x-www-form-urlencoded); the body begins: name=f")
        #expect(user == User(name: "p"))
        #expect(!FormConverter().decodesUnlistedMediaTypes && !TextConverter().decodesUnlistedMediaTypes)
        #expect(JSONConverter().decodesUnlistedMediaTypes && PropertyListConverter().decodesUnlistedMediaTypes)
    }

    @Test("Media ranges: exact, type/*, */* and */*+suffix")
    func mediaRanges() {
        #expect(JSONConverter().reads(mediaType: "application/problem+json"))
        #expect(JSONConverter().reads(mediaType: "application/json"))
        #expect(!JSONConverter().reads(mediaType: "text/html"))
        #expect(TextConverter().reads(mediaType: "text/csv"))
        #expect(!TextConverter().reads(mediaType: "application/json"))
        #expect(BytesConverter().reads(mediaType: "image/png"))
        #expect(MediaRanges.essence(of: " Text/HTML ; charset=utf-8") == "text/html")
        #expect(ResponseDecodingContext.isApplicationJSON("Application/JSON; charset=utf-8"))
        #expect(ResponseDecodingContext.isApplicationJSON("application/json"))
        #expect(MediaRanges.acceptValue(for: JSONConverter().readableMediaTypes) == "application/json, text/json")
        #expect(MediaRanges.acceptValue(for: ["*/*+xml"]) == "*/*")
        #expect(!ResponseDecodingContext.isApplicationJSON("application/json-patch+json"))
        #expect(!ResponseDecodingContext.isApplicationJSON("application/jso"))
        #expect(ResponseDecodingContext.isApplicationJSON("application/json \t; charset=utf-8"))
        #expect(!ResponseDecodingContext.isApplicationJSON("application/json x"))
        #expect(!ResponseDecodingContext.isApplicationJSON("application\u{0F}json"))
        // The fast path agrees with the general rule on the values it takes.
        for value in ["Application/JSON; charset=utf-8", "application/json  ", "application/json x", "application\u{0F}json"] {
            #expect(
                ResponseDecodingContext.isApplicationJSON(value) == (MediaRanges.essence(of: value) == "application/json"),
                "\(value)")
        }
        for value in [
            "Application/X-Protobuf; proto=shop.Item", "application/x-protobuf", "application/x-protobuffer",
            "application/protobuf ", "application/x-protobu", "text/*",
        ] {
            for mediaType in ["application/x-protobuf", "application/protobuf"] {
                #expect(MediaRanges.names(value, mediaType) == (MediaRanges.essence(of: value) == mediaType), "\(value)")
            }
        }
        #expect(!MediaRanges.names("text/html", "text/*"))
    }
}
