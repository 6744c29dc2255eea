import Foundation

/// Everything about an endpoint and its request type that does not change between calls: computed and
/// validated once, on the first call, then reused.
struct RequestPlan: Sendable {
    enum BodyStyle: Sendable {
        case none, json, formURLEncoded, multipart
    }

    struct Field: Sendable {
        /// The property name as the user wrote it, for error messages.
        let property: String
        let kind: ParameterKind
        /// The wire name.
        let name: String
    }

    let endpoint: EndpointIdentity
    let template: PathTemplate
    /// One entry per stored property of the request type, in `Mirror` order.
    let fields: [Field]
    let bodyStyle: BodyStyle
    let staticHeaders: [HttpHeader]
    let timeout: TimeInterval?
    let responseDestination: ResponseDestination
}
