import Foundation

/// A declaration being planned: what the endpoint declares, what the rules have understood of it so far, and the
/// mistakes they found.
struct DeclarationDraft {
    let endpoint: EndpointIdentity
    let declaration: EndpointDeclaration
    let requestType: Any.Type
    let responseType: Any.Type
    /// The request's fields, or `nil` when they cannot be described (a request type that is not a struct, or a class
    /// or existential known only by its type): then the request type itself is checked, and field checks wait for a
    /// value.
    let descriptions: [FieldDescription]?
    /// Whether a request value was read, not only its type.
    let valueSeen: Bool

    /// The parsed path template; `nil` when it has mistakes.
    var template: PathTemplate?
    /// The endpoint's `headers:` argument as fields.
    var staticHeaders: [HTTPHeader] = []
    /// The request's parameter fields.
    var fields: [CheckedField] = []
    /// Whether the request has a `@Url` field, which gives the whole path.
    var hasURL = false
    /// How the body is encoded.
    var bodyStyle = RequestPlan.BodyStyle.none
    /// The mistakes found so far, in the order the rules found them.
    private(set) var issues: [DeclarationError.Issue] = []

    init(
        endpoint: EndpointIdentity, declaration: EndpointDeclaration, requestType: Any.Type, responseType: Any.Type,
        descriptions: [FieldDescription]?, valueSeen: Bool
    ) {
        self.endpoint = endpoint
        self.declaration = declaration
        self.requestType = requestType
        self.responseType = responseType
        self.descriptions = descriptions
        self.valueSeen = valueSeen
    }

    /// A field as the planner sees it: from a request value (`name` known) or from the type alone (`name` is
    /// `nil` when the wrapper was given an explicit name we cannot read without a value).
    struct FieldDescription {
        let label: String
        let kind: ParameterKind?
        let name: String?
        /// The wrapped value's type, when the field is a parameter.
        var valueType: Any.Type? = nil
        /// Whether the wrapper was given a name argument (`false` when only the type is known).
        var isNamedExplicitly = false
    }

    /// A parameter field during validation; `name` is `nil` when only the type is known.
    struct CheckedField {
        let property: String
        let kind: ParameterKind
        let name: String?
        /// Whether the field's type may be an `Optional` (unknown types, and kinds other than `@JsonBody`, count as
        /// one).
        var valueIsOptional = true
    }

    /// The request type's name, for messages only: printing a type name costs about 0.2 ms the first time, which
    /// a declaration without mistakes never pays.
    var requestTypeName: String {
        requestType == Void.self ? "the endpoint" : String(describing: requestType)
    }

    /// Records a mistake: what is wrong, how to fix it, and the field it is about, if any.
    mutating func report(_ problem: String, fix: String, field: String? = nil) {
        issues.append(DeclarationError.Issue(endpoint: endpoint, field: field, problem: problem, fix: fix))
    }

    /// `Get` for `GET`, and so on; custom methods have a marker of the user's own, named here by the method.
    var methodMarkerName: String {
        let method = declaration.method.rawValue
        return method.prefix(1) + method.dropFirst().lowercased()
    }
}
