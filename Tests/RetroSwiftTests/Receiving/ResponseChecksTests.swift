import Foundation
import RetroSwift
import RetroSwiftTesting
import Testing

/// The core's checks of every response, through a transport that hands over whatever it is given: a transport that
/// checks nothing itself still never passes a broken response on.
@Suite("Response checks")
struct ResponseChecksTests {
    private struct Item: Decodable {
        var id: Int
    }

    // @unchecked Sendable: the fixture adds only endpoint wrappers, set up in init and never reassigned.
    private final class Api: Domain, @unchecked Sendable {
        @Get("/item") var item: () async throws -> Item
        @Head("/item") var head: () async throws -> HTTPResponse<Data>
        @Get("/gone") var gone: () async throws -> HTTPResponse<Data>
    }

    private static func api(answering result: HttpOperationResult) -> Api {
        let transport = RecordingTransport { _ in result }
        transport.setConfiguration(baseURL: URL(string: "https://example.test")!, sharedHeaders: nil)
        return Api(transport: transport)
    }

    private static let json = Data(#"{"id":1}"#.utf8)

    private static let refused: [(HTTPHeaderFields, Data, String)] = [
        (
            ["Content-Length": "8", "content-length": "11"], json,
            "the response is refused: two Content-Length values disagree (8 and 11); the framing is unknowable"
        ),
        (
            ["Content-Length": "8, 11"], json,
            "the response is refused: two Content-Length values disagree (8 and 11); the framing is unknowable"
        ),
        (["Content-Length": "8x"], json, "the response is refused: the Content-Length '8x' is not a decimal number"),
        (["Content-Length": "-8"], json, "the response is refused: the Content-Length '-8' is not a decimal number"),
        (["Content-Length": ""], json, "the response is refused: the Content-Length '' is not a decimal number"),
        (
            ["Content-Length": "99999999999999999999999999"], json,
            "the response is refused: the Content-Length 99999999999999999999999999 is too large to be a length"
        ),
        (["Content-Length": "5"], json, "the response is refused: the body has 8 bytes, but its Content-Length says 5"),
        (
            ["Transfer-Encoding": "gzip, chunked"], json,
            "the response is refused: the field 'Transfer-Encoding' names the transfer coding 'gzip', which RetroSwift does not "
                + "decode (RFC 9112 §6.1), so its body cannot be read"
        ),
        (
            ["X-Evil": "a\rX-Injected: yes"], json,
            "the response is refused: the field 'X-Evil' has a carriage return (CR) in its value, which RFC 9110 forbids (it can "
                + "smuggle in another field)"
        ),
        (
            ["X-Evil": "a\0b"], json,
            "the response is refused: the field 'X-Evil' has a NUL byte in its value, which RFC 9110 forbids (it can smuggle in "
                + "another field)"
        ),
        (
            ["Bad Name": "v"], json,
            "the response is refused: the field 'Bad Name' has ' ' in its name, which a field name cannot contain"
        ),
        (
            HTTPHeaderFields((0..<257).map { HTTPHeader(name: "X-F\($0)", value: "v") }), json,
            "the response is refused: the head has 257 fields, more than the 256 allowed (ResponseLimits.maxHeaderFields)"
        ),
        (
            ["X-Big": String(repeating: "a", count: 65_536)], json,
            "the response is refused: the head's fields have 65545 bytes, more than the 65536 allowed "
                + "(ResponseLimits.maxHeaderBytes)"
        ),
    ]

    @Test(
        "broken framing, smuggled fields and oversized heads are refused with the endpoint and the rule named", arguments: 0..<refused.count
    )
    func refusedResponses(index: Int) async throws {
        // Given
        let (headers, body, reason) = Self.refused[index]
        let api = Self.api(answering: HttpOperationResult(statusCode: 200, headers: headers, body: body))

        // When
        let error = await #expect(throws: RequestError.self) { _ = try await api.item() }

        // Then
        #expect(error?.reason == reason)
        #expect(error?.endpoint?.description == "Api.item (GET /item)")
    }

    @Test(
        "repeated equal Content-Length values, a compressed body longer than its Content-Length, and a chunked body are accepted"
    )
    func acceptedFraming() async throws {
        // Given: RFC 9112 §6.3 allows identical repeats; a decompressed body is longer than what was on the wire; a
        // transport reports the chunked (or, decoded, identity) transfer coding it read
        let repeated = Self.api(answering: HttpOperationResult(statusCode: 200, headers: ["Content-Length": "8, 8"], body: Self.json))
        let compressed = Self.api(
            answering: HttpOperationResult(statusCode: 200, headers: ["Content-Encoding": "gzip", "Content-Length": "3"], body: Self.json))
        let chunked = Self.api(answering: HttpOperationResult(statusCode: 200, headers: ["Transfer-Encoding": "Chunked"], body: Self.json))
        let identity = Self.api(
            answering: HttpOperationResult(statusCode: 200, headers: ["Transfer-Encoding": "Identity"], body: Self.json))

        // When / Then
        #expect(try await repeated.item().id == 1)
        #expect(try await compressed.item().id == 1)
        #expect(try await chunked.item().id == 1)
        #expect(try await identity.item().id == 1)
    }

    @Test("a body over the domain's limit, or past its decompression ratio, is refused")
    func bodyLimits() async throws {
        // Given
        let large = Self.api(answering: HttpOperationResult(statusCode: 200, body: Data(count: 2_000)))
        large.responseLimits.maxBodyBytes = 1_000
        let expanding = Self.api(
            answering: HttpOperationResult(
                statusCode: 200, headers: ["Content-Encoding": "gzip", "Content-Length": "1000"], body: Data(count: 70_000)))
        expanding.responseLimits.maxDecompressionRatio = 50

        // When
        let tooLarge = await #expect(throws: RequestError.self) { _ = try await large.item() }
        let tooExpanded = await #expect(throws: RequestError.self) { _ = try await expanding.item() }

        // Then
        #expect(tooLarge?.kind == .responseTooLarge)
        #expect(
            tooLarge?.description
                == "Api.item (GET /item): the response is refused: the body passed 1000 bytes (ResponseLimits.maxBodyBytes)")
        #expect(
            tooExpanded?.description
                == "Api.item (GET /item): the response is refused: the body passed 65536 bytes (ResponseLimits.maxDecompressionRatio: "
                + "50 times its 1000 compressed bytes)")
    }

    @Test("a HEAD, a 204 and a 304 end with their head: stray bytes after it are not a body")
    func noBodyWhereNoneIsAllowed() async throws {
        // Given
        let head = Self.api(answering: HttpOperationResult(statusCode: 200, headers: ["Content-Length": "8"], body: Self.json))
        let notModified = Self.api(answering: HttpOperationResult(statusCode: 304, body: Self.json))

        // When
        let headResponse = try await head.head()
        let notModifiedResponse = try await notModified.gone()

        // Then
        #expect(headResponse.header("Content-Length") == "8")
        #expect(headResponse.body.isEmpty)
        #expect(notModifiedResponse.statusCode == 304)
        #expect(notModifiedResponse.body.isEmpty)
    }

    @Test("a status code that is not three digits is refused")
    func statusOutOfRange() async throws {
        let api = Self.api(answering: HttpOperationResult(statusCode: 42, body: Self.json))
        let error = await #expect(throws: RequestError.self) { _ = try await api.item() }
        #expect(error?.description == "Api.item (GET /item): the response is refused: the status code 42 is not a three-digit number")
    }
}
