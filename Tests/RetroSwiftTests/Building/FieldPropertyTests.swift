import Foundation
import PropertyBased
import RetroSwiftTesting
import Testing

@testable import RetroSwift

/// Property tests over every field kind with values at the edges of their types. The invariant: a call either throws
/// a `RequestError` naming the field and sends nothing, or sends a request whose bytes parse back, the way a server
/// parses them, to exactly the values asked for: never a trap, never a request that differs from what was asked.
///
/// Each test first sends every value of `Extremes` once (the lists are walked side by side, so the longest one sets
/// the count), then random combinations drawn by PropertyBased; a failure prints the input and the seed that
/// reproduces it with `.fixedSeed(...)`. Strings are compared as UTF-8 bytes, never with `==`, whose canonical
/// equivalence would hide a change of normalization.
///
/// The walks send numbers and dates that have a wire form, so that a refused one never hides what the rest of the
/// request would have sent; the random draws mix in NaNs, infinities and dates beyond Int64 milliseconds, which must
/// be refused naming their field, and those values are walked one field at a time by tests of their own. Rules that
/// span the kinds (framing header names, whitespace around header values, keys differing only in case, dot segments
/// behind invalid UTF-8, U+FEFF in `@Url` values) have focused tests too, which check the message as well.
@Suite("Every field kind with extreme values (property tests)")
struct FieldPropertyTests {
    // MARK: Fixtures

    private struct QueryRequest {
        @Query var text: String = ""
        @Query("n") var number: Double = 0
        @Query var ratio: Float = 0
        @Query var count: Int = 0
        @Query var big: UInt64 = 0
        @Query var flag: Bool = false
        @Query var at: Date = Date(timeIntervalSince1970: 0)
        @Query("tag") var tags: [String] = []
        @Query var small: Int8? = nil
    }

    private struct PathRequest {
        @Path var text: String = "x"
        @Path var number: Double = 0
        @Path var count: Int = 0
        @Path var at: Date = Date(timeIntervalSince1970: 0)
    }

    private struct HeaderRequest {
        @Header("X-Text") var text: String = ""
        @Header("X-Tags") var tags: [String] = []
        @Header("X-Number") var number: Double = 0
        @Header("X-Ratio") var ratio: Float = 0
        @Header("X-Count") var count: Int = 0
        @Header("X-At") var at: Date = Date(timeIntervalSince1970: 0)
        @Header("X-Maybe") var maybe: String? = nil
    }

    private struct HeaderMapRequest {
        @Header("X-Account") var account: String = "acc"
        @HeaderMap var extra: [String: String] = [:]
    }

    private struct NumberHeaderMapRequest {
        @HeaderMap var numbers: [String: Any] = [:]
    }

    private struct QueryMapRequest {
        @Query var page: Int = 1
        @QueryMap var filters: [String: Any?] = [:]
    }

    private struct FormRequest {
        @FormParam var text: String = ""
        @FormParam("n") var number: Double = 0
        @FormParam var ratio: Float = 0
        @FormParam var count: Int = 0
        @FormParam var flag: Bool = false
        @FormParam var at: Date = Date(timeIntervalSince1970: 0)
        @FormParam("tag") var tags: [String] = []
        @FormParam var maybe: String? = nil
    }

    private struct FormMapRequest {
        @FormParam var user: String = "ann"
        @FormMap var fields: [String: Any?] = [:]
    }

    private struct UploadRequest {
        @FormParam var note: String = "n"
        @FormFile("file") var file = .empty
    }

    private struct RawDataRequest {
        @RawBody var bytes = Data()
    }

    private struct RawTextRequest {
        @RawBody var text: String = ""
    }

    private struct RawContentRequest {
        @RawBody(contentType: "application/x-declared") var content = RawBodyContent(data: Data())
    }

    private struct Payload: Encodable {
        var text = ""
        var number = 0.0
        var ratio: Float = 0
        var count = 0
        var big: UInt64 = 0
        var flag = false
        var at = Date(timeIntervalSince1970: 0)
        var tags: [String] = []
        var maybe: String?
    }

    /// `Payload` as the server reads it back: the date as the epoch milliseconds on the wire.
    private struct DecodedPayload: Decodable {
        var text: String
        var number: Double
        var ratio: Float
        var count: Int
        var big: UInt64
        var flag: Bool
        var at: Int64
        var tags: [String]
        var maybe: String?
    }

    private struct JsonRequest {
        @JsonBody var payload = Payload()
    }

    private struct UrlRequest {
        @Url var url: String = ""
        @Query var page: Int? = nil
    }

    private struct UrlValueRequest {
        @Url var url: URL
    }

    /// One request type per framing or connection header name, each in a case of its own; the endpoint takes any.
    private protocol FramingHeaderRequest {}
    private struct ContentLengthRequest: FramingHeaderRequest { @Header("Content-Length") var value: String = "0" }
    private struct TransferEncodingRequest: FramingHeaderRequest { @Header("transfer-encoding") var value: String = "chunked" }
    private struct HostRequest: FramingHeaderRequest { @Header("Host") var value: String = "evil.example" }
    private struct ConnectionRequest: FramingHeaderRequest { @Header("CONNECTION") var value: String = "close" }
    private struct UpgradeRequest: FramingHeaderRequest { @Header("Upgrade") var value: String = "websocket" }
    private struct TERequest: FramingHeaderRequest { @Header("te") var value: String = "trailers" }
    private struct TrailerRequest: FramingHeaderRequest { @Header("Trailer") var value: String = "X-Checksum" }
    private struct KeepAliveRequest: FramingHeaderRequest { @Header("Keep-Alive") var value: String = "timeout=5" }
    private struct ProxyConnectionRequest: FramingHeaderRequest { @Header("proxy-Connection") var value: String = "keep-alive" }

    private struct OtherNumbersRequest {
        @Query var cgFloat: CGFloat? = nil
        @Query var decimal: Decimal? = nil
        #if !((os(macOS) || targetEnvironment(macCatalyst)) && arch(x86_64))
            @Query var half: Float16? = nil
        #endif
    }

    // @unchecked Sendable: the fixture adds only endpoint wrappers, set up in init and never reassigned.
    private final class Api: Domain, @unchecked Sendable {
        @Get("/search") var query: (QueryRequest) async throws -> Empty
        @Get("/items/{text}/{number}/{count}/{at}") var path: (PathRequest) async throws -> Empty
        @Get("/headers") var header: (HeaderRequest) async throws -> Empty
        @Get("/header-map", headers: ["X-Static": "declared"]) var headerMap: (HeaderMapRequest) async throws -> Empty
        @Get("/number-header-map") var numberHeaderMap: (NumberHeaderMapRequest) async throws -> Empty
        @Get("/query-map") var queryMap: (QueryMapRequest) async throws -> Empty
        @Post("/form") var form: (FormRequest) async throws -> Empty
        @Post("/form", formEncoding: .multipart) var multipartForm: (FormRequest) async throws -> Empty
        @Post("/form-map") var formMap: (FormMapRequest) async throws -> Empty
        @Post("/form-map", formEncoding: .multipart) var multipartFormMap: (FormMapRequest) async throws -> Empty
        @Post("/upload") var upload: (UploadRequest) async throws -> Empty
        @Post("/raw") var rawData: (RawDataRequest) async throws -> Empty
        @Post("/raw") var rawText: (RawTextRequest) async throws -> Empty
        @Post("/raw") var rawContent: (RawContentRequest) async throws -> Empty
        @Post("/json") var json: (JsonRequest) async throws -> Empty
        @Get() var url: (UrlRequest) async throws -> Empty
        @Get() var urlValue: (UrlValueRequest) async throws -> Empty
        @Get("/framing") var framing: (any FramingHeaderRequest) async throws -> Empty
        @Get("/other-numbers") var otherNumbers: (OtherNumbersRequest) async throws -> Empty
    }

    private func api() -> (Api, RecordingTransport) {
        let transport = RecordingTransport()
        transport.setConfiguration(baseURL: URL(string: "https://api.example/v2")!, sharedHeaders: nil)
        return (Api(transport: transport), transport)
    }

    // MARK: @Query

    @Test("@Query: every value decodes back from the sent query to its wire string, in order, or is refused naming the field")
    func query() async throws {
        // Given
        let (api, transport) = api()

        // When, then: every extreme value, then random ones
        for index in 0..<Extremes.walkCount {
            let text = Extremes.walk(Extremes.strings, index)
            let request = QueryRequest(
                text: text, number: Extremes.walk(Extremes.finiteDoubles, index), ratio: Extremes.walk(Extremes.finiteFloats, index),
                count: Extremes.walk(Extremes.ints, index), big: Extremes.walk(Extremes.uint64s, index), flag: index.isMultiple(of: 2),
                at: Extremes.walk(Extremes.sendableDates, index), tags: [Extremes.walk(Extremes.strings, index + 1), ""],
                small: index.isMultiple(of: 3) ? nil : .min)
            try await checkQuery(request, api, transport)
        }
        await propertyCheck(
            count: 150,
            input: zip(
                Generators.text, Generators.double, Generators.float, Generators.int, Gen<UInt64>.value(), Gen.bool, Generators.date,
                Generators.texts, Gen<Int8>.value().optional)
        ) { text, number, ratio, count, big, flag, at, tags, small in
            try await checkQuery(
                QueryRequest(
                    text: text, number: number, ratio: ratio, count: count, big: big, flag: flag, at: at, tags: tags, small: small),
                api, transport)
        }
    }

    private func checkQuery(_ request: QueryRequest, _ api: Api, _ transport: RecordingTransport) async throws {
        var expected = Expectation()
        expected.add("text", request.text, field: "text")
        expected.add("n", Wire.double(request.number), field: "number")
        expected.add("ratio", Wire.float(request.ratio), field: "ratio")
        expected.add("count", String(request.count), field: "count")
        expected.add("big", String(request.big), field: "big")
        expected.add("flag", request.flag ? "true" : "false", field: "flag")
        expected.add("at", Wire.date(request.at), field: "at")
        for tag in request.tags { expected.add("tag", tag, field: "tags") }
        if let small = request.small { expected.add("small", String(small), field: "small") }

        let outcome = await call(transport) { _ = try await api.query(request) }

        try verify(outcome, expected, Show.text(request.text)) { params in
            #expect(params.encodedPath == "/search")
            try checkQueryString(params, equals: expected.pairs, transport, Show.text(request.text))
        }
    }

    /// The sent query holds only characters RFC 3986 allows there, and decodes to `pairs` whether the server reads `+`
    /// as a space or not; `queryItems` and the full URL agree with it.
    private func checkQueryString(_ params: HttpRequestParams, equals pairs: [Pair], _ transport: RecordingTransport, _ context: String)
        throws
    {
        let query = params.encodedQuery ?? ""
        // No raw `+` either, so a server that reads `+` as a space reads the same.
        #expect(Parse.isEncoded(query, allowing: Parse.fieldQueryCharacters), "\(context): \(Show.text(query))")
        expectSame(Parse.pairs(query, plusAsSpace: false), pairs, context)
        expectSame(params.queryItems.map { Pair($0.name, $0.value) }, pairs, "\(context) (queryItems)")
        let components = URLComponents(url: params.url, resolvingAgainstBaseURL: false)
        #expect(components?.percentEncodedQuery == params.encodedQuery, "\(context)")
    }

    // MARK: @Path

    @Test("@Path: each value is one segment that decodes back to its wire string, or is refused naming the field")
    func path() async throws {
        // Given
        let (api, transport) = api()

        // When, then
        for index in 0..<Extremes.walkCount {
            let request = PathRequest(
                text: Extremes.walk(Extremes.strings + [".", "..", "..."], index), number: Extremes.walk(Extremes.finiteDoubles, index),
                count: Extremes.walk(Extremes.ints, index), at: Extremes.walk(Extremes.sendableDates, index))
            try await checkPath(request, api, transport)
        }
        await propertyCheck(
            count: 150, input: zip(Generators.text, Generators.double, Generators.int, Generators.date)
        ) { text, number, count, at in
            try await checkPath(PathRequest(text: text, number: number, count: count, at: at), api, transport)
        }
    }

    private func checkPath(_ request: PathRequest, _ api: Api, _ transport: RecordingTransport) async throws {
        var expected = Expectation()
        let text = Array(request.text.utf8)
        expected.add("text", text.isEmpty || text == Array(".".utf8) || text == Array("..".utf8) ? nil : request.text, field: "text")
        expected.add("number", Wire.double(request.number), field: "number")
        expected.add("count", String(request.count), field: "count")
        expected.add("at", Wire.date(request.at), field: "at")

        let outcome = await call(transport) { _ = try await api.path(request) }

        verify(outcome, expected, Show.text(request.text)) { params in
            let segments = params.encodedPath.split(separator: "/", omittingEmptySubsequences: false)
            #expect(segments.count == 6 && segments.prefix(2) == ["", "items"], "\(Show.text(params.encodedPath))")
            let values = segments.dropFirst(2).map { String($0) }
            for segment in values {
                #expect(Parse.isEncoded(segment, allowing: Parse.segmentCharacters), "\(Show.text(segment))")
            }
            // Each segment decoded, next to the name of the placeholder it fills.
            let decoded = zip(expected.pairs, values).compactMap { pair, segment in
                Parse.percentDecoded(Array(segment.utf8)[...]).map { Pair(bytes: pair.name, $0) }
            }
            expectSame(decoded, expected.pairs, Show.text(request.text))
            let components = URLComponents(url: params.url, resolvingAgainstBaseURL: false)
            #expect(components?.percentEncodedPath == "/v2" + params.encodedPath, "\(Show.text(request.text))")
        }
    }

    // MARK: @Header

    @Test("@Header: each value is sent exactly as given, arrays joined with ', ', or refused naming the field")
    func header() async throws {
        // Given
        let (api, transport) = api()

        // When, then
        for index in 0..<Extremes.walkCount {
            let request = HeaderRequest(
                text: Extremes.walk(Extremes.strings, index),
                tags: index.isMultiple(of: 4) ? [] : [Extremes.walk(Extremes.strings, index + 1), "b"],
                number: Extremes.walk(Extremes.finiteDoubles, index),
                ratio: Extremes.walk(Extremes.finiteFloats, index), count: Extremes.walk(Extremes.ints, index),
                at: Extremes.walk(Extremes.sendableDates, index),
                maybe: index.isMultiple(of: 2) ? nil : Extremes.walk(Extremes.strings, index + 2))
            try await checkHeader(request, api, transport)
        }
        await propertyCheck(
            count: 150,
            input: zip(
                Generators.text, Generators.texts, Generators.double, Generators.float, Generators.int, Generators.date,
                Generators.text.optional)
        ) { text, tags, number, ratio, count, at, maybe in
            try await checkHeader(
                HeaderRequest(text: text, tags: tags, number: number, ratio: ratio, count: count, at: at, maybe: maybe), api, transport)
        }
    }

    private func checkHeader(_ request: HeaderRequest, _ api: Api, _ transport: RecordingTransport) async throws {
        var expected = Expectation()
        expected.add("X-Text", Wire.header(request.text), field: "text")
        if !request.tags.isEmpty { expected.add("X-Tags", Wire.header(request.tags.joined(separator: ", ")), field: "tags") }
        expected.add("X-Number", Wire.double(request.number), field: "number")
        expected.add("X-Ratio", Wire.float(request.ratio), field: "ratio")
        expected.add("X-Count", String(request.count), field: "count")
        expected.add("X-At", Wire.date(request.at), field: "at")
        if let maybe = request.maybe { expected.add("X-Maybe", Wire.header(maybe), field: "maybe") }

        let outcome = await call(transport) { _ = try await api.header(request) }

        verify(outcome, expected, Show.text(request.text)) { params in
            expectSame(params.headerFields.map { Pair($0.name, $0.value) }, expected.pairs, Show.text(request.text))
        }
    }

    // MARK: @HeaderMap

    @Test("@HeaderMap: entries are sent exactly, in key order, overriding static headers, or refused naming the map and key")
    func headerMap() async throws {
        // Given
        let (api, transport) = api()

        // When, then
        for index in 0..<Extremes.walkCount {
            // Keys and values apart, so that a refused value never hides a key's check.
            var entries = ["X-Trace": "t"]
            entries[Extremes.walk(Extremes.headerKeys, index)] = "v"
            try await checkHeaderMap(entries, api, transport)
            try await checkHeaderMap(["X-Trace": Extremes.walk(Extremes.strings, index)], api, transport)
        }
        await propertyCheck(count: 200, input: zip(Generators.headerKey, Generators.text).dictionary(ofAtMost: 0...6)) { entries in
            try await checkHeaderMap(entries, api, transport)
        }
    }

    private func checkHeaderMap(_ entries: [String: String], _ api: Api, _ transport: RecordingTransport) async throws {
        // The README's rules: static headers first, then the fields in order; an entry overrides a static header
        // and is refused when its key is no token, names a declared @Header or a framing or connection header, or
        // differs only in case from another key (also when both name the static header).
        var expected = Expectation()
        expected.add("X-Static", "declared", field: "")
        expected.add("X-Account", "acc", field: "account")
        var earlierKeys: [String] = []
        for (key, value) in entries.sorted(by: { $0.key < $1.key }) {
            let refused =
                key.isEmpty || !key.utf8.allSatisfy(Wire.isTokenCharacter) || Wire.sameHeaderName(key, "X-Account") || Wire.isFraming(key)
                || earlierKeys.contains { Wire.sameHeaderName($0, key) }
            earlierKeys.append(key)
            if !refused { expected.pairs.removeAll { Wire.sameHeaderName(String(decoding: $0.name, as: UTF8.self), key) } }
            expected.add(key, refused ? nil : Wire.header(value), field: "extra[\"\(key)\"]")
        }
        let request = HeaderMapRequest(extra: entries)

        let outcome = await call(transport) { _ = try await api.headerMap(request) }

        verify(outcome, expected, "\(entries.map { Show.text($0.key) + ": " + Show.text($0.value) })") { params in
            expectSame(params.headerFields.map { Pair($0.name, $0.value) }, expected.pairs, "\(entries.keys.map(Show.text))")
        }
    }

    // MARK: @QueryMap

    @Test("@QueryMap: entries decode back from the query in key order, nil left out, or are refused naming the map and key")
    func queryMap() async throws {
        // Given
        let (api, transport) = api()

        // When, then
        for index in 0..<Extremes.walkCount {
            let key = Extremes.walk(Extremes.pieces + ["", "page"], index)
            var entries: [String: MapValue] = ["zz": .none]
            entries[key] = Extremes.walk(MapValue.extremes, index)
            try await checkQueryMap(entries, api, transport)
        }
        await propertyCheck(count: 150, input: zip(Generators.mapKey, Generators.mapValue).dictionary(ofAtMost: 0...5)) {
            entries in
            try await checkQueryMap(entries, api, transport)
        }
    }

    private func checkQueryMap(_ entries: [String: MapValue], _ api: Api, _ transport: RecordingTransport) async throws {
        var expected = Expectation()
        expected.add("page", "1", field: "page")
        for (key, value) in entries.sorted(by: { $0.key < $1.key }) {
            let field = "filters[\"\(key)\"]"
            guard !key.isEmpty, Array(key.utf8) != Array("page".utf8), let strings = value.wireStrings else {
                expected.add(key, nil, field: field)
                continue
            }
            for string in strings { expected.add(key, string, field: field) }
        }
        let request = QueryMapRequest(filters: entries.mapValues(\.any))

        let outcome = await call(transport) { _ = try await api.queryMap(request) }

        try verify(outcome, expected, "\(entries.keys.map(Show.text))") { params in
            #expect(params.encodedPath == "/query-map")
            try checkQueryString(params, equals: expected.pairs, transport, "\(entries.keys.map(Show.text))")
        }
    }

    // MARK: @FormParam

    @Test("@FormParam: form-urlencoded and multipart bodies parse back to every value's wire string, or it is refused naming the field")
    func formParam() async throws {
        // Given
        let (api, transport) = api()

        // When, then
        for index in 0..<Extremes.walkCount {
            let text = Extremes.walk(Extremes.strings, index)
            let request = FormRequest(
                text: text, number: Extremes.walk(Extremes.finiteDoubles, index), ratio: Extremes.walk(Extremes.finiteFloats, index),
                count: Extremes.walk(Extremes.ints, index), flag: index.isMultiple(of: 2), at: Extremes.walk(Extremes.sendableDates, index),
                tags: [Extremes.walk(Extremes.strings, index + 1), "", "+"],
                maybe: index.isMultiple(of: 3) ? nil : Extremes.walk(Extremes.strings, index + 2))
            try await checkForm(request, api, transport)
        }
        await propertyCheck(
            count: 100,
            input: zip(
                Generators.text, Generators.double, Generators.float, Generators.int, Gen.bool, Generators.date, Generators.texts,
                Generators.text.optional)
        ) { text, number, ratio, count, flag, at, tags, maybe in
            try await checkForm(
                FormRequest(text: text, number: number, ratio: ratio, count: count, flag: flag, at: at, tags: tags, maybe: maybe), api,
                transport)
        }
    }

    private func checkForm(_ request: FormRequest, _ api: Api, _ transport: RecordingTransport) async throws {
        var expected = Expectation()
        expected.add("text", request.text, field: "text")
        expected.add("n", Wire.double(request.number), field: "number")
        expected.add("ratio", Wire.float(request.ratio), field: "ratio")
        expected.add("count", String(request.count), field: "count")
        expected.add("flag", request.flag ? "true" : "false", field: "flag")
        expected.add("at", Wire.date(request.at), field: "at")
        for tag in request.tags { expected.add("tag", tag, field: "tags") }
        if let maybe = request.maybe { expected.add("maybe", maybe, field: "maybe") }

        let urlEncoded = await call(transport) { _ = try await api.form(request) }
        let multipart = await call(transport) { _ = try await api.multipartForm(request) }

        try verify(urlEncoded, expected, Show.text(request.text)) { params in
            try checkFormBody(params, equals: expected.pairs, Show.text(request.text))
        }
        try verify(multipart, expected, Show.text(request.text)) { params in
            try checkMultipartFields(params, equals: expected.pairs, Show.text(request.text))
        }
    }

    /// An `application/x-www-form-urlencoded` body of only the characters that form allows, decoding to `pairs`.
    private func checkFormBody(_ params: HttpRequestParams, equals pairs: [Pair], _ context: String) throws {
        let body = try #require(params.payload)
        #expect(body.contentType == "application/x-www-form-urlencoded; charset=utf-8")
        let text = String(decoding: try body.data(), as: UTF8.self)
        #expect(Parse.isEncoded(text, allowing: Parse.formCharacters), "\(context): \(Show.text(text))")
        expectSame(Parse.pairs(text, plusAsSpace: true), pairs, context)
    }

    /// A multipart body whose parts are text fields named and holding `pairs`, names quoted as the README says.
    private func checkMultipartFields(_ params: HttpRequestParams, equals pairs: [Pair], _ context: String) throws {
        let body = try #require(params.payload)
        let parts = Parse.multipart(Array(try body.data()), contentType: body.contentType)
        #expect(parts?.allSatisfy { $0.fileName == nil && $0.contentType == nil } == true, "\(context)")
        expectSame(parts?.map { Pair(bytes: $0.name, $0.content) }, pairs.map { Pair(bytes: Wire.quoted($0.name), $0.value) }, context)
    }

    // MARK: @FormMap

    @Test("@FormMap: entries parse back from both form encodings in key order, nil left out, or are refused naming the map and key")
    func formMap() async throws {
        // Given
        let (api, transport) = api()

        // When, then
        for index in 0..<Extremes.walkCount {
            let key = Extremes.walk(Extremes.pieces + ["", "user"], index)
            var entries: [String: MapValue] = ["0": .texts(["", " "])]
            entries[key] = Extremes.walk(MapValue.extremes, index)
            try await checkFormMap(entries, api, transport)
        }
        await propertyCheck(count: 100, input: zip(Generators.mapKey, Generators.mapValue).dictionary(ofAtMost: 0...5)) {
            entries in
            try await checkFormMap(entries, api, transport)
        }
    }

    private func checkFormMap(_ entries: [String: MapValue], _ api: Api, _ transport: RecordingTransport) async throws {
        var expected = Expectation()
        expected.add("user", "ann", field: "user")
        for (key, value) in entries.sorted(by: { $0.key < $1.key }) {
            let field = "fields[\"\(key)\"]"
            guard !key.isEmpty, Array(key.utf8) != Array("user".utf8), let strings = value.wireStrings else {
                expected.add(key, nil, field: field)
                continue
            }
            for string in strings { expected.add(key, string, field: field) }
        }
        let request = FormMapRequest(fields: entries.mapValues(\.any))

        let urlEncoded = await call(transport) { _ = try await api.formMap(request) }
        let multipart = await call(transport) { _ = try await api.multipartFormMap(request) }

        let context = "\(entries.keys.map(Show.text))"
        try verify(urlEncoded, expected, context) { params in try checkFormBody(params, equals: expected.pairs, context) }
        try verify(multipart, expected, context) { params in try checkMultipartFields(params, equals: expected.pairs, context) }
    }

    // MARK: @FormFile

    @Test(
        "@FormFile: the part carries the bytes, file name and type as given (names quoted as browsers do), or is refused naming the field")
    func formFile() async throws {
        // Given
        let (api, transport) = api()
        let boundaryLike = Data("\r\n--RetroSwift-\r\n\r\n--".utf8)

        // When, then
        for index in 0..<Extremes.walkCount {
            let content = index == 0 ? Extremes.largeBytes : boundaryLike + Data(Extremes.walk(Extremes.strings, index).utf8)
            let file = FormFile.File(
                fileName: Extremes.walk(Extremes.strings, index), mimeType: Extremes.walk(Extremes.mimeTypes, index), content: content)
            try await checkUpload(file, api, transport)
        }
        try await checkUpload(.empty, api, transport)
        await propertyCheck(count: 100, input: zip(Generators.text, Generators.mimeType, Generators.bytes)) { fileName, mimeType, bytes in
            try await checkUpload(FormFile.File(fileName: fileName, mimeType: mimeType, content: Data(bytes)), api, transport)
        }
    }

    private func checkUpload(_ file: FormFile.File, _ api: Api, _ transport: RecordingTransport) async throws {
        var expected = Expectation()
        expected.add("note", "n", field: "note")
        // A part whose header cannot carry the type is refused; `.empty` is left out.
        expected.add("file", Wire.header(file.mimeType), field: "file")
        let content: Data
        switch file.content {
        case .data(let data): content = data
        default: content = Data()
        }
        let context = "\(Show.text(file.fileName)), \(Show.text(file.mimeType)), \(content.count) bytes"

        let outcome = await call(transport) { _ = try await api.upload(UploadRequest(file: file)) }

        try verify(outcome, expected, context) { params in
            let body = try #require(params.payload)
            let parts = try #require(Parse.multipart(Array(try body.data()), contentType: body.contentType), "\(context)")
            #expect(parts.first.map { Pair(bytes: $0.name, $0.content) } == Pair("note", "n"), "\(context)")
            if file == .empty {
                #expect(parts.count == 1, "\(context)")
                return
            }
            let part = try #require(parts.count == 2 ? parts.last : nil, "\(context): \(parts.count) parts")
            let same =
                part.name == Array("file".utf8) && part.fileName == Wire.quoted(Array(file.fileName.utf8))
                && part.contentType == Array(file.mimeType.utf8)
                && part.content == Array(content)
            #expect(same, "\(context): the file part differs")
        }
    }

    // MARK: @RawBody

    @Test("@RawBody: Data, String and RawBodyContent bodies are the bytes as given with their media type, or refused naming the field")
    func rawBody() async throws {
        // Given
        let (api, transport) = api()

        // When, then
        for index in 0..<Extremes.walkCount {
            let text = Extremes.walk(Extremes.strings, index)
            // The text's bytes, then bytes that no UTF-8 text has.
            let bytes = index == 0 ? Array(Extremes.largeBytes) : Array(text.utf8) + [0x00, 0xFF, 0xC0, 0x0D, 0x0A]
            try await checkRawBody(
                bytes: bytes, text: text, contentType: Extremes.walk(Extremes.mimeTypes.map { Optional($0) } + [nil], index), api, transport
            )
        }
        await propertyCheck(count: 100, input: zip(Generators.bytes, Generators.text, Generators.mimeType.optional)) {
            bytes, text, contentType in
            try await checkRawBody(bytes: bytes, text: text, contentType: contentType, api, transport)
        }
    }

    private func checkRawBody(bytes: [UInt8], text: String, contentType: String?, _ api: Api, _ transport: RecordingTransport)
        async throws
    {
        let context = "\(bytes.count) bytes, \(Show.text(text)), \(contentType.map(Show.text) ?? "nil")"
        var expected = Expectation()
        expected.add("content", contentType.map(Wire.header) ?? "application/x-declared", field: "content")

        let data = await call(transport) { _ = try await api.rawData(RawDataRequest(bytes: Data(bytes))) }
        let string = await call(transport) { _ = try await api.rawText(RawTextRequest(text: text)) }
        let content = await call(transport) {
            _ = try await api.rawContent(RawContentRequest(content: RawBodyContent(data: Data(bytes), contentType: contentType)))
        }

        for (outcome, type, sentBytes) in [
            (data, "application/octet-stream", bytes), (string, "text/plain; charset=utf-8", Array(text.utf8)),
        ] {
            try verify(outcome, Expectation(), context) { params in
                let body = try #require(params.payload)
                let sent = Array(try body.data())
                #expect(body.contentType == type && sent == sentBytes, "\(context)")
            }
        }
        try verify(content, expected, context) { params in
            let body = try #require(params.payload)
            let sent = Array(try body.data())
            #expect(Array(body.contentType.utf8) == expected.pairs[0].value && sent == bytes, "\(context)")
        }
    }

    // MARK: @JsonBody

    @Test(
        "@JsonBody: the body decodes back to the value (dates as epoch milliseconds); non-finite numbers and dates beyond Int64 milliseconds make it unencodable"
    )
    func jsonBody() async throws {
        // Given
        let (api, transport) = api()

        // When, then
        for index in 0..<Extremes.walkCount {
            let text = Extremes.walk(Extremes.strings, index)
            let payload = Payload(
                text: text, number: Extremes.walk(Extremes.finiteDoubles + Extremes.nonFiniteDoubles, index),
                ratio: Extremes.walk(Extremes.finiteFloats, index), count: Extremes.walk(Extremes.ints, index),
                big: Extremes.walk(Extremes.uint64s, index), flag: index.isMultiple(of: 2),
                at: Extremes.walk(Extremes.sendableDates, index),
                tags: [Extremes.walk(Extremes.strings, index + 1), ""],
                maybe: index.isMultiple(of: 2) ? nil : Extremes.walk(Extremes.strings, index + 2))
            try await checkJSON(payload, api, transport)
        }
        await propertyCheck(
            count: 150,
            input: zip(
                Generators.text, Generators.double, Generators.float, Generators.int, Gen<UInt64>.value(), Gen.bool, Generators.date,
                Generators.texts, Generators.text.optional)
        ) { text, number, ratio, count, big, flag, at, tags, maybe in
            let payload = Payload(
                text: text, number: number, ratio: ratio, count: count, big: big, flag: flag, at: at, tags: tags, maybe: maybe)
            try await checkJSON(payload, api, transport)
        }
    }

    private func checkJSON(_ payload: Payload, _ api: Api, _ transport: RecordingTransport) async throws {
        var expected = Expectation()
        let encodable = payload.number.isFinite && payload.ratio.isFinite && Wire.milliseconds(payload.at) != nil
        expected.add("payload", encodable ? "" : nil, field: "payload")
        let context = "\(Show.text(payload.text)), \(payload.number), \(payload.ratio)"

        let outcome = await call(transport) { _ = try await api.json(JsonRequest(payload: payload)) }

        try verify(outcome, expected, kind: .unencodableBody, context) { params in
            let body = try #require(params.payload)
            #expect(body.contentType == "application/json")
            let data = try body.data()
            #expect((try? JSONSerialization.jsonObject(with: data)) is [String: Any], "\(context)")
            let decoded = try JSONDecoder().decode(DecodedPayload.self, from: data)
            let same =
                Array(decoded.text.utf8) == Array(payload.text.utf8) && decoded.number.bitPattern == payload.number.bitPattern
                && decoded.ratio.bitPattern == payload.ratio.bitPattern && decoded.count == payload.count && decoded.big == payload.big
                && decoded.flag == payload.flag && decoded.at == Wire.milliseconds(payload.at)
                && decoded.tags.map { Array($0.utf8) } == payload.tags.map { Array($0.utf8) }
                && decoded.maybe.map { Array($0.utf8) } == payload.maybe.map { Array($0.utf8) }
            #expect(same, "\(context): decoded \(decoded.number), \(decoded.ratio), \(decoded.at)")
        }
    }

    // MARK: @Url

    /// `DynamicURLTests.anyString` already draws 3,000 strings from URL syntax and checks that a sent URL parses,
    /// has no fragment and no dot segment. This one adds what it does not cover: control characters, repaired
    /// surrogates, combining marks, bidirectional overrides, invalid UTF-8 escapes next to dot segments, U+FEFF, a
    /// value of 64 KiB, full URLs on the base URL's origin, `URL` values, and that the sent path and query
    /// decode to exactly what the value says.
    @Test("@Url: the sent path and query decode to the value's own (fragment dropped, @Query after), or it is refused naming the field")
    func url() async throws {
        // Given
        let (api, transport) = api()

        // When, then
        for index in 0..<Extremes.walkCount {
            let origin = Extremes.walk(Extremes.origins, index)
            let pieces = (1...3).map { Extremes.walk(Extremes.pieces, index + $0) }
            let withQueryAndFragment = origin + "/a/" + pieces[0] + "?q=" + pieces[1] + "#" + pieces[2]
            for value in [origin + "/" + Extremes.walk(Extremes.strings, index), withQueryAndFragment] {
                try await checkURL(origin: origin, value: value, page: index.isMultiple(of: 2) ? nil : index, api, transport)
            }
        }
        await propertyCheck(
            count: 250,
            input: zip(Gen<String?>.element(of: Extremes.origins).map { $0! }, Generators.text, Gen<Int>.value(in: 0...99).optional)
        ) { origin, rest, page in
            try await checkURL(origin: origin, value: origin + "/" + rest, page: page, api, transport)
        }
    }

    private func checkURL(origin: String, value: String, page: Int?, _ api: Api, _ transport: RecordingTransport) async throws {
        let expectedURL = Wire.url(value, origin: origin)
        var expected = Expectation()
        expected.add("url", expectedURL == nil ? nil : "", field: "url")
        let context = Show.text(value)

        let outcome = await call(transport) { _ = try await api.url(UrlRequest(url: value, page: page)) }

        try verify(outcome, expected, context) { params in
            guard let expectedURL else { return }
            let (path, ownQuery) = expectedURL
            #expect(Parse.isEncoded(params.encodedPath, allowing: Parse.pathCharacters), "\(context): \(Show.text(params.encodedPath))")
            #expect(Parse.percentDecoded(Array(params.encodedPath.utf8)[...]) == path, "\(context): \(Show.text(params.encodedPath))")
            var query = params.encodedQuery ?? ""
            if let page {
                #expect(query.hasSuffix("page=\(page)"), "\(context)")
                query = String(query.dropLast("page=\(page)".count))
                if !query.isEmpty {
                    #expect(query.hasSuffix("&"), "\(context)")
                    query = String(query.dropLast())
                }
            }
            #expect(Parse.isEncoded(query, allowing: Parse.queryCharacters), "\(context): \(Show.text(query))")
            #expect(Parse.percentDecoded(Array(query.utf8)[...]) == (ownQuery ?? []), "\(context): \(Show.text(query))")
            #expect((params.encodedQuery == nil) == (ownQuery == nil && page == nil), "\(context)")
            // `queryItems`: the value's own query items decoded (raw where they are not UTF-8), then the fields'.
            if let ownItems = Parse.items(ownQuery == nil ? "" : query) {
                let items = params.queryItems.map { Pair($0.name, $0.value) }
                let expectedItems = ownItems + (page.map { [Pair("page", "\($0)")] } ?? [])
                let same = items.count == expectedItems.count && zip(items, expectedItems).allSatisfy(Parse.sameItem)
                #expect(same, "\(context): queryItems \(items) instead of \(expectedItems)")
            }
            let url = params.url
            let components = try #require(URLComponents(url: url, resolvingAgainstBaseURL: false), "\(context)")
            #expect(components.percentEncodedPath == (origin.isEmpty ? "/v2" : "") + params.encodedPath, "\(context)")
            #expect(components.percentEncodedQuery == params.encodedQuery && components.fragment == nil, "\(context)")
            let absolute = origin.isEmpty ? nil : origin.replacingOccurrences(of: "HTTPS:", with: "https:") + params.encodedPathAndQuery
            #expect(params.absoluteURL?.absoluteString == absolute, "\(context)")
        }

        // A URL value goes exactly as its text does (the large value is checked once, as text).
        if value.utf8.count < 65_536, let url = URL(string: value) {
            let fromURL = await call(transport) { _ = try await api.urlValue(UrlValueRequest(url: url)) }
            let fromText = await call(transport) { _ = try await api.url(UrlRequest(url: url.absoluteString)) }
            switch (fromURL, fromText) {
            case (.sent(let a), .sent(let b)):
                #expect(a.encodedPathAndQuery == b.encodedPathAndQuery && a.absoluteURL == b.absoluteURL, "\(context)")
            case (.threw(let a as RequestError), .threw(let b as RequestError)):
                #expect(a.reason == b.reason && a.field == "url", "\(context)")
            default:
                Issue.record("\(context): URL(string:) of the value went differently from its text")
            }
        }
    }

    // MARK: Rules across the kinds

    @Test("NaN and infinities are refused naming the field in @Query, @Path, @Header, @FormParam and map entries")
    func nonFiniteFloatingPointValues() async throws {
        // Given
        let (api, transport) = api()

        // When, then
        for (double, float) in zip(Extremes.nonFiniteDoubles, Extremes.nonFiniteFloats) {
            try await checkNonFinite(double, float, api, transport)
        }
        await propertyCheck(count: 30, input: zip(Generators.nonFiniteDouble, Generators.nonFiniteFloat)) { double, float in
            try await checkNonFinite(double, float, api, transport)
        }
    }

    private func checkNonFinite(_ double: Double, _ float: Float, _ api: Api, _ transport: RecordingTransport) async throws {
        let context = "\(double), \(float)"
        let forDouble = Wire.nonFiniteReason(double)
        let forFloat = Wire.nonFiniteReason(float)
        expectRefusal(
            await call(transport) { _ = try await api.query(QueryRequest(number: double)) }, field: "number", reason: forDouble, context)
        expectRefusal(
            await call(transport) { _ = try await api.query(QueryRequest(ratio: float)) }, field: "ratio", reason: forFloat, context)
        expectRefusal(
            await call(transport) { _ = try await api.path(PathRequest(number: double)) }, field: "number", reason: forDouble, context)
        expectRefusal(
            await call(transport) { _ = try await api.header(HeaderRequest(number: double)) }, field: "number", reason: forDouble,
            context)
        expectRefusal(
            await call(transport) { _ = try await api.header(HeaderRequest(ratio: float)) }, field: "ratio", reason: forFloat, context)
        expectRefusal(
            await call(transport) { _ = try await api.form(FormRequest(number: double)) }, field: "number", reason: forDouble, context)
        expectRefusal(
            await call(transport) { _ = try await api.multipartForm(FormRequest(ratio: float)) }, field: "ratio", reason: forFloat,
            context)
        expectRefusal(
            await call(transport) { _ = try await api.queryMap(QueryMapRequest(filters: ["a": 1, "b": double])) },
            field: "filters[\"b\"]", reason: forDouble, context)
        expectRefusal(
            await call(transport) { _ = try await api.numberHeaderMap(NumberHeaderMapRequest(numbers: ["X-A": float])) },
            field: "numbers[\"X-A\"]", reason: forFloat, context)
        expectRefusal(
            await call(transport) { _ = try await api.formMap(FormMapRequest(fields: ["f": [1.5, double]])) },
            field: "fields[\"f\"]", reason: forDouble, context)
    }

    /// `CGFloat`, `Decimal` and `Float16` reach the wire by other paths than `Double` and `Float` (`Decimal` through
    /// its description, `Float16` through `LosslessStringConvertible`, `CGFloat` on Linux as the `Double` it holds),
    /// and are held to the same rule. `Decimal` has a NaN but no infinity.
    @Test("NaN and infinities of CGFloat, Decimal and Float16 are refused naming the field; their finite values are sent as text")
    func otherFloatingPointTypes() async throws {
        // Given
        let (api, transport) = api()
        var refused: [(OtherNumbersRequest, String, String)] = [
            (OtherNumbersRequest(cgFloat: .nan), "cgFloat", Wire.nonFiniteReason(Double.nan)),
            (OtherNumbersRequest(cgFloat: -.infinity), "cgFloat", Wire.nonFiniteReason(-Double.infinity)),
            (OtherNumbersRequest(cgFloat: .infinity), "cgFloat", Wire.nonFiniteReason(Double.infinity)),
            (OtherNumbersRequest(decimal: .nan), "decimal", Wire.nonFiniteReason(Double.nan)),
        ]
        var finite = OtherNumbersRequest(cgFloat: 0.1, decimal: Decimal(string: "-12.5"))
        var expectedQuery = "cgFloat=0.1&decimal=-12.5"
        #if !((os(macOS) || targetEnvironment(macCatalyst)) && arch(x86_64))
            refused += [
                (OtherNumbersRequest(half: .infinity), "half", Wire.nonFiniteReason(Double.infinity)),
                (OtherNumbersRequest(half: -.nan), "half", Wire.nonFiniteReason(Double.nan)),
            ]
            finite.half = 0.5
            expectedQuery += "&half=0.5"
        #endif

        for (request, field, reason) in refused {
            // When
            let outcome = await call(transport) { _ = try await api.otherNumbers(request) }

            // Then
            expectRefusal(outcome, field: field, reason: reason, "\(field): \(reason)")
        }
        // When
        let outcome = await call(transport) { [finite] in _ = try await api.otherNumbers(finite) }

        // Then
        verify(outcome, Expectation(), "finite values") { params in
            #expect(params.encodedQuery == expectedQuery)
        }
    }

    @Test("dates whose epoch milliseconds do not fit Int64 are refused naming the field, and make a @JsonBody unencodable")
    func datesOutsideInt64Milliseconds() async throws {
        // Given
        let (api, transport) = api()
        #expect(Extremes.unsendableDates.count > 10)

        // When, then
        for date in Extremes.unsendableDates {
            try await checkUnsendableDate(date, api, transport)
        }
        await propertyCheck(count: 30, input: Generators.unsendableDate) { date in
            try await checkUnsendableDate(date, api, transport)
        }
    }

    private func checkUnsendableDate(_ date: Date, _ api: Api, _ transport: RecordingTransport) async throws {
        let context = "\(date.timeIntervalSince1970) s"
        let reason = Wire.unsendableDateReason(date)
        expectRefusal(await call(transport) { _ = try await api.query(QueryRequest(at: date)) }, field: "at", reason: reason, context)
        expectRefusal(await call(transport) { _ = try await api.path(PathRequest(at: date)) }, field: "at", reason: reason, context)
        expectRefusal(await call(transport) { _ = try await api.header(HeaderRequest(at: date)) }, field: "at", reason: reason, context)
        expectRefusal(await call(transport) { _ = try await api.form(FormRequest(at: date)) }, field: "at", reason: reason, context)
        expectRefusal(
            await call(transport) { _ = try await api.multipartForm(FormRequest(at: date)) }, field: "at", reason: reason, context)
        expectRefusal(
            await call(transport) { _ = try await api.queryMap(QueryMapRequest(filters: ["since": date])) },
            field: "filters[\"since\"]", reason: reason, context)
        expectRefusal(
            await call(transport) { _ = try await api.numberHeaderMap(NumberHeaderMapRequest(numbers: ["X-Since": date])) },
            field: "numbers[\"X-Since\"]", reason: reason, context)
        expectRefusal(
            await call(transport) { _ = try await api.formMap(FormMapRequest(fields: ["since": [date]])) },
            field: "fields[\"since\"]", reason: reason, context)
        expectRefusal(
            await call(transport) { _ = try await api.json(JsonRequest(payload: Payload(at: date))) }, field: "payload",
            kind: .unencodableBody, context)
    }

    /// Set by hand, these headers would contradict the body or the connection the transport manages. A declared name
    /// is a mistake in the declaration, reported by the call before anything is built; a map key is a value, refused
    /// naming the entry.
    @Test(
        "framing and connection header names, in any case, are a declaration mistake as @Header names and refused naming the entry as @HeaderMap keys"
    )
    func framingHeaderNames() async throws {
        // Given
        let (api, transport) = api()
        let requests: [(any FramingHeaderRequest, String)] = [
            (ContentLengthRequest(), "Content-Length"), (TransferEncodingRequest(), "transfer-encoding"), (HostRequest(), "Host"),
            (ConnectionRequest(), "CONNECTION"), (UpgradeRequest(), "Upgrade"), (TERequest(), "te"), (TrailerRequest(), "Trailer"),
            (KeepAliveRequest(), "Keep-Alive"), (ProxyConnectionRequest(), "proxy-Connection"),
        ]

        // When, then
        for (request, name) in requests {
            let outcome = await call(transport) { _ = try await api.framing(request) }
            expectDeclarationMistake(outcome, field: "value", naming: name, "\(type(of: request))")
        }
        for name in Extremes.framingNames + Extremes.framingNames.map({ $0.uppercased() }) {
            try await checkFramingKey(name, api, transport)
        }
        await propertyCheck(count: 30, input: zip(Gen<String?>.element(of: Extremes.framingNames).map { $0! }, Gen.bool.array(of: 20))) {
            name, flips in
            let key = String(zip(name, flips).map { character, flip in flip ? Character(character.uppercased()) : character })
            try await checkFramingKey(key, api, transport)
        }
    }

    private func checkFramingKey(_ key: String, _ api: Api, _ transport: RecordingTransport) async throws {
        let outcome = await call(transport) { _ = try await api.headerMap(HeaderMapRequest(extra: [key: "1", "X-Fine": "1"])) }
        expectRefusal(outcome, field: "extra[\"\(key)\"]", key) { $0.hasPrefix("'\(key)' ") }
    }

    /// RFC 9110 §5.5: a recipient strips the spaces and tabs around a field value, so a value that starts or ends
    /// with one would reach the server as another value. Content types and MIME types are header values too; `@Url`
    /// refuses the same thing ("trim it").
    @Test(
        "a header value with a space or tab at either end is refused naming the field, also as a content type or MIME type",
        arguments: [" token", "token ", "\ttoken", "token\t", " ", "\t", " a\t", "\ta ", "a \t"])
    func headerValuesWithSurroundingWhitespace(value: String) async throws {
        // Given
        let (api, transport) = api()
        let reason = try #require(Wire.surroundingWhitespaceReason(value))

        // When
        let header = await call(transport) { _ = try await api.header(HeaderRequest(text: value)) }
        let list = await call(transport) { _ = try await api.header(HeaderRequest(tags: [value])) }
        let map = await call(transport) { _ = try await api.headerMap(HeaderMapRequest(extra: ["X-Trace": value])) }
        let raw = await call(transport) {
            _ = try await api.rawContent(RawContentRequest(content: RawBodyContent(data: Data("x".utf8), contentType: value)))
        }
        let upload = await call(transport) {
            _ = try await api.upload(UploadRequest(file: FormFile.File(fileName: "a.txt", mimeType: value, content: Data("x".utf8))))
        }

        // Then
        let context = value.debugDescription
        expectRefusal(header, field: "text", reason: reason, context)
        expectRefusal(list, field: "tags", reason: reason, context)
        expectRefusal(map, field: "extra[\"X-Trace\"]", reason: reason, context)
        expectRefusal(raw, field: "content", reason: "content type: " + reason, context)
        expectRefusal(upload, field: "file", reason: "MIME type: " + reason, context)
    }

    /// A list joins with ", ", so an empty last element leaves a space at the end; whitespace inside a value is kept.
    @Test("a header list whose last element is empty is refused, and whitespace inside a value is sent as it is")
    func headerWhitespaceInside() async throws {
        // Given
        let (api, transport) = api()

        // When
        let emptyLast = await call(transport) { _ = try await api.header(HeaderRequest(tags: ["a", ""])) }
        let inside = await call(transport) { _ = try await api.header(HeaderRequest(text: "a \t b", tags: ["", "c"])) }

        // Then
        expectRefusal(emptyLast, field: "tags", reason: Wire.surroundingWhitespaceReason("a, ") ?? "", "[\"a\", \"\"]")
        verify(inside, Expectation(), "inside") { params in
            #expect(params.headers.first { $0.name == "X-Text" }?.value == "a \t b")
            #expect(params.headers.first { $0.name == "X-Tags" }?.value == ", c")
        }
    }

    /// The README: "two header keys differing only in case are refused too", also when both name a static header,
    /// where the later one would replace the earlier and one of the two values asked for would never be sent. One key
    /// naming a static header in another case overrides it.
    @Test("two @HeaderMap keys differing only in case are refused naming the later one, also when they name a static header")
    func headerMapKeysDifferingInCase() async throws {
        // Given
        let (api, transport) = api()
        let cases: [(keys: [String], refused: String, other: String)] = [
            (["X-Static", "x-static"], "x-static", "X-Static"), (["X-Trace", "x-TRACE"], "x-TRACE", "X-Trace"),
            (["x-static", "X-STATIC", "X-Other"], "x-static", "X-STATIC"),
        ]

        for (keys, refused, other) in cases {
            // When
            let extra = Dictionary(uniqueKeysWithValues: keys.enumerated().map { ($1, "v\($0)") })
            let outcome = await call(transport) { _ = try await api.headerMap(HeaderMapRequest(extra: extra)) }

            // Then
            expectRefusal(
                outcome, field: "extra[\"\(refused)\"]",
                reason: "'\(refused)' and '\(other)' name the same header (header names are case-insensitive)", "\(keys)")
        }
        // When
        let override = await call(transport) { _ = try await api.headerMap(HeaderMapRequest(extra: ["x-STATIC": "mine"])) }

        // Then
        verify(override, Expectation(), "x-STATIC") { params in
            #expect(params.headerFields.map { Pair($0.name, $0.value) } == [Pair("X-Account", "acc"), Pair("x-STATIC", "mine")])
        }
    }

    /// `@Url` refuses `.` and `..` segments, also behind an encoded `/`, `\` or a `;`. A segment is decoded byte by
    /// byte, so an escape that is not UTF-8 (`%FF`) in the same segment does not hide them: `/..%2F%FF` would reach a
    /// server that decodes before routing as `/v2/../\xFF`, that is `/\xFF`, out of the base path.
    @Test(
        "a dot segment next to an invalid UTF-8 escape in the same segment is refused",
        arguments: [
            "/..%2F%FF", "/%2E%2E%2F%C0/admin", "/%2E%2E;%FF/admin", "https://api.example/a/..%5C%FF", "/a/.%2F%FF", "/%FF%2F..",
            "/x/%2e%2e%5c%C0%AF",
        ])
    func urlDotSegmentsNextToInvalidUTF8(value: String) async throws {
        // Given
        let (api, transport) = api()

        // When
        let outcome = await call(transport) { _ = try await api.url(UrlRequest(url: value)) }

        // Then
        expectRefusal(outcome, field: "url", value) { $0.hasPrefix("the URL '\(value)' has a '.' or '..' segment") }
    }

    /// Foundation's `removingPercentEncoding` drops a U+FEFF at the start of what it decodes (the test server decodes
    /// by hand for that reason, see `RecordedRequest.decode`). RetroSwift decodes `@Url` values by hand too, so a
    /// U+FEFF at the start of a query name or value stays in `queryItems`, and `/\u{FEFF}.` is a segment of two
    /// scalars, not `.`.
    @Test("a U+FEFF at the start of a @Url query name or value, or of a path segment, is kept")
    func leadingByteOrderMarkInURL() async throws {
        // Given
        let (api, transport) = api()

        // When
        let query = await call(transport) { _ = try await api.url(UrlRequest(url: "/x?%EF%BB%BFk=\u{FEFF}v&\u{FEFF}=%EF%BB%BF")) }
        let segment = await call(transport) { _ = try await api.url(UrlRequest(url: "/\u{FEFF}./%EF%BB%BF..")) }

        // Then
        verify(query, Expectation(), "query") { params in
            #expect(params.encodedQuery == "%EF%BB%BFk=%EF%BB%BFv&%EF%BB%BF=%EF%BB%BF")
            #expect(
                params.queryItems.map { Pair($0.name, $0.value) } == [Pair("\u{FEFF}k", "\u{FEFF}v"), Pair("\u{FEFF}", "\u{FEFF}")])
        }
        verify(segment, Expectation(), "segment") { params in
            #expect(params.encodedPath == "/%EF%BB%BF./%EF%BB%BF..")
        }
    }

    // MARK: Calling and checking

    /// What one call did: the request it sent, or the error it threw.
    private enum Outcome {
        case sent(HttpRequestParams)
        case threw(any Error)
    }

    /// Calls `send`, checking that a call that throws sends nothing and one that returns sends one request.
    private func call(
        _ transport: RecordingTransport, sourceLocation: SourceLocation = #_sourceLocation, _ send: () async throws -> Void
    ) async -> Outcome {
        // Thousands of calls, each finished without suspending: yielding between them leaves the shared concurrency
        // pool to the rest of the run, whose timing tests a sanitized build on two cores otherwise starves.
        await Task.yield()
        let before = transport.requests.count
        do {
            try await send()
        } catch {
            #expect(transport.requests.count == before, "the call threw after sending: \(error)", sourceLocation: sourceLocation)
            return .threw(error)
        }
        let requests = transport.requests
        #expect(requests.count == before + 1, "the call sent \(requests.count - before) requests", sourceLocation: sourceLocation)
        return .sent(requests[requests.count - 1])
    }

    /// What a call must do: send `pairs` (names and values in wire order), or throw naming `refusedField`.
    private struct Expectation {
        var pairs: [Pair] = []
        var refusedField: String?

        /// Adds a field's wire string; `nil` means the value cannot be sent, so the call must refuse the field.
        mutating func add(_ name: String, _ value: String?, field: String) {
            guard refusedField == nil else { return }
            if let value {
                pairs.append(Pair(name, value))
            } else {
                refusedField = field
            }
        }
    }

    /// Checks `outcome` against `expected`: a `RequestError` of `kind` naming the refused field, or a request that
    /// `sent` checks further.
    private func verify(
        _ outcome: Outcome, _ expected: Expectation, kind: RequestError.Kind = .invalidValue, _ context: String,
        sourceLocation: SourceLocation = #_sourceLocation, sent: (HttpRequestParams) throws -> Void
    ) rethrows {
        switch (outcome, expected.refusedField) {
        case (.threw, let field?):
            expectRefusal(outcome, field: field, kind: kind, context, sourceLocation: sourceLocation)
        case (.threw(let error), nil):
            Issue.record("\(context): expected a request, but the call threw \(error)", sourceLocation: sourceLocation)
        case (.sent(let params), nil):
            try sent(params)
        case (.sent(let params), let field?):
            Issue.record(
                "\(context): expected a RequestError naming '\(field)', but the call sent \(Show.request(params))",
                sourceLocation: sourceLocation)
        }
    }

    /// Checks that `outcome` is a `RequestError` of `kind` naming `field`, whose reason is `reason` when one is given
    /// and meets `matching`.
    private func expectRefusal(
        _ outcome: Outcome, field: String, kind: RequestError.Kind = .invalidValue, reason: String? = nil, _ context: String,
        sourceLocation: SourceLocation = #_sourceLocation, matching: (String) -> Bool = { _ in true }
    ) {
        switch outcome {
        case .threw(let error as RequestError):
            let expected = "\(kind) naming '\(field)'" + (reason.map { " because \($0.debugDescription)" } ?? "")
            #expect(
                error.kind == kind && error.field == field && (reason == nil || error.reason == reason) && matching(error.reason),
                "\(context): expected \(expected), got \(error.kind) naming \(error.field ?? "nothing"): \(error.reason.debugDescription)",
                sourceLocation: sourceLocation)
        case .threw(let error):
            Issue.record("\(context): expected a RequestError naming '\(field)', got \(error)", sourceLocation: sourceLocation)
        case .sent(let params):
            Issue.record(
                "\(context): expected a RequestError naming '\(field)', but the call sent \(Show.request(params))",
                sourceLocation: sourceLocation)
        }
    }

    /// Checks that `outcome` is a `DeclarationError` of one issue, about `field`, whose problem starts with `'name'`.
    private func expectDeclarationMistake(
        _ outcome: Outcome, field: String, naming name: String, _ context: String, sourceLocation: SourceLocation = #_sourceLocation
    ) {
        switch outcome {
        case .threw(let error as DeclarationError):
            let issue = error.issues.first
            #expect(
                error.issues.count == 1 && issue?.field == field && issue?.problem.hasPrefix("'\(name)' ") == true,
                "\(context): expected one declaration mistake about '\(field)' naming '\(name)', got \(error)",
                sourceLocation: sourceLocation)
        case .threw(let error):
            Issue.record("\(context): expected a DeclarationError naming '\(field)', got \(error)", sourceLocation: sourceLocation)
        case .sent(let params):
            Issue.record(
                "\(context): expected a DeclarationError naming '\(field)', but the call sent \(Show.request(params))",
                sourceLocation: sourceLocation)
        }
    }

    /// Compares without printing large values when they differ.
    private func expectSame(_ actual: [Pair]?, _ expected: [Pair], _ context: String, sourceLocation: SourceLocation = #_sourceLocation) {
        let same = actual == expected
        #expect(
            same, "\(context): sent \(actual.map { "\($0)" } ?? "nothing parsable") instead of \(expected)", sourceLocation: sourceLocation)
    }
}

// MARK: - Values

/// A name and a value as UTF-8 bytes.
private struct Pair: Equatable, CustomStringConvertible {
    var name: [UInt8]
    var value: [UInt8]

    init(_ name: String, _ value: String) {
        self.name = Array(name.utf8)
        self.value = Array(value.utf8)
    }

    init(bytes name: [UInt8], _ value: [UInt8]) {
        self.name = name
        self.value = value
    }

    var description: String {
        Show.bytes(name) + "=" + Show.bytes(value)
    }
}

/// The extreme values every test sends once, and the generators draw from.
private enum Extremes {
    /// 64 KiB: beyond any buffer or header limit, and quick to check in debug and sanitized builds.
    static let large = 1 << 16

    /// Every C0 control character and DEL.
    static let controls: [String] = (0x00...0x1F).map { String(UnicodeScalar(UInt8($0))) } + ["\u{7F}"]

    /// Lone surrogates as far as a Swift `String` can hold them: invalid UTF-16, repaired to U+FFFD on decoding.
    static let repairedSurrogates: [String] = [[0xD800], [0xDBFF], [0xDC00], [0xDFFF], [0x61, 0xD800, 0x62], [0xDC00, 0xD800]].map {
        String(decoding: $0 as [UInt16], as: UTF16.self)
    }

    /// Pieces that strings are made of.
    static let pieces: [String] =
        controls + repairedSurrogates + [
            // The replacement character, a byte order mark, invisible, non-breaking and line-separating characters, C1 controls.
            "\u{FFFD}", "\u{FEFF}", "\u{200B}", "\u{A0}", "\u{2028}", "\u{2029}", "\u{85}", "\u{9B}",
            // Combining marks: alone, stacked, after a letter and after delimiters, where they make one Character.
            "\u{301}", "e\u{301}", "\u{34F}", "\u{20DD}", "a\u{300}\u{316}\u{35C}\u{362}", "/\u{301}", "%\u{301}", ".\u{301}", "#\u{301}",
            // Bidirectional overrides, isolates and marks, and right-to-left text.
            "\u{202E}", "\u{202D}", "\u{2066}", "\u{2067}", "\u{2069}", "\u{200F}", "\u{61C}", "\u{5E9}\u{5DC}\u{5D5}\u{5DD}",
            "\u{645}\u{631}\u{62D}\u{628}\u{627}",
            // Percent sequences: valid, truncated, malformed, encoded delimiters and controls, and invalid UTF-8.
            "%", "%%", "%2", "%25", "%zz", "%00", "%0D%0A", "%20", "%2B", "%26", "%3D", "%23", "%2F", "%5C", "%2e", "%2E%2E", "%FF",
            "%C0%AF", "%E2%80%AE", "%u0041",
            // Delimiters of URLs, forms, headers and JSON.
            " ", "  ", "+", "&", "=", "?", "#", "/", "\\", ";", ",", ":", "@", "\"", "'", "<", ">", "{", "}", "[", "]", "|", "^", "`", "~",
            "*", "!", "$", "(", ")", ".", "..", "-", "_",
            // Letters, digits, wide, astral and unassigned characters.
            "a", "Z", "0", "9", "\u{E9}", "\u{DF}", "\u{130}", "\u{65E5}\u{672C}", "\u{1F600}",
            "\u{1F469}\u{200D}\u{1F469}\u{200D}\u{1F467}",
            "\u{1F1EB}\u{1F1F7}", "\u{E000}", "\u{FFFF}", "\u{10FFFF}",
            // Words that look like other values.
            "true", "null", "nan", "-inf", "-0", "1e400",
        ]

    /// `large` bytes of text that needs encoding nearly everywhere: 1 KB blocks of letters, each ending in characters
    /// that every kind encodes or refuses (mostly letters, so that debug builds check it in a fraction of a second).
    static let largeString = String(repeating: String(repeating: "a", count: 1_016) + "\u{E9} %\u{202E}&", count: large / 1_024)

    /// Every piece alone, the empty string, and the large string.
    static let strings: [String] = [largeString, ""] + pieces

    static let finiteDoubles: [Double] = [
        0, -0.0, 1, -1, 0.1, 0.1 + 0.2, 1e-7, 1e16, 9_007_199_254_740_991, .pi, .greatestFiniteMagnitude, -.greatestFiniteMagnitude,
        .leastNormalMagnitude, .leastNonzeroMagnitude, -.leastNonzeroMagnitude, Double.leastNormalMagnitude.nextDown, 1e308, -1e-308,
        Double(Int64.max), Double(Int64.min),
    ]

    static let nonFiniteDoubles: [Double] = [
        .nan, -.nan, .signalingNaN, .infinity, -.infinity, Double(bitPattern: 0x7FF0_0000_0000_0001),
        Double(bitPattern: 0xFFFF_FFFF_FFFF_FFFF),
    ]

    static let finiteFloats: [Float] = [
        0, -0.0, 1, -1, 0.1, 16_777_215, .pi, .greatestFiniteMagnitude, -.greatestFiniteMagnitude, .leastNormalMagnitude,
        .leastNonzeroMagnitude, -.leastNonzeroMagnitude, 3.4e38,
    ]

    static let nonFiniteFloats: [Float] = [
        .nan, -.nan, .signalingNaN, .infinity, -.infinity, Float(bitPattern: 0x7F80_0001), Float(bitPattern: 0xFFFF_FFFF),
    ]

    static let ints: [Int] = [.min, .min + 1, -1, 0, 1, .max - 1, .max, Int(Int32.max) + 1]

    static let uint64s: [UInt64] = [0, 1, .max, .max - 1, UInt64(Int64.max) + 1]

    /// The largest magnitude in seconds whose milliseconds reach 2^63, which does not fit Int64, and its neighbours.
    static let int64Edge = 9_223_372_036_854_775_808.0 / 1000

    /// Seconds since 1970: rounding halves, far dates, the edges of Int64 milliseconds, and what lies beyond them.
    static let dateSeconds: [Double] = [
        0, 0.0005, -0.0005, 0.0015, -1.0006, 0.00049, 1_700_000_000.123_5, -62_135_596_800, 253_402_300_799, 8.64e12, -8.64e12,
        Date.distantPast.timeIntervalSince1970, Date.distantFuture.timeIntervalSince1970, .leastNonzeroMagnitude, 1e15, -1e15,
        int64Edge.nextDown.nextDown, int64Edge.nextDown, int64Edge, int64Edge.nextUp, -int64Edge.nextDown, -int64Edge, -int64Edge.nextUp,
        -int64Edge.nextUp.nextUp, 1e16, -1e16, 1e300, .greatestFiniteMagnitude, -.greatestFiniteMagnitude, .infinity, -.infinity, .nan,
    ]

    static let sendableDates = dateSeconds.map { Date(timeIntervalSince1970: $0) }.filter { Wire.milliseconds($0) != nil }
    static let unsendableDates = dateSeconds.map { Date(timeIntervalSince1970: $0) }.filter { Wire.milliseconds($0) == nil }

    /// Media types: usual ones, ones with parameters, and broken ones.
    static let mimeTypes: [String] =
        [
            "image/png", "application/octet-stream", "text/plain; charset=utf-8", "multipart/mixed; boundary=\"x\"", "", "a/b\u{E9}",
            " image/png", "image/png ", "\timage/png", "text/plain;\tcharset=utf-8",
        ]
        + controls.map { "text/plain" + $0 }

    /// Header map keys: names of the fixture's headers in other cases, tokens, characters tokens exclude, and framing
    /// and connection header names.
    static let headerKeys: [String] =
        [
            "X-Static", "x-static", "X-Account", "X-ACCOUNT", "x-trace", "", "a", "!#$%&'*+-.^_`|~", "X Trace", "X:Trace", "X\u{E9}",
            "Content-Length", "host", "TRANSFER-ENCODING", "Te", "x-Content-Length",
        ]
        + pieces.map { "X-" + $0 }

    static let framingNames = [
        "Content-Length", "Transfer-Encoding", "Host", "Connection", "Upgrade", "TE", "Trailer", "Keep-Alive", "Proxy-Connection",
    ]

    /// Where a `@Url` value starts: a path, or a full URL on the base URL's origin.
    static let origins = ["", "https://api.example", "HTTPS://API.example:443"]

    /// Made anew for each use: a `Data` held by a static was reported as a leak by LeakSanitizer (its storage pointer
    /// sits inside Data's enum payload, where the scan does not find it).
    static var largeBytes: Data { Data((0..<large).map { UInt8(truncatingIfNeeded: $0 &* 167 &+ $0 >> 8) }) }

    /// How many calls walk all the lists side by side.
    static let walkCount = [strings.count, finiteDoubles.count, sendableDates.count, headerKeys.count, mimeTypes.count].max()!

    /// The `index`th value of `list`, starting over at its end.
    static func walk<T>(_ list: [T], _ index: Int) -> T {
        list[index % list.count]
    }
}

/// A value of a map entry, generated as data and handed to the map as `Any?`.
private enum MapValue: Sendable, CustomStringConvertible {
    case text(String), texts([String]), int(Int), double(Double), float(Float), bool(Bool), date(Date), none

    static let extremes: [MapValue] =
        Extremes.strings.prefix(2).map(MapValue.text) + Extremes.finiteDoubles.map(MapValue.double)
        + Extremes.finiteFloats.map(MapValue.float)
        + Extremes.sendableDates.map(MapValue.date) + Extremes.ints.map(MapValue.int) + [
            .bool(true), .none, .texts([]), .texts(["", "a b"]),
        ]

    var any: Any? {
        switch self {
        case .text(let value): value
        case .texts(let value): value
        case .int(let value): value
        case .double(let value): value
        case .float(let value): value
        case .bool(let value): value
        case .date(let value): value
        case .none: nil
        }
    }

    /// The strings the entry sends, or `nil` when it cannot be sent.
    var wireStrings: [String]? {
        switch self {
        case .text(let value): [value]
        case .texts(let value): value
        case .int(let value): [String(value)]
        case .double(let value): Wire.double(value).map { [$0] }
        case .float(let value): Wire.float(value).map { [$0] }
        case .bool(let value): [value ? "true" : "false"]
        case .date(let value): Wire.date(value).map { [$0] }
        case .none: []
        }
    }

    var description: String {
        switch self {
        case .text(let value): Show.text(value)
        case .texts(let value): "\(value.map(Show.text))"
        case .date(let value): "\(value.timeIntervalSince1970) s"
        default: "\(any ?? "nil")"
        }
    }
}

/// The generators of random values, drawing from `Extremes` and from whole ranges.
private enum Generators {
    static let piece = Gen<String?>.element(of: Extremes.pieces).map { $0! }
    static let text = piece.array(of: 0...8).map { $0.joined() }
    static let texts = text.array(of: 0...3)

    static let headerKey = Gen<String>.oneOf(
        Gen<String?>.element(of: Extremes.headerKeys).map { $0! },
        Gen<String?>.element(of: Array("!#$%&'*+-.^_`|~0123456789abcxyzABCXYZ").map(String.init)).map { $0! }.array(of: 1...6).map {
            $0.joined()
        })

    static let mapKey = Gen<String>.oneOf(text, Gen<String?>.element(of: ["page", "user", "a", "b"]).map { $0! })

    static let finiteDouble = Gen<Double>.oneOf(
        Gen<Double?>.element(of: Extremes.finiteDoubles).map { $0! }, Gen.double(in: -1e6...1e6),
        Gen<UInt64>.value().map { Double(bitPattern: $0) }.filter { $0.isFinite })

    /// NaNs of every payload and sign, and both infinities.
    static let nonFiniteDouble = Gen<Double>.oneOf(
        Gen<Double?>.element(of: Extremes.nonFiniteDoubles).map { $0! },
        zip(Gen.bool, Gen<UInt64>.value(in: 1...(1 << 52 - 1))).map { negative, payload in
            Double(bitPattern: (negative ? 1 << 63 : 0) | 0x7FF0_0000_0000_0000 | payload)
        })

    static let finiteFloat = Gen<Float>.oneOf(
        Gen<Float?>.element(of: Extremes.finiteFloats).map { $0! }, Gen.float(in: -1e6...1e6),
        Gen<UInt32>.value().map { Float(bitPattern: $0) }.filter { $0.isFinite })

    static let nonFiniteFloat = Gen<Float>.oneOf(
        Gen<Float?>.element(of: Extremes.nonFiniteFloats).map { $0! },
        zip(Gen.bool, Gen<UInt32>.value(in: 1...(1 << 23 - 1))).map { negative, payload in
            Float(bitPattern: (negative ? 1 << 31 : 0) | 0x7F80_0000 | payload)
        })

    static let int = Gen<Int>.oneOf(Gen<Int?>.element(of: Extremes.ints).map { $0! }, Gen<Int>.int())

    /// Dates of any number of seconds since 1970, far ones and non-finite ones included.
    static let anyDate = Gen<Double>.oneOf(
        Gen<Double?>.element(of: Extremes.dateSeconds).map { $0! }, Gen.double(in: -1e10...1e10), Gen.double(in: -9.3e15...9.3e15),
        Gen<UInt64>.value().map { Double(bitPattern: $0) }
    ).map { Date(timeIntervalSince1970: $0) }

    static let sendableDate = anyDate.filter { Wire.milliseconds($0) != nil }
    static let unsendableDate = anyDate.filter { Wire.milliseconds($0) == nil }

    /// What the per-kind tests draw: mostly values with a wire form, and one in twenty one that must be refused naming
    /// its field, so that a refused value rarely hides the rest of the request.
    static let double = Gen<Double>.frequency((19, finiteDouble), (1, nonFiniteDouble))
    static let float = Gen<Float>.frequency((19, finiteFloat), (1, nonFiniteFloat))
    static let date = Gen<Date>.frequency((19, sendableDate), (1, unsendableDate))

    static let mapValue = Gen<MapValue>.oneOf(
        text.map(MapValue.text), texts.map(MapValue.texts), int.map(MapValue.int), double.map(MapValue.double),
        float.map(MapValue.float), Gen.bool.map(MapValue.bool), date.map(MapValue.date), Gen.always(MapValue.none))

    static let mimeType = Gen<String>.oneOf(Gen<String?>.element(of: Extremes.mimeTypes).map { $0! }, text)

    static let bytes = Gen<UInt8>.value().array(of: 0...512)
}

/// What a value looks like on the wire, by the README's rules, written apart from Sources.
private enum Wire {
    /// Swift's description of a finite `Double`; `nil` (refused) for NaN and the infinities.
    static func double(_ value: Double) -> String? {
        guard value.isFinite else { return nil }
        let text = String(value)
        // Parsed back, it is the same number.
        return Double(text)?.bitPattern == value.bitPattern ? text : "\(text) does not parse back"
    }

    static func float(_ value: Float) -> String? {
        guard value.isFinite else { return nil }
        let text = String(value)
        return Float(text)?.bitPattern == value.bitPattern ? text : "\(text) does not parse back"
    }

    /// Whole epoch milliseconds, rounded to the nearest with halves away from zero; `nil` when they do not fit Int64.
    static func milliseconds(_ date: Date) -> Int64? {
        Int64(exactly: (date.timeIntervalSince1970 * 1000).rounded(.toNearestOrAwayFromZero))
    }

    static func date(_ date: Date) -> String? {
        milliseconds(date).map { String($0) }
    }

    /// Why a NaN or an infinity is refused.
    static func nonFiniteReason(_ number: some FloatingPoint) -> String {
        (number.isNaN ? "NaN" : number < 0 ? "-infinity" : "infinity") + " cannot be sent: only finite numbers have a wire form"
    }

    /// Why a date whose epoch milliseconds do not fit Int64 is refused.
    static func unsendableDateReason(_ date: Date) -> String {
        let seconds = date.timeIntervalSince1970
        let value = seconds.isNaN ? "NaN" : seconds == .infinity ? "infinity" : seconds == -.infinity ? "-infinity" : "\(seconds)"
        return "the date \(value) seconds since 1970 cannot be sent: its milliseconds since 1970 must fit a 64-bit integer "
            + "(about 292 million years either side of 1970)"
    }

    /// Why a header value with a space or tab at either end is refused, naming the start when both ends have one;
    /// `nil` when neither has.
    static func surroundingWhitespaceReason(_ value: String) -> String? {
        let blank = { (byte: UInt8?) -> String? in byte == UInt8(ascii: " ") ? "a space" : byte == UInt8(ascii: "\t") ? "a tab" : nil }
        guard let (end, what) = blank(value.utf8.first).map({ ("starts", $0) }) ?? blank(value.utf8.last).map({ ("ends", $0) })
        else { return nil }
        return "header value \(end) with \(what), which servers strip (RFC 9110 §5.5), so they would read another value; trim it"
    }

    /// A header value as given; `nil` (refused) when it holds a control character other than a tab, or starts or ends
    /// with a space or a tab, which a server strips (RFC 9110 §5.5) and so would read another value.
    static func header(_ value: String) -> String? {
        let isBlank = { (byte: UInt8?) in byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t") }
        if isBlank(value.utf8.first) || isBlank(value.utf8.last) { return nil }
        return value.utf8.contains { ($0 < 0x20 && $0 != 0x09) || $0 == 0x7F } ? nil : value
    }

    /// RFC 9110 `tchar`.
    static func isTokenCharacter(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"): true
        default: "!#$%&'*+-.^_`|~".utf8.contains(byte)
        }
    }

    /// Field names compare ASCII case-insensitively (RFC 9110 §5.1).
    static func sameHeaderName(_ first: String, _ second: String) -> Bool {
        let folded = { (text: String) in text.utf8.map { (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains($0) ? $0 + 32 : $0 } }
        return folded(first) == folded(second)
    }

    static func isFraming(_ name: String) -> Bool {
        Extremes.framingNames.contains { sameHeaderName($0, name) }
    }

    /// A multipart name or file name as the README says: `"`, CR and LF percent-encoded, as browsers do.
    static func quoted(_ text: [UInt8]) -> [UInt8] {
        var result: [UInt8] = []
        result.reserveCapacity(text.count)
        text.withUnsafeBufferPointer { bytes in
            for byte in bytes {
                switch byte {
                case UInt8(ascii: "\""): result += [UInt8(ascii: "%"), UInt8(ascii: "2"), UInt8(ascii: "2")]
                case 0x0D: result += [UInt8(ascii: "%"), UInt8(ascii: "0"), UInt8(ascii: "D")]
                case 0x0A: result += [UInt8(ascii: "%"), UInt8(ascii: "0"), UInt8(ascii: "A")]
                default: result.append(byte)
                }
            }
        }
        return result
    }

    /// What a `@Url` value must send by the README's rules, as decoded bytes: its path and its own query (without the
    /// fragment); `nil` when it must be refused. `value` is `origin` followed by a path starting with `/`.
    static func url(_ value: String, origin: String) -> (path: [UInt8], query: [UInt8]?)? {
        let bytes = Array(value.utf8)
        let hasControl = bytes.withUnsafeBufferPointer { bytes in
            var index = 0
            while index < bytes.count && bytes[index] >= 0x20 && bytes[index] != 0x7F { index += 1 }
            return index < bytes.count
        }
        if hasControl || bytes.last == UInt8(ascii: " ") { return nil }
        let afterOrigin = bytes[origin.utf8.count..<(bytes.firstIndex(of: UInt8(ascii: "#")) ?? bytes.count)]
        let rawPath = afterOrigin[..<(afterOrigin.firstIndex(of: UInt8(ascii: "?")) ?? afterOrigin.endIndex)]
        let rawQuery = afterOrigin.dropFirst(rawPath.count + 1)
        if origin.isEmpty && rawPath.starts(with: "//".utf8) { return nil }
        let path = Parse.leniently(Array(rawPath))
        if hasDotSegment(path) { return nil }
        return (path, rawQuery.isEmpty ? nil : Parse.leniently(Array(rawQuery)))
    }

    /// Whether decoded path bytes have a `.` or `..` segment, also between a `/` and a `\`, or before a `;`.
    static func hasDotSegment(_ path: [UInt8]) -> Bool {
        path.withUnsafeBufferPointer { bytes in
            // The segment's name so far: its dots, or -1 once it holds anything else or has passed a `;`.
            var dots = 0
            var inParameters = false
            for byte in bytes {
                switch byte {
                case UInt8(ascii: "/"), UInt8(ascii: "\\"):
                    if dots == 1 || dots == 2 { return true }
                    dots = 0
                    inParameters = false
                case UInt8(ascii: ";"):
                    inParameters = true
                case UInt8(ascii: ".") where !inParameters && dots >= 0:
                    dots += 1
                default:
                    if !inParameters { dots = -1 }
                }
            }
            return dots == 1 || dots == 2
        }
    }
}

/// Reading what was sent the way a server does. Loops over byte buffers: these parse large values in debug builds.
private enum Parse {
    /// Bytes that may stand as they are, looked up by value.
    struct ByteSet {
        private let table: [Bool]

        init(_ characters: String) {
            var table = [Bool](repeating: false, count: 256)
            for byte in characters.utf8 { table[Int(byte)] = true }
            self.table = table
        }

        func contains(_ byte: UInt8) -> Bool {
            table[Int(byte)]
        }
    }

    static let unreserved = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~"
    /// RFC 3986 `pchar` less `%`: what a path segment may hold besides escapes.
    static let segmentCharacters = ByteSet(unreserved + "!$&'()*+,;=:@")
    static let pathCharacters = ByteSet(unreserved + "!$&'()*+,;=:@/")
    static let queryCharacters = ByteSet(unreserved + "!$&'()*+,;=:@/?")
    /// The query characters less `+`, which RetroSwift encodes in the names and values of fields.
    static let fieldQueryCharacters = ByteSet(unreserved + "!$&'()*,;=:@/?")
    /// `application/x-www-form-urlencoded`: what the WHATWG serializer leaves, `+` for spaces, and the delimiters.
    static let formCharacters = ByteSet("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789*-._+&=")

    /// Whether every byte of `text` is in `allowed` or starts a well-formed `%XX`.
    static func isEncoded(_ text: String, allowing allowed: ByteSet) -> Bool {
        let hexValues = hexValues
        return Array(text.utf8).withUnsafeBufferPointer { bytes in
            var index = 0
            while index < bytes.count {
                if bytes[index] == UInt8(ascii: "%") {
                    guard index + 2 < bytes.count, hexValues[Int(bytes[index + 1])] != 0xFF, hexValues[Int(bytes[index + 2])] != 0xFF
                    else { return false }
                    index += 3
                } else {
                    guard allowed.contains(bytes[index]) else { return false }
                    index += 1
                }
            }
            return true
        }
    }

    /// RFC 3986 percent-decoding, `+` as a space in form decoding; `nil` for a `%` without two hex digits.
    static func percentDecoded(_ bytes: ArraySlice<UInt8>, plusAsSpace: Bool = false) -> [UInt8]? {
        let hexValues = hexValues
        return bytes.withUnsafeBufferPointer { bytes in
            var result: [UInt8] = []
            result.reserveCapacity(bytes.count)
            var index = 0
            while index < bytes.count {
                let byte = bytes[index]
                if byte == UInt8(ascii: "%") {
                    guard index + 2 < bytes.count else { return nil }
                    let high = hexValues[Int(bytes[index + 1])]
                    let low = hexValues[Int(bytes[index + 2])]
                    guard high != 0xFF && low != 0xFF else { return nil }
                    result.append(high << 4 | low)
                    index += 3
                } else {
                    result.append(plusAsSpace && byte == UInt8(ascii: "+") ? UInt8(ascii: " ") : byte)
                    index += 1
                }
            }
            return result
        }
    }

    /// Each well-formed `%XX` decoded and every other byte kept: what a `@Url` value, partly encoded or not, means.
    static func leniently(_ bytes: [UInt8]) -> [UInt8] {
        bytes.withUnsafeBufferPointer { bytes in
            var result: [UInt8] = []
            result.reserveCapacity(bytes.count)
            var index = 0
            while index < bytes.count {
                if bytes[index] == UInt8(ascii: "%"), index + 2 < bytes.count, let high = hex(bytes[index + 1]),
                    let low = hex(bytes[index + 2])
                {
                    result.append(high << 4 | low)
                    index += 3
                } else {
                    result.append(bytes[index])
                    index += 1
                }
            }
            return result
        }
    }

    /// The value of each hex digit, 0xFF for every other byte.
    static let hexValues: [UInt8] = (0...255).map { byte in
        switch UInt8(byte) {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): UInt8(byte) - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): UInt8(byte) - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): UInt8(byte) - UInt8(ascii: "A") + 10
        default: 0xFF
        }
    }

    static func hex(_ byte: UInt8) -> UInt8? {
        let value = hexValues[Int(byte)]
        return value == 0xFF ? nil : value
    }

    /// `name=value` items joined by `&`, decoded; `nil` when one is malformed.
    static func pairs(_ text: String, plusAsSpace: Bool) -> [Pair]? {
        let bytes = Array(text.utf8)
        guard !bytes.isEmpty else { return [] }
        // Where each item ends and where its first `=` is.
        var items: [(equals: Int?, end: Int)] = []
        bytes.withUnsafeBufferPointer { bytes in
            var equals: Int?
            for index in 0...bytes.count {
                if index == bytes.count || bytes[index] == UInt8(ascii: "&") {
                    items.append((equals, index))
                    equals = nil
                } else if equals == nil && bytes[index] == UInt8(ascii: "=") {
                    equals = index
                }
            }
        }
        var pairs: [Pair] = []
        var start = 0
        for (equals, end) in items {
            guard let equals, let name = percentDecoded(bytes[start..<equals], plusAsSpace: plusAsSpace),
                let value = percentDecoded(bytes[(equals + 1)..<end], plusAsSpace: plusAsSpace)
            else { return nil }
            pairs.append(Pair(bytes: name, value))
            start = end + 1
        }
        return pairs
    }

    /// The items of an encoded query as `HttpRequestParams.queryItems` lists them: split at `&` (empty items left
    /// out), then at the first `=`, each side decoded; `nil` when an escape is malformed.
    static func items(_ query: String) -> [Pair]? {
        var items: [Pair] = []
        for item in Array(query.utf8).split(separator: UInt8(ascii: "&")) {
            let equals = item.firstIndex(of: UInt8(ascii: "=")) ?? item.endIndex
            guard let name = percentDecoded(item[..<equals]),
                let value = percentDecoded(equals == item.endIndex ? [] : item[(equals + 1)...])
            else { return nil }
            items.append(Pair(bytes: name, value))
        }
        return items
    }

    /// Whether `sent` is `expected`, where a name or value whose decoded bytes are no UTF-8 may be listed as sent.
    static func sameItem(_ sent: Pair, _ expected: Pair) -> Bool {
        let isUTF8 = { (bytes: [UInt8]) in Array(String(decoding: bytes, as: UTF8.self).utf8) == bytes }
        return (sent.name == expected.name || !isUTF8(expected.name)) && (sent.value == expected.value || !isUTF8(expected.value))
    }

    /// One part of a multipart body, its header values as sent between the quotes.
    struct Part {
        var name: [UInt8]
        var fileName: [UInt8]?
        var contentType: [UInt8]?
        var content: [UInt8]
    }

    /// Where `needle` first starts in `haystack`.
    static func firstIndex(of needle: [UInt8], in haystack: ArraySlice<UInt8>) -> Int? {
        haystack.withUnsafeBufferPointer { bytes in
            guard let first = needle.first, bytes.count >= needle.count else { return nil }
            var index = 0
            while index <= bytes.count - needle.count {
                if bytes[index] == first && needle.indices.allSatisfy({ bytes[index + $0] == needle[$0] }) {
                    return haystack.startIndex + index
                }
                index += 1
            }
            return nil
        }
    }

    /// The parts of a `multipart/form-data` body (RFC 2046 §5.1.1); `nil` when it is not well formed.
    static func multipart(_ body: [UInt8], contentType: String) -> [Part]? {
        let prefix = "multipart/form-data; boundary="
        guard contentType.hasPrefix(prefix) else { return nil }
        let delimiter = Array("\r\n--\(contentType.dropFirst(prefix.count))".utf8)
        let stream = Array("\r\n".utf8) + body
        var pieces: [ArraySlice<UInt8>] = []
        var rest = stream[...]
        while let start = firstIndex(of: delimiter, in: rest) {
            pieces.append(rest[..<start])
            rest = rest[(start + delimiter.count)...]
        }
        guard pieces.first?.isEmpty == true, rest.elementsEqual("--\r\n".utf8) else { return nil }
        var parts: [Part] = []
        for piece in pieces.dropFirst() {
            guard piece.starts(with: "\r\n".utf8), let end = firstIndex(of: Array("\r\n\r\n".utf8), in: piece) else { return nil }
            var part = Part(name: [], content: Array(piece[(end + 4)...]))
            var sawDisposition = false
            let lines = piece[(piece.startIndex + 2)..<end].split(separator: 0x0A, omittingEmptySubsequences: false)
            for (number, line) in lines.enumerated() {
                // Lines end with CR LF; the header block ends before the last one's.
                guard number == lines.count - 1 || line.last == 0x0D else { return nil }
                let line = number == lines.count - 1 ? line : line.dropLast()
                if line.starts(with: "Content-Type: ".utf8) {
                    part.contentType = Array(line.dropFirst("Content-Type: ".utf8.count))
                    continue
                }
                let disposition = Array("Content-Disposition: form-data; name=\"".utf8)
                guard line.starts(with: disposition) else { return nil }
                let quoted = line.dropFirst(disposition.count)
                guard let quote = quoted.firstIndex(of: UInt8(ascii: "\"")) else { return nil }
                part.name = Array(quoted[..<quote])
                let tail = quoted[(quote + 1)...]
                let fileNamePrefix = Array("; filename=\"".utf8)
                if !tail.isEmpty {
                    guard tail.starts(with: fileNamePrefix), tail.last == UInt8(ascii: "\"") else { return nil }
                    let fileName = tail.dropFirst(fileNamePrefix.count).dropLast()
                    guard !fileName.contains(UInt8(ascii: "\"")) else { return nil }
                    part.fileName = Array(fileName)
                }
                sawDisposition = true
            }
            guard sawDisposition else { return nil }
            parts.append(part)
        }
        return parts
    }
}

/// Short, printable forms of values for failure messages, so a large value is not printed.
private enum Show {
    static func text(_ value: String) -> String {
        let count = value.utf8.count
        return count > 100 ? "<\(count) bytes: \(String(value.prefix(12)).debugDescription)...>" : value.debugDescription
    }

    static func request(_ params: HttpRequestParams) -> String {
        "\(text(params.encodedPathAndQuery)) \(params.headers.map { "\($0.name): \(text($0.value))" })"
    }

    static func bytes(_ value: [UInt8]) -> String {
        text(String(decoding: value, as: UTF8.self))
    }
}
