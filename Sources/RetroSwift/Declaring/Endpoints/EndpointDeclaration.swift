import Foundation

/// What an endpoint wrapper was declared with.
struct EndpointDeclaration: Sendable {
    let method: HTTPMethod
    let template: String
    let timeout: TimeInterval?
    let headers: [String: String]
    let formEncoding: FormEncoding
    let redirects: RedirectPolicy?
    let otherHosts: OtherHostPolicy
    var cache: CacheMode? = nil
    /// The endpoint's own converter; `nil` uses the domain's.
    var converter: (any BodyConverter)? = nil
}
