import Foundation
import RetroSwift
import RetroSwiftTestServer
import RetroSwiftTesting
import Testing

/// Domains that carry their own base URL and shared headers (``Domain/baseURL``, as `ApiDomain` does): sharing one
/// transport, switching environments while calls run, and calls in flight during a switch.
@Suite("End to end: domain base URLs and shared headers", .timeLimit(.minutes(4)))
struct DomainConfigurationEndToEndTests {
    private struct Item: Codable, Equatable {
        var id: Int
    }

    private struct ItemRequest {
        @Path var id: Int = 0
    }

    // @unchecked Sendable: the fixture adds only endpoint wrappers, set up in init and never reassigned.
    private final class Api: ApiDomain, @unchecked Sendable {
        @Get("/items/{id}") var item: (ItemRequest) async throws -> Item
        @Get("/items/{id}") var itemResponse: (ItemRequest) async throws -> HTTPResponse<Item>
    }

    /// A server that answers every call with its own number as the item's id.
    private static func environment(_ number: Int, behavior: ScriptedResponse.Behavior = .normal) async throws -> TestServer {
        try await TestServer.start { _ in
            ScriptedResponse(
                status: 200, headers: [("Content-Type", "application/json")], body: Data(#"{"id":\#(number)}"#.utf8),
                behavior: behavior)
        }
    }

    @Test(
        "a base URL whose scheme and host are in capitals is called, and the response reports the URL as written",
        arguments: TransportKind.allCases)
    func baseURLInCapitals(kind: TransportKind) async throws {
        // Given: RFC 3986 §6.2.2.1, the scheme and host compare without case; RetroSwift hands the URL over as written
        let server = try await Self.environment(7)
        let written = "HTTP://LOCALHOST:\(server.port)"
        let api = Api(transport: kind.make(), baseURL: URL(string: written)!)

        // When
        let result = await Result { try await api.itemResponse(ItemRequest(id: 3)) }
        await server.stop()

        // Then
        let response = try result.get()
        #expect(response.body.id == 7)
        #expect(response.url?.absoluteString == written + "/items/3")
        #expect(server.requests.first?.header("Host")?.lowercased() == "localhost:\(server.port)")
    }

    @Test("two domains sharing one transport each reach their own server with their own key", arguments: TransportKind.allCases)
    func sharedTransport(kind: TransportKind) async throws {
        // Given
        let east = try await Self.environment(1)
        let west = try await Self.environment(2)
        let transport = kind.make()
        let eastApi = Api(transport: transport, baseURL: east.baseURL, sharedHeaders: ["X-Key": "east"])
        let westApi = Api(transport: transport, baseURL: west.baseURL, sharedHeaders: ["X-Key": "west"])

        // When: interleaved concurrent calls through the one transport
        let answers = try await withThrowingTaskGroup(of: (String, Int).self) { group in
            for index in 0..<40 {
                let (name, api) = index.isMultiple(of: 2) ? ("east", eastApi) : ("west", westApi)
                group.addTask { (name, try await api.item(ItemRequest(id: index)).id) }
            }
            return try await group.reduce(into: []) { $0.append($1) }
        }
        await east.stop()
        await west.stop()

        // Then
        #expect(answers.filter { $0.0 == "east" }.allSatisfy { $0.1 == 1 })
        #expect(answers.filter { $0.0 == "west" }.allSatisfy { $0.1 == 2 })
        #expect(east.requests.count == 20 && west.requests.count == 20)
        #expect(east.requests.allSatisfy { $0.header("X-Key") == "east" })
        #expect(west.requests.allSatisfy { $0.header("X-Key") == "west" })
    }

    @Test(
        "switching environments while calls run: each call goes wholly to one, with that one's key",
        arguments: TransportKind.allCases)
    func switchWhileCallsRun(kind: TransportKind) async throws {
        // Given
        let staging = try await Self.environment(1)
        let production = try await Self.environment(2)
        let api = Api(transport: kind.make(), baseURL: staging.baseURL, sharedHeaders: ["X-Key": "staging"])

        // When: one switch before each of a run of calls, then calls and switches racing
        var sequential: [Int] = []
        for round in 0..<6 {
            let toProduction = round.isMultiple(of: 2)
            api.setConfiguration(
                baseURL: toProduction ? production.baseURL : staging.baseURL,
                sharedHeaders: ["X-Key": toProduction ? "production" : "staging"])
            sequential.append(try await api.item(ItemRequest(id: round)).id)
        }
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask {
                for round in 0..<200 {
                    let toProduction = round.isMultiple(of: 2)
                    api.setConfiguration(
                        baseURL: toProduction ? production.baseURL : staging.baseURL,
                        sharedHeaders: ["X-Key": toProduction ? "production" : "staging"])
                    await Task.yield()
                }
            }
            for index in 0..<60 {
                group.addTask { _ = try await api.item(ItemRequest(id: index)) }
            }
            try await group.waitForAll()
        }
        await staging.stop()
        await production.stop()

        // Then
        #expect(sequential == [2, 1, 2, 1, 2, 1])
        #expect(staging.requests.count + production.requests.count == 66)
        #expect(staging.requests.allSatisfy { $0.header("X-Key") == "staging" })
        #expect(production.requests.allSatisfy { $0.header("X-Key") == "production" })
    }

    @Test(
        "a call in flight when the base URL changes finishes with the old one, its retry included; the next call uses the new one",
        arguments: TransportKind.allCases)
    func callInFlightKeepsItsBaseURL(kind: TransportKind) async throws {
        // Given: the old environment answers the first attempt late with a 503, then 200
        let attempts = Attempts()
        let slowOld = try await TestServer.start { _ in
            attempts.next() == 1
                ? ScriptedResponse(status: 503, behavior: .delayed(0.3))
                : ScriptedResponse(status: 200, headers: [("Content-Type", "application/json")], body: Data(#"{"id":1}"#.utf8))
        }
        let new = try await Self.environment(2)
        let api = Api(transport: kind.make(), baseURL: slowOld.baseURL)
        api.interceptors = [RetryInterceptor(baseDelay: 0, jitter: { _ in 0 })]

        // When: the switch happens while the first attempt waits for its answer
        let call = Task { try await api.item(ItemRequest(id: 1)) }
        let waited = try await eventually { !slowOld.requests.isEmpty }
        #expect(waited)
        api.baseURL = new.baseURL
        let inFlight = try await call.value
        let next = try await api.item(ItemRequest(id: 1))
        await slowOld.stop()
        await new.stop()

        // Then
        #expect(inFlight == Item(id: 1))
        #expect(slowOld.requests.count == 2)
        #expect(next == Item(id: 2))
        #expect(new.requests.count == 1)
    }
}

/// Counts the calls a server answered, so a script can answer the first differently.
private final class Attempts: Sendable {
    private let count = Protected(0)

    func next() -> Int {
        count.mutate { count in
            count += 1
            return count
        }
    }
}
