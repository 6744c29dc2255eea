#if Tracing
    import Foundation
    import RetroSwift
    import Tracing

    /// Opens a client span for each request it sees, with the attributes of OpenTelemetry's HTTP client semantic
    /// conventions, and injects the span's context into the request headers (W3C `traceparent` with an OpenTelemetry
    /// tracer) so the server's spans join the same trace. Enabled by the package trait `Tracing`.
    ///
    /// - Span name: the method and the endpoint's path template, `GET /api/v1/schedule/{schedule_id}` (low
    ///   cardinality, as the conventions ask).
    /// - Attributes: `http.request.method`, `url.template`, `url.full` (secret query values redacted) with
    ///   `server.address` and `server.port` when RetroSwift knows the base URL, `http.response.status_code`, `error.type` (the
    ///   status code, or the error's type), and `retroswift.endpoint`.
    /// - Status: error for a status of 400 or more and for a call that got no response, whose error is recorded.
    /// - Place it after `RetryInterceptor` for one span per attempt, before it for one span per call; after
    ///   `BearerAuthInterceptor`, each authentication retry is its own span too.
    ///
    /// ```swift
    /// api.interceptors = [RetryInterceptor(), TracingInterceptor()]
    /// ```
    public struct TracingInterceptor: Interceptor {
        /// Where spans go; `nil` uses `InstrumentationSystem.tracer`, read at each call.
        public let tracer: (any Tracer)?
        /// The query parameters whose values `url.full` hides.
        public let queryRedaction: QueryRedaction

        /// Creates the interceptor.
        ///
        /// - Parameters:
        ///   - tracer: Where spans go; `nil` (the default) uses `InstrumentationSystem.tracer`.
        ///   - queryRedaction: The query parameters whose values `url.full` hides (`QueryRedaction.defaultNames`).
        public init(tracer: (any Tracer)? = nil, queryRedaction: QueryRedaction = QueryRedaction()) {
            self.tracer = tracer
            self.queryRedaction = queryRedaction
        }

        /// Sends the request on inside a client span.
        ///
        /// - Parameters:
        ///   - request: The request.
        ///   - next: The rest of the chain.
        /// - Returns: The response from the rest of the chain, unchanged.
        /// - Throws: What the rest of the chain throws, after recording it on the span; a `RequestError` when an
        ///   injected header could not be sent safely.
        public func intercept(_ request: HttpRequestParams, next: InterceptorNext) async throws -> HttpOperationResult {
            let tracer = tracer ?? InstrumentationSystem.tracer
            let span = tracer.startSpan(
                "\(request.method.rawValue) \(request.endpoint.template)", context: ServiceContext.current ?? .topLevel, ofKind: .client
            )
            defer { span.end() }
            span.attributes["http.request.method"] = request.method.rawValue
            span.attributes["url.template"] = request.endpoint.template
            span.attributes["retroswift.endpoint"] = "\(request.endpoint.domain).\(request.endpoint.name)"
            // Left out when RetroSwift does not know the base URL (a transport that keeps its own): the URL is relative.
            let url = request.url
            if let host = url.host {
                span.attributes["url.full"] = queryRedaction.redact(request.urlString)
                span.attributes["server.address"] = host
                span.attributes["server.port"] = url.port ?? (url.scheme?.lowercased() == "https" ? 443 : 80)
            }
            var carrier: [(name: String, value: String)] = []
            tracer.inject(span.context, into: &carrier, using: HeaderInjector())
            var traced = request
            for (name, value) in carrier {
                traced = try traced.settingHeader(name, to: value)
            }
            do {
                let response = try await next(traced)
                span.attributes["http.response.status_code"] = response.statusCode
                if response.statusCode >= 400 {
                    span.attributes["error.type"] = String(response.statusCode)
                    span.setStatus(SpanStatus(code: .error))
                }
                return response
            } catch {
                // A transport's failure is named by the transport's own error (`URLError`), not RetroSwift's wrapper.
                span.attributes["error.type"] = String(describing: type(of: (error as? TransportError)?.underlyingError ?? error))
                span.recordError(error)
                span.setStatus(SpanStatus(code: .error))
                throw error
            }
        }
    }

    /// Writes a tracer's context fields as request headers.
    private struct HeaderInjector: Injector {
        func inject(_ value: String, forKey key: String, into carrier: inout [(name: String, value: String)]) {
            carrier.append((key, value))
        }
    }
#endif
