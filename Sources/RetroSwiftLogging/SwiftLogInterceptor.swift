#if SwiftLog
    import Foundation
    import Logging
    import RetroSwift

    /// Writes one record per call to a swift-log `Logger`, with the redaction of `LoggingInterceptor`: the values of
    /// `Authorization`, `Proxy-Authorization`, `Cookie`, `Set-Cookie`, the headers you name and secret query
    /// parameters never reach the log. Enabled by the package trait `SwiftLog`.
    ///
    /// A call that got a response is logged at `level` (`.info` by default), or at `errorLevel` when its status is 5xx;
    /// a call that got none (connection failure, timeout, cancellation) at `errorLevel`. Each record carries metadata:
    /// `http.request.method`, `http.target` (path and query, redacted), `http.response.status_code` when there is
    /// one, `duration_ms`, `retroswift.endpoint` (`SchedulesApi.getSchedules`), and `error` for a failure.
    ///
    /// ```swift
    /// api.interceptors = [SwiftLogInterceptor(logger: Logger(label: "app.api"))]
    /// ```
    public struct SwiftLogInterceptor: Interceptor {
        /// Where records go.
        public let logger: Logger
        /// The level of a call answered with a status below 500.
        public let level: Logger.Level
        /// The level of a 5xx answer and of a call that got no response.
        public let errorLevel: Logger.Level
        private let redaction: LoggingInterceptor

        /// Creates the interceptor.
        ///
        /// - Parameters:
        ///   - logger: Where records go.
        ///   - level: The level of a call answered with a status below 500; `.info` by default.
        ///   - errorLevel: The level of a 5xx answer and of a call that got no response; `.error` by default.
        ///   - extraHeaders: Header names to redact besides `Authorization`, `Proxy-Authorization`, `Cookie` and
        ///     `Set-Cookie`.
        ///   - extraQueryNames: Query parameter names to redact besides `QueryRedaction.defaultNames`.
        public init(
            logger: Logger, level: Logger.Level = .info, errorLevel: Logger.Level = .error,
            redacting extraHeaders: Set<String> = [], redactingQuery extraQueryNames: Set<String> = []
        ) {
            self.logger = logger
            self.level = level
            self.errorLevel = errorLevel
            // The redaction is LoggingInterceptor's own; each entry it makes is turned into one record.
            let logger = logger
            redaction = LoggingInterceptor(redacting: extraHeaders, redactingQuery: extraQueryNames) { entry in
                Self.write(entry, to: logger, level: level, errorLevel: errorLevel)
            }
        }

        /// Sends the request on and logs what happened.
        ///
        /// - Parameters:
        ///   - request: The request.
        ///   - next: The rest of the chain.
        /// - Returns: The response from the rest of the chain, unchanged.
        /// - Throws: What the rest of the chain throws, unchanged.
        public func intercept(_ request: HttpRequestParams, next: InterceptorNext) async throws -> HttpOperationResult {
            try await redaction.intercept(request, next: next)
        }

        private static func write(_ entry: HTTPLogEntry, to logger: Logger, level: Logger.Level, errorLevel: Logger.Level) {
            let milliseconds = Double(entry.duration.components.seconds) * 1_000 + Double(entry.duration.components.attoseconds) / 1e15
            var metadata: Logger.Metadata = [
                "http.request.method": .string(entry.method.rawValue),
                "http.target": .string(entry.target),
                "duration_ms": .stringConvertible(Int(milliseconds.rounded())),
                "retroswift.endpoint": .string("\(entry.endpoint.domain).\(entry.endpoint.name)"),
            ]
            if let status = entry.statusCode { metadata["http.response.status_code"] = .stringConvertible(status) }
            if let error = entry.error { metadata["error"] = .string(error) }
            let failed = entry.statusCode.map { $0 >= 500 } ?? true
            logger.log(level: failed ? errorLevel : level, "\(entry.summary)", metadata: metadata)
        }
    }
#endif
