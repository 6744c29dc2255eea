// The names RetroSwift gave its own types before it settled on Swift's casing of acronyms (`HTTPCache`, as
// Foundation's `HTTPURLResponse` and swift-http-types' `HTTPFields` spell it). Each keeps code written against it
// compiling, with a deprecation warning whose fix-it renames it. The names the original README declared
// (`HttpTransport`, `HttpRequestParams`, `HttpOperationResult`, `JsonBody`) are not deprecated: they stay as they
// were.

/// The earlier spelling of ``HTTPCache``.
@available(*, deprecated, renamed: "HTTPCache")
public typealias HttpCache = HTTPCache

/// The earlier spelling of ``HTTPError``.
@available(*, deprecated, renamed: "HTTPError")
public typealias HttpError = HTTPError

/// The earlier spelling of ``HTTPResponse``.
@available(*, deprecated, renamed: "HTTPResponse")
public typealias HttpResponse<Body> = HTTPResponse<Body>

/// The earlier spelling of ``HTTPResponseDecodable``.
@available(*, deprecated, renamed: "HTTPResponseDecodable")
public typealias HttpResponseDecodable = HTTPResponseDecodable

/// The earlier spelling of ``HTTPHeaderFields``.
@available(*, deprecated, renamed: "HTTPHeaderFields")
public typealias HttpHeaderFields = HTTPHeaderFields

/// The earlier spelling of ``HTTPHeader``.
@available(*, deprecated, renamed: "HTTPHeader")
public typealias HttpHeader = HTTPHeader

/// The earlier spelling of ``HTTPMethod``.
@available(*, deprecated, renamed: "HTTPMethod")
public typealias HttpMethod = HTTPMethod

/// The earlier spelling of ``HTTPBodyStream``.
@available(*, deprecated, renamed: "HTTPBodyStream")
public typealias HttpBodyStream = HTTPBodyStream

/// The earlier spelling of ``HTTPLogEntry``.
@available(*, deprecated, renamed: "HTTPLogEntry")
public typealias HttpLogEntry = HTTPLogEntry

/// The earlier spelling of ``HTTPQueryItem``.
@available(*, deprecated, renamed: "HTTPQueryItem")
public typealias HttpQueryItem = HTTPQueryItem

/// The earlier spelling of ``HTTPRequestBody``.
@available(*, deprecated, renamed: "HTTPRequestBody")
public typealias HttpRequestBody = HTTPRequestBody

/// The earlier spelling of ``HTTPTransportConfiguration``.
@available(*, deprecated, renamed: "HTTPTransportConfiguration")
public typealias HttpTransportConfiguration = HTTPTransportConfiguration

/// The earlier spelling of ``HTTPTransportConfigurationStore``.
@available(*, deprecated, renamed: "HTTPTransportConfigurationStore")
public typealias HttpTransportConfigurationStore = HTTPTransportConfigurationStore

/// The earlier spelling of ``ConfigurableHTTPTransport``.
@available(*, deprecated, renamed: "ConfigurableHTTPTransport")
public typealias ConfigurableHttpTransport = ConfigurableHTTPTransport
