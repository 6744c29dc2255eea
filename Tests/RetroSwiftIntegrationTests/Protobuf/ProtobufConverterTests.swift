#if Protobuf
    import Foundation
    import RetroSwift
    import RetroSwiftProtobuf
    import RetroSwiftTesting
    import SwiftProtobuf
    import Testing

    @Suite("Protocol Buffers converters")
    struct ProtobufConverterTests {
        private struct NotAMessage: Codable, Equatable {
            var name: String
        }

        private struct ItemBody {
            @Body var item = Retroswift_Test_Item.sample
        }

        private struct PlainBody {
            @Body var value = NotAMessage(name: "a")
        }

        // @unchecked Sendable: the fixture adds only endpoint wrappers, set up in init and never reassigned.
        private final class Api: Domain, @unchecked Sendable {
            @Post("/items", converter: ProtobufConverter()) var create: (ItemBody) async throws -> Retroswift_Test_Receipt
            @Get("/item", converter: ProtobufJSONConverter()) var item: () async throws -> Retroswift_Test_Item
        }

        // @unchecked Sendable: as above.
        private final class Mistaken: Domain, @unchecked Sendable {
            @Post("/plain", converter: ProtobufConverter()) var plainBody: (PlainBody) async throws -> Retroswift_Test_Item
            @Get("/plain", converter: ProtobufJSONConverter()) var plainResponse: () async throws -> NotAMessage
            @Post("/fine", converter: ProtobufJSONConverter()) var fine: (ItemBody) async throws -> Retroswift_Test_Item
        }

        @Test("Binary and JSON converters each read back what they write, every field kind included")
        func roundTrips() throws {
            // Given
            let item = Retroswift_Test_Item.sample

            // When
            let binary = try ProtobufConverter().encode(item)
            let json = try ProtobufJSONConverter().encode(item)

            // Then each is the format swift-protobuf writes, and reads back to the same message
            #expect(binary == (try item.serializedBytes() as Data))
            #expect(try ProtobufConverter().decode(Retroswift_Test_Item.self, from: binary) == item)
            #expect(try ProtobufJSONConverter().decode(Retroswift_Test_Item.self, from: json) == item)
            let text = String(decoding: json, as: UTF8.self)
            #expect(text.contains(#""big":"9007199254740993""#))
            #expect(text.contains(#""kind":"KIND_BOOK""#))
        }

        @Test("The media types: binary writes application/x-protobuf and reads both protobuf types; JSON is application/json")
        func mediaTypes() {
            // Then (nothing to set up or do: these are what the converters declare)
            #expect(ProtobufConverter().contentType == "application/x-protobuf")
            #expect(ProtobufConverter().readableMediaTypes == ["application/x-protobuf", "application/protobuf"])
            #expect(!ProtobufConverter().decodesUnlistedMediaTypes)
            #expect(ProtobufJSONConverter().contentType == "application/json")
            #expect(ProtobufJSONConverter().readableMediaTypes == ["application/json"])
            #expect(ProtobufJSONConverter().decodesUnlistedMediaTypes)
            #expect(
                ProtobufConverter().canEncode(Retroswift_Test_Item.self) && ProtobufJSONConverter().canDecode(Retroswift_Test_Problem.self))
            #expect(!ProtobufConverter().canDecode(NotAMessage.self) && !ProtobufJSONConverter().canEncode(String.self))
        }

        @Test("Bytes that are not the message throw swift-protobuf's decoding errors; a type that is not a message is named")
        func errors() throws {
            // Given a truncated length-delimited field, and JSON with a field the message does not have
            let truncated = Data([0x0A, 0x05, 0x61])
            let unknownField = Data(#"{"nosuch":1}"#.utf8)

            // When each is decoded, and a value that is not a message encoded, then
            #expect(throws: BinaryDecodingError.self) { try ProtobufConverter().decode(Retroswift_Test_Item.self, from: truncated) }
            let unknown = #expect(throws: JSONDecodingError.self) {
                try ProtobufJSONConverter().decode(Retroswift_Test_Item.self, from: unknownField)
            }
            #expect("\(unknown.map { "\($0)" } ?? "")" == #"unknownField("nosuch")"#)
            let mismatch = #expect(throws: (any Error).self) { try ProtobufConverter().encode(NotAMessage(name: "a")) }
            #expect(
                "\(mismatch.map { "\($0)" } ?? "")"
                    == "ProtobufConverter encodes and decodes SwiftProtobuf.Message types only; NotAMessage is not one")
            var ignoring = JSONDecodingOptions()
            ignoring.ignoreUnknownFields = true
            let lenient = ProtobufJSONConverter(decodingOptions: ignoring)
            #expect(try lenient.decode(Retroswift_Test_Item.self, from: unknownField) == Retroswift_Test_Item())
        }

        @Test("A body or response that is not a protobuf message under a protobuf converter is a declaration mistake")
        func declarationMistakes() throws {
            // Given
            let api = Mistaken(transport: RecordingTransport())

            // When
            let error = #expect(throws: DeclarationError.self) { try api.validateEndpoints() }

            // Then
            #expect(
                error?.description == """
                    RetroSwift found 2 declaration mistakes:
                    - Mistaken.plainBody (POST /plain), field 'value': @Body 'value' is NotAMessage, which the endpoint's \
                    converter ProtobufConverter cannot encode. Fix: declare the body as a type ProtobufConverter encodes, or \
                    choose another converter:.
                    - Mistaken.plainResponse (GET /plain): response type NotAMessage is not one the endpoint's converter \
                    ProtobufJSONConverter decodes. Fix: declare a response type ProtobufJSONConverter decodes, or choose \
                    another converter:.
                    """)
        }

        // @unchecked Sendable: as above.
        private final class Plain: Domain, @unchecked Sendable {
            @Post("/plain") var send: (PlainBody) async throws -> Empty
        }

        @Test("A domain's protobuf converter meets a body that is not a message on the call, as unencodableBody naming it")
        func domainConverterMistake() async throws {
            // Given a domain whose endpoints are checked before its converter is set
            let transport = RecordingTransport()
            let api = Plain(transport: transport)
            try api.validateEndpoints()
            api.converter = ProtobufConverter()

            // When
            let error = await #expect(throws: RequestError.self) { _ = try await api.send(PlainBody()) }

            // Then nothing was sent, and the error says why
            #expect(error?.kind == .unencodableBody)
            #expect(error?.field == "value")
            #expect(
                error?.underlyingError.map { "\($0)" }
                    == "ProtobufConverter encodes and decodes SwiftProtobuf.Message types only; NotAMessage is not one")
            #expect(transport.requests.isEmpty)
        }

        @Test("Through an endpoint: the body goes out in the converter's format with its Content-Type and Accept")
        func negotiation() async throws {
            // Given
            var receipt = Retroswift_Test_Receipt()
            receipt.tagCount = 2
            let answer = try HttpOperationResult(
                statusCode: 200, headers: ["Content-Type": "application/protobuf"], body: receipt.serializedBytes())
            let transport = RecordingTransport { _ in answer }
            let api = Api(transport: transport)

            // When
            let decoded = try await api.create(ItemBody())

            // Then
            #expect(decoded == receipt)
            let request = try #require(transport.requests.first)
            #expect(request.headerFields.first { $0.name == "Content-Type" }?.value == "application/x-protobuf")
            #expect(request.headerFields.first { $0.name == "Accept" }?.value == "application/x-protobuf, application/protobuf")
            #expect(try await request.body?.data() == Retroswift_Test_Item.sample.serializedBytes())
        }

        @Test("A JSON answer of protobuf JSON decodes; an HTML page is unreadableMediaType, not a decoding error")
        func jsonAndHTML() async throws {
            // Given
            let json = try HttpOperationResult(
                statusCode: 200, headers: ["Content-Type": "application/json"], body: Retroswift_Test_Item.sample.jsonUTF8Bytes())
            let html = HttpOperationResult(statusCode: 200, headers: ["Content-Type": "text/html"], body: Data("<p>Sign in</p>".utf8))
            let answers = [json, html]
            let calls = Protected(0)
            let api = Api(
                transport: RecordingTransport { _ in
                    calls.mutate { count in
                        count += 1
                        return answers[count - 1]
                    }
                })

            // When
            let item = try await api.item()
            let error = await #expect(throws: RequestError.self) { _ = try await api.item() }

            // Then
            #expect(item == .sample)
            #expect(error?.kind == .unreadableMediaType)
            #expect(
                error?.description.hasPrefix(
                    "Api.item (GET /item): the HTTP 200 response is text/html, which ProtobufJSONConverter does not read (it "
                        + "reads application/json) and it does not decode as Retroswift_Test_Item either (") == true)
        }

        @Test("ProtobufCodable carries a message through JSONEncoder and JSONDecoder in protobuf's JSON mapping")
        func codableBridge() throws {
            // Given
            struct Envelope: Codable, Equatable {
                var item: Retroswift_Test_Item
            }
            let envelope = Envelope(item: .sample)

            // When
            let data = try JSONEncoder().encode(envelope)
            let back = try JSONDecoder().decode(Envelope.self, from: data)

            // Then
            #expect(back == envelope)
            #expect(String(decoding: data, as: UTF8.self).contains(#""count":-42"#))
            #expect(throws: (any Error).self) { try JSONDecoder().decode(Envelope.self, from: Data(#"{"item":{"count":"x"}}"#.utf8)) }
        }
    }
#endif
