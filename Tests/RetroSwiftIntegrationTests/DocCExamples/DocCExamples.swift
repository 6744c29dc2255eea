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
            guard case .bytes(let body) = response.body else { return CSV(rows: []) }
            let text = String(decoding: body, as: UTF8.self)
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

    // Redirects.md
    final class FilesApi: ApiDomain, @unchecked Sendable {
        struct LinkRequest {
            @Path var id: Int = 0
        }

        @Get("/files/{id}") var file: (LinkRequest) async throws -> Data
        @Get("/files/{id}", redirects: .never) var fileLink: (LinkRequest) async throws -> HTTPResponse<Empty>
    }

}
