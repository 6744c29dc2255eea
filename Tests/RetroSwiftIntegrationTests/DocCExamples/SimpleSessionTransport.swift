// The one-file transport of the Transports article, exactly as the article shows it (a test compares the two), so that
// the conformance suite RetroSwift's tests run against it (DocumentedTransportConformanceTests) runs the article's
// code. The import below the article's is what Linux needs; the snippet tool adds it there too.
import Foundation
import RetroSwift

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

final class RefuseRedirects: NSObject, URLSessionTaskDelegate, Sendable {
    func urlSession(
        _ session: URLSession,
        task: URLSessionTask,
        willPerformHTTPRedirection response: HTTPURLResponse,
        newRequest request: URLRequest
    ) async -> URLRequest? {
        nil  // hand the 3xx back to RetroSwift
    }
}

final class SimpleSessionTransport: HttpTransport {
    private let session = URLSession(
        configuration: .ephemeral,
        delegate: RefuseRedirects(),
        delegateQueue: nil)

    func sendRequest(
        with params: HttpRequestParams
    ) async throws -> HttpOperationResult {
        guard params.url.host != nil else {
            throw RequestError.missingBaseURL(of: params)
        }
        var request = URLRequest(url: params.url)
        request.httpMethod = params.method.rawValue
        if let timeout = params.timeout {
            // .infinity: none
            request.timeoutInterval = min(timeout, 365 * 24 * 3600)
        }
        for field in params.headerFields {
            request.addValue(field.value, forHTTPHeaderField: field.name)
        }
        if params.isCachedByRetroSwift {
            // The domain's HTTPCache decides; URLCache must not answer.
            request.cachePolicy = .reloadIgnoringLocalCacheData
        }
        // Whole, in memory: small bodies only.
        request.httpBody = try await params.body?.data()

        let data: Data
        let response: URLResponse
        do {
            (data, response) = try await session.data(for: request)
        } catch let error as URLError
            where error.code == .cancelled && Task.isCancelled
        {
            throw CancellationError()
        }
        guard let http = response as? HTTPURLResponse else {
            throw URLError(.badServerResponse)
        }
        var headers = HTTPHeaderFields()
        let fields = http.allHeaderFields
        for case (let name as String, let value as String) in fields {
            headers.append(name: name, value: value)
        }
        return HttpOperationResult(
            statusCode: http.statusCode,
            headers: headers,
            body: data,
            url: params.url)
    }
}
