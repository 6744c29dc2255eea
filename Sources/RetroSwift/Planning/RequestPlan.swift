import Foundation

/// Everything about an endpoint and its request type that does not change between calls: computed and
/// validated once, on the first call, then reused.
///
/// A class: every call reads the plan from a lock-guarded cache, and copying a struct of this many reference-counted
/// fields cost a retain and a release per field per call.
final class RequestPlan: Sendable {
    enum BodyStyle: Sendable {
        case none, json, raw, formURLEncoded, multipart
    }

    struct Field: Sendable {
        /// The property name as the user wrote it, for error messages.
        let property: String
        let kind: ParameterKind
        /// The wire name.
        let name: String
        /// Whether the field's type may be an `Optional`, whose `nil` sends nothing: settled once for a `@JsonBody`
        /// when the endpoint is planned, so that a call casts no body of another type to find out; `true` (cast to
        /// find out) for the other kinds.
        var valueIsOptional = true
    }

    /// How the wrappers are read out of a request value of `requestType`.
    enum Reader: Sendable {
        /// `Void`: the endpoint takes no request.
        case none
        /// A struct: each wrapper at its offset, checked against the value's type on every read.
        case structFields(ParameterSlots)
        /// A class: `Mirror` over the class and its superclasses, base class first.
        case classMirror
        /// Not read: the plan exists only to collect declaration mistakes (``Domain/validateEndpoints()``).
        case unplanned

        /// Whether request values are classes, whose dynamic type may differ from the declared one.
        var readsClass: Bool {
            if case .classMirror = self { return true }
            return false
        }

        var isPlanned: Bool {
            if case .unplanned = self { return false }
            return true
        }
    }

    let endpoint: EndpointIdentity
    let template: PathTemplate
    /// The exact type of the request values this plan reads.
    let requestType: ObjectIdentifier
    /// One entry per stored property of the request type, in declaration order.
    let fields: [Field]
    let reader: Reader
    let bodyStyle: BodyStyle
    let staticHeaders: [HTTPHeader]
    let timeout: TimeInterval?
    let responseDestination: ResponseDestination
    /// Where a `@Url` field's full URL may lead besides the base URL's origin.
    let otherHosts: OtherHostPolicy
    /// The endpoint's own converter; `nil` uses the domain's.
    let converter: (any BodyConverter)?
    /// The `Accept` value of ``converter``, made once.
    let converterAccept: String?

    init(
        endpoint: EndpointIdentity, template: PathTemplate, requestType: ObjectIdentifier, fields: [Field], reader: Reader,
        bodyStyle: BodyStyle,
        staticHeaders: [HTTPHeader], timeout: TimeInterval?, responseDestination: ResponseDestination,
        otherHosts: OtherHostPolicy = .refused, converter: (any BodyConverter)? = nil
    ) {
        self.converter = converter
        self.converterAccept = converter.map { MediaRanges.acceptValue(for: $0.readableMediaTypes) }
        self.endpoint = endpoint
        self.template = template
        self.requestType = requestType
        self.fields = fields
        self.reader = reader
        self.bodyStyle = bodyStyle
        self.staticHeaders = staticHeaders
        self.timeout = timeout
        self.responseDestination = responseDestination
        self.otherHosts = otherHosts
    }
}
