import Foundation
import RetroSwift

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Declarations of the DocC articles' examples, run end to end by `DocCExampleTests` on every transport. The articles'
/// own code blocks are compiled straight from the Markdown by the DocSnippets targets (CONTRIBUTING.md); these
/// copies exist to be run against the scripted server.
enum DocCExamples {
    // ParametersAndEncoding.md
    struct Coordinate: ParameterValueConvertible {
        var latitude: Double
        var longitude: Double

        var parameterValue: String { "\(latitude),\(longitude)" }
    }

    struct NearbyRequest {
        @Query("near") var location = Coordinate(latitude: 0, longitude: 0)
    }

    // ResponsesAndErrors.md
    struct CSV: HTTPResponseDecodable {
        var rows: [[String]]

        static func decode(from response: HttpOperationResult, context: ResponseDecodingContext) throws -> CSV {
            let text = String(decoding: response.body, as: UTF8.self)
            return CSV(rows: text.split(separator: "\n").map { $0.split(separator: ",").map(String.init) })
        }
    }

    // Interceptors.md
    struct RequestIdInterceptor: Interceptor {
        let report: @Sendable (String) -> Void

        func intercept(_ request: HttpRequestParams, next: InterceptorNext) async throws -> HttpOperationResult {
            let tagged = try request.settingHeader("X-Request-Id", to: UUID().uuidString)
            let start = ContinuousClock.now
            let response = try await next(tagged)
            if ContinuousClock.now - start > .seconds(2) {
                report("slow: \(request.endpoint) -> \(response.statusCode)")
            }
            return response
        }
    }

    // Transports.md
    final class RefuseRedirects: NSObject, URLSessionTaskDelegate, Sendable {
        func urlSession(
            _ session: URLSession, task: URLSessionTask, willPerformHTTPRedirection response: HTTPURLResponse,
            newRequest request: URLRequest
        ) async -> URLRequest? {
            nil  // hand the 3xx back to RetroSwift
        }
    }

    final class SimpleSessionTransport: ConfigurableHTTPTransport {
        let configuration = HTTPTransportConfigurationStore()
        private let session = URLSession(configuration: .ephemeral, delegate: RefuseRedirects(), delegateQueue: nil)

        func sendRequest(with params: HttpRequestParams) async throws -> HttpOperationResult {
            var request = URLRequest(url: params.url)
            request.httpMethod = params.method.rawValue
            if let timeout = params.timeout { request.timeoutInterval = min(timeout, 365 * 24 * 3600) }  // .infinity: none
            for field in params.headerFields {
                request.addValue(field.value, forHTTPHeaderField: field.name)
            }
            if params.isCachedByRetroSwift { request.cachePolicy = .reloadIgnoringLocalCacheData }  // HTTPCache decides
            request.httpBody = try params.body?.data()  // small bodies only; stream multipart files in production

            let (data, response) = try await session.data(for: request)
            guard let http = response as? HTTPURLResponse else { throw URLError(.badServerResponse) }
            var headers: HTTPHeaderFields = [:]
            for case (let name as String, let value as String) in http.allHeaderFields {
                headers.append(name: name, value: value)
            }
            return HttpOperationResult(statusCode: http.statusCode, headers: headers, body: data, url: params.url)
        }
    }

    // Redirects.md
    final class FilesApi: ApiDomain, @unchecked Sendable {
        struct LinkRequest {
            @Path var id: Int = 0
        }

        @Get("/files/{id}") var file: (LinkRequest) async throws -> Data
        @Get("/files/{id}", redirects: .never) var fileLink: (LinkRequest) async throws -> HTTPResponse<Empty>
    }

}
