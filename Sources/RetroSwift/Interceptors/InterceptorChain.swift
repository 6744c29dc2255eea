/// Runs a request through interceptors in order, ending at the transport.
enum InterceptorChain {
    static func send(_ request: HttpRequestParams, through interceptors: [any Interceptor], to transport: any HttpTransport) async throws -> HttpOperationResult {
        if interceptors.isEmpty { return try await transport.sendRequest(with: request) }
        return try await step(0, interceptors, transport)(request)
    }

    private static func step(_ index: Int, _ interceptors: [any Interceptor], _ transport: any HttpTransport) -> InterceptorNext {
        guard index < interceptors.count else {
            return { try await transport.sendRequest(with: $0) }
        }
        return { request in
            try await interceptors[index].intercept(request, next: step(index + 1, interceptors, transport))
        }
    }
}
