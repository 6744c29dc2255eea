#if Protobuf
    import Foundation
    import RetroSwift
    import RetroSwiftProtobuf
    import SwiftProtobuf
    import Testing

    /// The protobuf converters on every transport against a server of another implementation: Python's `protobuf`
    /// package (Tests/Servers/protobuf_server.py), which parses what RetroSwift sends and answers what RetroSwift
    /// reads.
    @Suite(
        "End to end: Protocol Buffers against a Python server of PyPI's protobuf",
        .enabled(
            if: ProtobufServer.enabled, "set RETROSWIFT_PROTOBUF_URL to a running Tests/Servers/protobuf_server.py (.ci/run starts one)"),
        .timeLimit(.minutes(4))
    )
    struct ProtobufEndToEndTests {
        private struct ItemBody {
            @Query var answer: String? = nil
            @Body var item = Retroswift_Test_Item.sample
        }

        private struct NameRequest {
            @Path var name: String
        }

        // @unchecked Sendable: the fixture adds only endpoint wrappers, set up in init and never reassigned.
        private final class Api: Domain, @unchecked Sendable {
            @Post("/items", converter: ProtobufConverter()) var create: (ItemBody) async throws -> Retroswift_Test_Receipt
            @Post("/items", converter: ProtobufConverter())
            var createResponse: (ItemBody) async throws -> HTTPResponse<Retroswift_Test_Receipt>
            @Post("/items", converter: ProtobufJSONConverter()) var createJSON: (ItemBody) async throws -> Retroswift_Test_Receipt
            @Get("/items/{name}", converter: ProtobufConverter()) var item: (NameRequest) async throws -> Retroswift_Test_Item
            @Get("/items/{name}", converter: ProtobufJSONConverter()) var itemJSON: (NameRequest) async throws -> Retroswift_Test_Item
            @Post("/refuse", converter: ProtobufConverter())
            var refuse: (ItemBody) async throws -> Either<Retroswift_Test_Receipt, Retroswift_Test_Problem>
            @Post("/refuse", converter: ProtobufJSONConverter())
            var refuseJSON: (ItemBody) async throws -> Either<Retroswift_Test_Receipt, Retroswift_Test_Problem>
            @Get("/html", converter: ProtobufConverter()) var html: () async throws -> Retroswift_Test_Item
            @Get("/html", converter: ProtobufJSONConverter()) var htmlJSON: () async throws -> Retroswift_Test_Item
            // The server refuses any Content-Type but protobuf's and JSON's with a 415 and a Problem.
            @Post("/items", headers: ["Content-Type": "text/plain"], converter: ProtobufConverter())
            var mislabelled: (ItemBody) async throws -> Either<Retroswift_Test_Receipt, Retroswift_Test_Problem>
        }

        private func api(_ kind: TransportKind) throws -> Api {
            let transport = kind.make()
            transport.setConfiguration(baseURL: try ProtobufServer.baseURL(), sharedHeaders: nil)
            let api = Api(transport: transport)
            try api.validateEndpoints()
            return api
        }

        @Test(
            "A binary body is parsed by the server as sent, and its binary answer, of either protobuf type, decodes",
            arguments: TransportKind.allCases)
        func binary(kind: TransportKind) async throws {
            // Given
            let api = try api(kind)

            // When
            let receipt = try await api.create(ItemBody())
            let modern = try await api.create(ItemBody(answer: "protobuf"))
            let fetched = try await api.item(NameRequest(name: "ü 1"))
            let response = try await api.createResponse(ItemBody())

            // Then the server read every field, and saw the converter's media types
            #expect(receipt.item == .sample)
            #expect(receipt.receivedAs == "application/x-protobuf")
            #expect(receipt.accepted == "application/x-protobuf, application/protobuf")
            #expect(receipt.tagCount == 2)
            // and an answer labelled application/protobuf reads the same
            #expect(modern == receipt)
            // and so does HTTPResponse's body, beside the status and headers
            #expect(response.body == receipt)
            #expect(response.statusCode == 200 && response.headers["Content-Type"] == "application/x-protobuf")
            #expect(fetched.name == "ü 1" && fetched.big == -(1 << 40) && fetched.primary.weight == 7)
            #expect(fetched.labels == ["a", "b"] && fetched.kind == .record && fetched.blob == Data([0x00, 0xFF]))
        }

        @Test("A protobuf JSON body is parsed by the server as sent, and its JSON answer decodes", arguments: TransportKind.allCases)
        func json(kind: TransportKind) async throws {
            // Given
            let api = try api(kind)

            // When
            let receipt = try await api.createJSON(ItemBody())
            let fetched = try await api.itemJSON(NameRequest(name: "json"))

            // Then
            #expect(receipt.item == .sample)
            #expect(receipt.receivedAs == "application/json")
            #expect(receipt.accepted == "application/json")
            #expect(fetched.name == "json" && fetched.big == -(1 << 40) && fetched.blob == Data([0x00, 0xFF]))
        }

        @Test("A 422 with a protobuf Problem is Either's errorResponse, binary and JSON", arguments: TransportKind.allCases)
        func eitherProblem(kind: TransportKind) async throws {
            // Given
            let api = try api(kind)

            // When
            let binary = try await api.refuse(ItemBody())
            let json = try await api.refuseJSON(ItemBody())
            let mislabelled = try await api.mislabelled(ItemBody())

            // Then
            let expected = Retroswift_Test_Problem.with {
                $0.code = 422
                $0.message = "no room for héllo ✓ & more"
                $0.details = ["/refuse"]
            }
            #expect(binary == .errorResponse(expected))
            #expect(json == .errorResponse(expected))
            #expect(mislabelled.errorResponse?.code == 415)
            #expect(mislabelled.errorResponse?.message == "unsupported Content-Type: text/plain")
        }

        @Test(
            "An HTML page answering a protobuf endpoint is unreadableMediaType naming the page, not a decoding error",
            arguments: TransportKind.allCases)
        func html(kind: TransportKind) async throws {
            // Given
            let api = try api(kind)

            // When
            let binary = await #expect(throws: RequestError.self) { _ = try await api.html() }
            let json = await #expect(throws: RequestError.self) { _ = try await api.htmlJSON() }

            // Then the binary converter refuses the page before decoding (almost any bytes parse as some message)
            #expect(binary?.kind == .unreadableMediaType)
            #expect(binary?.underlyingError == nil)
            #expect(
                binary?.description
                    == "Api.html (GET /html): the HTTP 200 response is text/html, which ProtobufConverter does not read (it "
                    + "reads application/x-protobuf, application/protobuf); the body begins: <html> <body>Sign in to the "
                    + "Wi-Fi</body> </html>")
            // and the JSON one tries it, as JSON labelled text/html is common, and keeps why it failed
            #expect(json?.kind == .unreadableMediaType)
            #expect(json?.underlyingError != nil)
            #expect(json?.description.hasSuffix("; the body begins: <html> <body>Sign in to the Wi-Fi</body> </html>") == true)
        }
    }
#endif
