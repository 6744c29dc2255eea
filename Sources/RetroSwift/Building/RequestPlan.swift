import Foundation

/// Everything about an endpoint and its request type that does not change between calls: computed and
/// validated once, on the first call, then reused.
///
/// A class: every call reads the plan from a lock-guarded cache, and copying a struct of this many reference-counted
/// fields cost a retain and a release per field per call.
final class RequestPlan: Sendable {
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

    /// Where a field's wrapper lives inside a request value, for reading it without `Mirror`.
    struct FieldAccess: @unchecked Sendable {
        // @unchecked: holds only a metatype and an offset, both immutable; metatypes are safe to share.
        let offset: Int
        let type: any RequestParameter.Type
    }

    let endpoint: EndpointIdentity
    let template: PathTemplate
    /// One entry per stored property of the request type, in `Mirror` order.
    let fields: [Field]
    /// The same fields by offset, when the request is a struct whose layout matched `Mirror`; else `nil`.
    let access: [FieldAccess]?
    let bodyStyle: BodyStyle
    let staticHeaders: [HttpHeader]
    let timeout: TimeInterval?
    let responseDestination: ResponseDestination

    init(
        endpoint: EndpointIdentity, template: PathTemplate, fields: [Field], access: [FieldAccess]?, bodyStyle: BodyStyle,
        staticHeaders: [HttpHeader], timeout: TimeInterval?, responseDestination: ResponseDestination
    ) {
        self.endpoint = endpoint
        self.template = template
        self.fields = fields
        self.access = access
        self.bodyStyle = bodyStyle
        self.staticHeaders = staticHeaders
        self.timeout = timeout
        self.responseDestination = responseDestination
    }
}

extension RequestPlan {
    func with(access: [FieldAccess]?) -> RequestPlan {
        RequestPlan(
            endpoint: endpoint, template: template, fields: fields, access: access, bodyStyle: bodyStyle,
            staticHeaders: staticHeaders, timeout: timeout, responseDestination: responseDestination
        )
    }
}
