#if Metrics
    import Foundation
    import Metrics
    import RetroSwift

    /// Records each request it sees in swift-metrics, named and dimensioned after OpenTelemetry's HTTP client
    /// semantic conventions, so any swift-metrics backend (Prometheus, OpenTelemetry, StatsD) shows RetroSwift's
    /// calls beside the rest of the process. Enabled by the package trait `Metrics`.
    ///
    /// Every metric has the dimensions `http.request.method`, `server.address` and `server.port` (when the URL has a
    /// host) and `retroswift.endpoint` (`SchedulesApi.getSchedule`); the outcome's metrics add
    /// `http.response.status_code` or `error.type` (the status code of a 4xx or 5xx, else the thrown error's type):
    ///
    /// | metric | kind | what it counts |
    /// | --- | --- | --- |
    /// | `http.client.request.duration` | timer | each request, from sending to its response's head (or the whole body in memory) |
    /// | `http.client.requests` | counter | each request, with its outcome |
    /// | `http.client.errors` | counter | each request that failed: a thrown error, or a status of 400 or more |
    /// | `http.client.active_requests` | meter | requests in flight |
    /// | `http.client.request.body.size` | recorder | the bytes of each request body |
    /// | `http.client.response.body.size` | recorder | the bytes of each response body in memory or in a file |
    /// | `retroswift.client.retries` | counter | each request that is a `RetryInterceptor`'s retry |
    ///
    /// Place it after `RetryInterceptor` to measure each attempt and count retries, before it to measure each call
    /// as a whole. A cached answer (`HTTPCache`) passes it too, measured like any other.
    ///
    /// ```swift
    /// api.interceptors = [RetryInterceptor(), MetricsInterceptor()]
    /// ```
    public struct MetricsInterceptor: Interceptor {
        /// Where the metrics go; `nil` uses `MetricsSystem.factory`, read at each call.
        public let factory: (any MetricsFactory)?

        /// Creates the interceptor.
        ///
        /// - Parameter factory: Where the metrics go; `nil` (the default) uses `MetricsSystem.factory`, the one
        ///   the process bootstrapped.
        public init(factory: (any MetricsFactory)? = nil) {
            self.factory = factory
        }

        /// Sends the request on and records it.
        ///
        /// - Parameters:
        ///   - request: The request.
        ///   - next: The rest of the chain.
        /// - Returns: The response from the rest of the chain, unchanged.
        /// - Throws: What the rest of the chain throws, after recording it.
        public func intercept(_ request: HttpRequestParams, next: InterceptorNext) async throws -> HttpOperationResult {
            let factory = factory ?? MetricsSystem.factory
            let dimensions = Self.dimensions(of: request)
            let active = Meter(label: "http.client.active_requests", dimensions: dimensions, factory: factory)
            active.increment()
            defer { active.decrement() }
            if request.attempt > 1 {
                Counter(label: "retroswift.client.retries", dimensions: dimensions, factory: factory).increment()
            }
            if let size = try? request.body?.length() {
                Recorder(label: "http.client.request.body.size", dimensions: dimensions, factory: factory).record(size)
            }
            let start = ContinuousClock.now
            do {
                let response = try await next(request)
                var outcome = dimensions + [("http.response.status_code", String(response.statusCode))]
                if response.statusCode >= 400 { outcome.append(("error.type", String(response.statusCode))) }
                record(outcome, since: start, failed: response.statusCode >= 400, factory)
                if let size = Self.bodySize(of: response) {
                    Recorder(label: "http.client.response.body.size", dimensions: outcome, factory: factory).record(size)
                }
                return response
            } catch {
                // A transport's failure is named by the transport's own error (`URLError`), not RetroSwift's wrapper.
                let cause = (error as? TransportError)?.underlyingError ?? error
                record(dimensions + [("error.type", String(describing: type(of: cause)))], since: start, failed: true, factory)
                throw error
            }
        }

        private func record(
            _ outcome: [(String, String)], since start: ContinuousClock.Instant, failed: Bool, _ factory: any MetricsFactory
        ) {
            let elapsed = ContinuousClock.now - start
            let nanoseconds = elapsed.components.seconds * 1_000_000_000 + elapsed.components.attoseconds / 1_000_000_000
            Timer(label: "http.client.request.duration", dimensions: outcome, factory: factory).recordNanoseconds(nanoseconds)
            Counter(label: "http.client.requests", dimensions: outcome, factory: factory).increment()
            if failed { Counter(label: "http.client.errors", dimensions: outcome, factory: factory).increment() }
        }

        /// The dimensions every metric of `request` has: low-cardinality values only (the path template, never the
        /// path), as the conventions ask.
        static func dimensions(of request: HttpRequestParams) -> [(String, String)] {
            var dimensions = [
                ("http.request.method", request.method.rawValue),
                ("retroswift.endpoint", "\(request.endpoint.domain).\(request.endpoint.name)"),
            ]
            let url = request.url
            if let host = url.host {
                dimensions.append(("server.address", host))
                dimensions.append(("server.port", String(url.port ?? (url.scheme?.lowercased() == "https" ? 443 : 80))))
            }
            return dimensions
        }

        /// The bytes of a body in memory or in a file; `nil` for one still streaming.
        static func bodySize(of response: HttpOperationResult) -> Int64? {
            switch response.body {
            case .bytes(let data): Int64(data.count)
            case .file(let file): (try? FileManager.default.attributesOfItem(atPath: file.path))?[.size] as? Int64
            case .stream: nil
            }
        }
    }
#endif
