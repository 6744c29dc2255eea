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
    }
}
