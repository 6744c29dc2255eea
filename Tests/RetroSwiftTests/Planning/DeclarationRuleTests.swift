import Foundation
import Testing

@testable import RetroSwift

/// Each declaration rule as a unit, on a draft made by hand: what it reports, what it records for the rules after it,
/// and when it stays silent. `DeclarationErrorTests` checks the same messages through declared endpoints.
@Suite("Planning: declaration rules")
struct DeclarationRuleTests {
    private static func draft(
        _ template: String = "/items/{id}", method: HTTPMethod = .get, timeout: TimeInterval? = nil,
        headers: [String: String] = [:], fields: [DeclarationDraft.FieldDescription]? = []
    ) -> DeclarationDraft {
        let declaration = EndpointDeclaration(
            method: method, template: template, timeout: timeout, headers: headers, formEncoding: .automatic, redirects: nil,
            otherHosts: .refused)
        return DeclarationDraft(
            endpoint: EndpointIdentity(domain: "Api", name: "item", method: method, template: template), declaration: declaration,
            requestType: Int.self, responseType: Data.self, descriptions: fields, valueSeen: true)
    }

    private static func field(_ label: String, _ kind: ParameterKind, _ name: String? = nil) -> DeclarationDraft.FieldDescription {
        .init(label: label, kind: kind, name: name ?? label, valueType: String.self)
    }

    @Test("the timeout rule refuses NaN and non-positive timeouts and accepts .infinity")
    func timeout() {
        // Given
        var notANumber = Self.draft(timeout: .nan)
        var negative = Self.draft(timeout: -1)
        var infinite = Self.draft(timeout: .infinity)

        // When
        TimeoutRule().check(&notANumber)
        TimeoutRule().check(&negative)
        TimeoutRule().check(&infinite)

        // Then
        #expect(notANumber.issues.map(\.problem) == ["timeout is not a number (NaN)"])
        #expect(negative.issues.map(\.problem) == ["timeout is -1.0 seconds, which is not positive"])
        #expect(infinite.issues.isEmpty)
    }

    @Test("the static-headers rule records valid fields in name order and refuses names differing only in case")
    func staticHeaders() {
        // Given
        var draft = Self.draft(headers: ["b-one": "1", "A": "2", "B-One": "3"])

        // When
        StaticHeadersRule().check(&draft)

        // Then
        #expect(draft.staticHeaders.map(\.name) == ["A", "B-One"])
        #expect(
            draft.issues.map(\.problem) == [
                "static headers 'B-One' and 'b-one' name the same field (header names are case-insensitive)"
            ])
    }

    @Test("the placeholder rule stays silent when a @Url field gives the path, and names the missing @Path otherwise")
    func placeholders() {
        // Given: the template and fields as the rules before it leave them
        var withURL = Self.draft()
        PathTemplateRule().check(&withURL)
        withURL.hasURL = true
        var withoutPath = Self.draft()
        PathTemplateRule().check(&withoutPath)

        // When
        PlaceholdersRule().check(&withURL)
        PlaceholdersRule().check(&withoutPath)

        // Then
        #expect(withURL.issues.isEmpty)
        #expect(withoutPath.issues.map(\.problem) == ["placeholder {id} has no @Path field"])
        #expect(
            withoutPath.issues.first?.fix == "add `@Path(\"id\") var id: String = \"\"` to Int, or remove {id} from the path")
    }

    @Test("the body rule decides the encoding: JSON for @JsonBody, multipart as soon as there is a file, a form otherwise")
    func bodyStyle() {
        // Given
        func style(_ fields: [DeclarationDraft.FieldDescription]) -> (RequestPlan.BodyStyle, [String]) {
            var draft = Self.draft("/items", method: .post, fields: fields)
            ParameterFieldsRule().check(&draft)
            BodyRule().check(&draft)
            return (draft.bodyStyle, draft.issues.map(\.problem))
        }

        // When
        let json = style([Self.field("body", .jsonBody)])
        let multipart = style([Self.field("name", .formParam), Self.field("file", .formFile)])
        let form = style([Self.field("name", .formParam)])
        let both = style([Self.field("body", .jsonBody), Self.field("name", .formParam)])

        // Then
        #expect(json.0 == .json && json.1.isEmpty)
        #expect(multipart.0 == .multipart && multipart.1.isEmpty)
        #expect(form.0 == .formURLEncoded && form.1.isEmpty)
        #expect(both.1 == ["@JsonBody 'body' together with form field 'name'; a request has one body"])
    }

    @Test("the planner runs every rule in order, so one declaration's mistakes come out together and in a fixed order")
    func allRulesInOrder() {
        // Given: a broken template, a broken method, a bad static header, a plain field and a bad timeout
        let declaration = EndpointDeclaration(
            method: HTTPMethod("PRO PFIND", allowsBody: false), template: "/items/{id", timeout: 0, headers: ["X Bad": "1"],
            formEncoding: .automatic, redirects: nil, otherHosts: .refused)
        let endpoint = EndpointIdentity(domain: "Api", name: "item", method: declaration.method, template: declaration.template)

        // When
        let error = #expect(throws: DeclarationError.self) {
            _ = try RequestPlanner.plan(
                fields: [.init(label: "plain", kind: nil, name: nil)], reader: .unplanned, requestType: Int.self,
                endpoint: endpoint, declaration: declaration, responseType: Data.self)
        }

        // Then: template, method, static headers, fields, timeout
        let problems = error?.issues.map(\.problem) ?? []
        #expect(problems.count == 5)
        #expect(problems.first?.contains("{id") == true)
        #expect(problems.dropFirst().first?.hasPrefix("method 'PRO PFIND' contains") == true)
        #expect(problems.dropFirst(2).first?.hasPrefix("static header 'X Bad'") == true)
        #expect(problems.dropFirst(3).first == "'plain' of Int is not a request parameter")
        #expect(problems.last == "timeout is 0.0 seconds, which is not positive")
    }
}
