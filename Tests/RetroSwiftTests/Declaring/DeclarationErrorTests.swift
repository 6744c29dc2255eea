import Foundation
import RetroSwiftTesting
import Testing

@testable import RetroSwift

@Suite("Declaration mistakes")
struct DeclarationErrorTests {
    private struct Body: Encodable {
        var x = 1
    }

    private struct MissingPathRequest {
        @Header("X-Id") var id: String = ""
    }

    private struct WrongPathRequest {
        @Path("scheduleId") var scheduleId: String = ""
    }

    private struct TwoBodiesRequest {
        @JsonBody var first: Body = Body()
        @JsonBody var second: Body = Body()
    }

    private struct BodyAndFormRequest {
        @JsonBody var body: Body = Body()
        @FormParam var field: String = ""
    }

    private struct QueryRequest {
        @Query var page: Int = 0
    }

    private struct BodyRequest {
        @JsonBody var body: Body = Body()
    }

    private struct DuplicateRequest {
        @Query("q") var first: String = ""
        @Query("q") var second: String = ""
        @Header("x-id") var a: String = ""
        @Header("X-ID") var b: String = ""
    }

    private struct BadHeaderRequest {
        @Header("X Id") var id: String = ""
    }

    private struct PlainFieldRequest {
        @Query var page: Int = 0
        var forgotten: String = ""
    }

    private struct NotDecodable {
        var value: Int
    }

    private final class Api: Domain, @unchecked Sendable {
        @Delete("/schedule/{schedule_id}") var missingPath: (MissingPathRequest) async throws -> Empty
        @Delete("/schedule/{schedule_id}") var wrongPath: (WrongPathRequest) async throws -> Empty
        @Post("/two") var twoBodies: (TwoBodiesRequest) async throws -> Empty
        @Post("/mixed") var bodyAndForm: (BodyAndFormRequest) async throws -> Empty
        @Get("/body") var bodyOnGet: (BodyRequest) async throws -> Empty
        @Get("items/{id") var malformed: (QueryRequest) async throws -> Empty
        @Get("/dup") var duplicates: (DuplicateRequest) async throws -> Empty
        @Get("/header") var badHeader: (BadHeaderRequest) async throws -> Empty
        @Get("/plain") var plainField: (PlainFieldRequest) async throws -> Empty
        @Get("/weird") var weirdResponse: (QueryRequest) async throws -> NotDecodable
        @Get("/case", headers: ["kit": "kat", "Kit": "-kat"]) var caseHeaders: (QueryRequest) async throws -> Empty
        @Post("/multi", formEncoding: .multipart) var emptyMultipart: (QueryRequest) async throws -> Empty
    }

    private func mistakes(_ call: (Api) async throws -> Void) async -> (String?, Int) {
        let transport = RecordingTransport()
        let api = Api(transport: transport)
        do {
            try await call(api)
            return (nil, transport.requests.count)
        } catch let error as DeclarationError {
            // An alert or a log that shows `localizedDescription` shows the same text.
            #expect(error.localizedDescription == error.description)
            return (error.description, transport.requests.count)
        } catch {
            return ("unexpected \(error)", transport.requests.count)
        }
    }

    @Test("a placeholder without a @Path field")
    func missingPath() async {
        // When
        let (message, sent) = await mistakes { _ = try await $0.missingPath(MissingPathRequest()) }

        // Then
        #expect(
            message == """
                RetroSwift found 1 declaration mistake:
                - Api.missingPath (DELETE /schedule/{schedule_id}): placeholder {schedule_id} has no @Path field. \
                Fix: add `@Path("schedule_id") var scheduleId: String = ""` to MissingPathRequest, or remove {schedule_id} from the path.
                """)
        #expect(sent == 0)
    }

    @Test("a @Path field that matches no placeholder is reported with the unfilled placeholder")
    func wrongPath() async {
        // When
        let (message, sent) = await mistakes { _ = try await $0.wrongPath(WrongPathRequest(scheduleId: "1")) }

        // Then
        #expect(
            message == """
                RetroSwift found 2 declaration mistakes:
                - Api.wrongPath (DELETE /schedule/{schedule_id}): placeholder {schedule_id} has no @Path field. \
                Fix: add `@Path("schedule_id") var scheduleId: String = ""` to WrongPathRequest, or remove {schedule_id} from the path.
                - Api.wrongPath (DELETE /schedule/{schedule_id}), field 'scheduleId': @Path name 'scheduleId' matches no placeholder \
                in '/schedule/{schedule_id}'. Fix: add {scheduleId} to the path, or rename the field to one of its placeholders.
                """)
        #expect(sent == 0)
    }

    @Test("two bodies, a body with form fields, and a body on GET")
    func bodies() async {
        // When
        let (two, _) = await mistakes { _ = try await $0.twoBodies(TwoBodiesRequest()) }
        let (mixed, _) = await mistakes { _ = try await $0.bodyAndForm(BodyAndFormRequest()) }
        let (onGet, _) = await mistakes { _ = try await $0.bodyOnGet(BodyRequest()) }

        // Then
        #expect(
            two == """
                RetroSwift found 1 declaration mistake:
                - Api.twoBodies (POST /two): 2 @JsonBody fields ('first', 'second'); a request has one body. \
                Fix: keep one @JsonBody and put the other values inside its Encodable type.
                """)
        #expect(
            mixed == """
                RetroSwift found 1 declaration mistake:
                - Api.bodyAndForm (POST /mixed): @JsonBody 'body' together with form field 'field'; a request has one body. \
                Fix: send the values either as JSON or as form fields, not both.
                """)
        #expect(
            onGet == """
                RetroSwift found 1 declaration mistake:
                - Api.bodyOnGet (GET /body): a GET request cannot have a body. \
                Fix: send the values as @Query fields, or declare the endpoint with @Post, @Put or @Patch.
                """)
    }

    @Test("a malformed template")
    func malformedTemplate() async {
        // When
        let (message, _) = await mistakes { _ = try await $0.malformed(QueryRequest()) }

        // Then
        #expect(
            message == """
                RetroSwift found 1 declaration mistake:
                - Api.malformed (GET items/{id): path template 'items/{id' does not start with '/'. \
                Fix: write the path relative to the base URL, starting with '/', for example '/items/{id'.
                """)
    }

    @Test("duplicate names, header names compared case-insensitively")
    func duplicates() async {
        // When
        let (message, _) = await mistakes { _ = try await $0.duplicates(DuplicateRequest()) }

        // Then
        #expect(
            message == """
                RetroSwift found 2 declaration mistakes:
                - Api.duplicates (GET /dup), field 'second': @Query name 'q' is already used by 'first'. \
                Fix: give each field its own name; for repeated values use one array field.
                - Api.duplicates (GET /dup), field 'b': @Header name 'X-ID' is already used by 'a'. \
                Fix: give each field its own name; for repeated values use one array field.
                """)
    }

    @Test("an invalid header name, a field without a wrapper, an undecodable response type")
    func otherMistakes() async {
        // When
        let (header, _) = await mistakes { _ = try await $0.badHeader(BadHeaderRequest()) }
        let (plain, _) = await mistakes { _ = try await $0.plainField(PlainFieldRequest()) }
        let (response, _) = await mistakes { _ = try await $0.weirdResponse(QueryRequest()) }

        // Then
        #expect(
            header == """
                RetroSwift found 1 declaration mistake:
                - Api.badHeader (GET /header), field 'id': header name contains ' ', which is not allowed in a field name. \
                Fix: use a valid header name such as 'X-Account-Id'.
                """)
        #expect(
            plain == """
                RetroSwift found 1 declaration mistake:
                - Api.plainField (GET /plain), field 'forgotten': 'forgotten' of PlainFieldRequest is not a request parameter. \
                Fix: mark it @Query, @Header, @Path, @JsonBody, @FormParam, @FormFile, @QueryMap, @HeaderMap or @FormMap, \
                or make it a computed property.
                """)
        #expect(
            response == """
                RetroSwift found 1 declaration mistake:
                - Api.weirdResponse (GET /weird): response type NotDecodable is not Decodable. \
                Fix: make it Decodable, or declare Empty, Data, String or Either<Response, ErrorResponse>.
                """)
    }

    @Test("static headers whose names differ only in case, and a multipart endpoint with no form fields")
    func caseHeadersAndEmptyMultipart() async {
        // When
        let (headers, sentHeaders) = await mistakes { _ = try await $0.caseHeaders(QueryRequest()) }
        let (multipart, sentMultipart) = await mistakes { _ = try await $0.emptyMultipart(QueryRequest()) }

        // Then
        #expect(
            headers == """
                RetroSwift found 1 declaration mistake:
                - Api.caseHeaders (GET /case): static headers 'Kit' and 'kit' name the same field (header names are \
                case-insensitive). Fix: keep one of them; to send several values, join them with ", " in one header.
                """)
        #expect(
            multipart == """
                RetroSwift found 1 declaration mistake:
                - Api.emptyMultipart (POST /multi): formEncoding: .multipart but no @FormParam or @FormFile field; a \
                multipart body needs at least one part (RFC 2046). Fix: add the form fields, or drop formEncoding.
                """)
        #expect(sentHeaders + sentMultipart == 0)
    }

    @Test("validateEndpoints reports every endpoint's type-level mistakes at once, before any call")
    func eagerValidation() throws {
        // Given
        let api = Api(transport: RecordingTransport())

        // When
        let error = #expect(throws: DeclarationError.self) { try api.validateEndpoints() }

        // Then
        #expect(
            error?.issues.map(\.endpoint.name) == [
                "missingPath", "twoBodies", "bodyAndForm", "bodyOnGet", "malformed", "plainField", "weirdResponse",
                "caseHeaders", "emptyMultipart",
            ])
    }

    @Test("a correct domain validates cleanly")
    func validDomain() throws {
        // Given
        let api = SchedulesApi(transport: RecordingTransport())

        // When / Then
        try api.validateEndpoints()
    }
}

extension DeclarationErrorTests {
    // @unchecked Sendable: the fixture adds only endpoint wrappers, set up in init and never reassigned.
    private final class TimeoutApi: Domain, @unchecked Sendable {
        @Get("/zero", timeout: 0) var zero: () async throws -> Empty
        @Get("/negative", timeout: -1) var negative: () async throws -> Empty
        @Get("/nan", timeout: .nan) var notANumber: () async throws -> Empty
        @Get("/forever", timeout: .infinity) var forever: () async throws -> Empty
        @Get("/domain") var domainTimeout: () async throws -> Empty
    }

    @Test("a timeout must be a positive number of seconds: the endpoint's is a declaration mistake, the domain's a RequestError")
    func timeouts() async throws {
        // Given
        let transport = RecordingTransport { _ in .json("{}") }
        let api = TimeoutApi(transport: transport)

        // When
        let zero = await #expect(throws: DeclarationError.self) { _ = try await api.zero() }
        let notANumber = await #expect(throws: DeclarationError.self) { _ = try await api.notANumber() }
        let validated = #expect(throws: DeclarationError.self) { try api.validateEndpoints() }
        _ = try await api.forever()
        api.timeout = .nan
        let domain = await #expect(throws: RequestError.self) { _ = try await api.domainTimeout() }

        // Then
        #expect(
            zero?.description == """
                RetroSwift found 1 declaration mistake:
                - TimeoutApi.zero (GET /zero): timeout is 0.0 seconds, which is not positive. Fix: give a positive number \
                of seconds, or .infinity for no timeout.
                """)
        #expect(
            notANumber?.description == """
                RetroSwift found 1 declaration mistake:
                - TimeoutApi.notANumber (GET /nan): timeout is not a number (NaN). Fix: give a positive number of seconds, \
                or .infinity for no timeout.
                """)
        #expect(validated?.issues.map(\.endpoint.name) == ["zero", "negative", "notANumber"])
        #expect(
            domain?.description == """
                TimeoutApi.domainTimeout (GET /domain): the domain's timeout is not a number (NaN): give a positive number \
                of seconds, or .infinity for none; nothing was sent
                """)
        #expect(transport.requests.map(\.encodedPath) == ["/forever"])
        #expect(transport.requests.first?.timeout == .infinity)
    }
}
