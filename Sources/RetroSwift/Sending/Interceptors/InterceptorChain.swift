/// Runs a request through interceptors in order, ending at the transport (through ``RedirectFollower``).
enum InterceptorChain {
    static func send(
        _ request: HttpRequestParams, through interceptors: [any Interceptor], redirects: RedirectPolicy,
        to transport: any HttpTransport
    ) async throws -> HttpOperationResult {
        // An observed call gets a progress of its own, shared by its retries and redirects (see TransferProgressReporter),
        // carried by the request to the transport.
        guard let observation = TransferProgressReporter.current else {
            return try await sendThroughChain(request, through: interceptors, redirects: redirects, to: transport)
        }
        var observed = request
        observed.progress = observation.forCall()
        return try await sendThroughChain(observed, through: interceptors, redirects: redirects, to: transport)
    }

    private static func sendThroughChain(
        _ request: HttpRequestParams, through interceptors: [any Interceptor], redirects: RedirectPolicy,
        to transport: any HttpTransport
    ) async throws -> HttpOperationResult {
        if interceptors.isEmpty { return try await RedirectFollower.send(request, policy: redirects, to: transport) }
        return try await step(0, interceptors, redirects, transport)(request)
    }

    private static func step(
        _ index: Int, _ interceptors: [any Interceptor], _ redirects: RedirectPolicy, _ transport: any HttpTransport
    ) -> InterceptorNext {
        guard index < interceptors.count else {
            return { try await RedirectFollower.send($0, policy: redirects, to: transport) }
        }
        return { request in
            try await interceptors[index].intercept(request, next: step(index + 1, interceptors, redirects, transport))
        }
    }
}
