// The original README's usage snippets (../shared/seeds/003_*.txt, the specification RetroSwift started from), run
// against RecordingTransport to show they behave as that README says. Its declarations are the DocSnippets targets'
// (CallingPatternDeclarations.swift, linked here), in their `CallingPatterns` namespace; the aliases below name them
// as the README does. README.md's own code is compiled from the Markdown by the DocSnippets targets (CONTRIBUTING.md).
import Foundation
import RetroSwift

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

typealias Schedule = CallingPatterns.Schedule
typealias GetSchedulesRequest = CallingPatterns.GetSchedulesRequest
typealias GetSchedulesResponse = CallingPatterns.GetSchedulesResponse
typealias CreateScheduleRequest = CallingPatterns.CreateScheduleRequest
typealias DeleteScheduleRequest = CallingPatterns.DeleteScheduleRequest
typealias DeleteScheduleErrorResponse = CallingPatterns.DeleteScheduleErrorResponse
typealias SchedulesApi = CallingPatterns.SchedulesApi
typealias ElevenLabsApi = CallingPatterns.ElevenLabsApi
typealias SpeechToTextApiRequest = CallingPatterns.SpeechToTextApiRequest
typealias FeedApi = CallingPatterns.FeedApi
typealias FetchPageRequest = CallingPatterns.FetchPageRequest
typealias AvatarRequest = CallingPatterns.AvatarRequest

/// The README's usage snippets, as functions the tests call.
enum ReadmeUsage {
    static func getSchedules(transport: HttpTransport) async throws -> GetSchedulesResponse {
        let api = SchedulesApi(transport: transport)

        let request = GetSchedulesRequest(page: 1, schedulesPerPage: 30, accountId: "acc_id")
        let response = try await api.getSchedules(request)
        return response
    }

    static func speechToText(api: ElevenLabsApi, languageCode: String, recording: Data) async throws -> String {
        let request = ElevenLabsApi.SpeechToTextApiRequest(
            modelId: "scribe_v1",
            languageCode: languageCode,
            tagAudioEvents: false,
            numSpeakers: 1,
            recording: .init(fileName: "recording.caf", mimeType: "audio/x-caf", content: recording)
        )

        let transcribedText = try await api.speechToText(request).text
        return transcribedText
    }

    static func mock(_ api: SchedulesApi) {
        api.getSchedules = { _ in
            GetSchedulesResponse(schedules: [Schedule(id: "1", title: "Mocked")])
        }

        api.deleteSchedule = { _ in
            throw URLError(.userAuthenticationRequired)
        }

        api.deleteSchedule = { _ in
            .errorResponse(DeleteScheduleErrorResponse(errorMessage: "Schedule not found"))
        }
    }
}

// The README's redirect example (Transports section), on the library's ApiDomain (this module also declares the
// seed README's own, which shadows it).
// @unchecked Sendable: as the README says, the subclass adds only endpoint wrappers.
final class FilesApi: RetroSwift.ApiDomain, @unchecked Sendable {
    struct LinkRequest {
        @Path var id: Int = 0
    }

    @Get("/files/{id}") var file: (LinkRequest) async throws -> Data
    @Get("/files/{id}", redirects: .never) var fileLink: (LinkRequest) async throws -> HTTPResponse<Empty>
}

extension ReadmeUsage {
    static func fileLink(transport: HttpTransport) async throws -> String? {
        let api = FilesApi(transport: transport, baseURL: URL(string: "https://files.example.com")!)
        api.redirectPolicy = .follow(maximumRedirects: 5, credentialHeaders: ["X-Api-Key"])
        let link = try await api.fileLink(.init(id: 7))  // the 302 itself, not followed
        let location = link.header("Location")
        return location
    }
}

extension ReadmeUsage {
    /// The README's environments example (Transports section); `transport` stands for its `URLSessionTransport()`.
    static func environments(transport: HttpTransport, stagingKey: String, productionKey: String) async throws {
        let files = FilesApi(
            transport: transport, baseURL: URL(string: "https://staging.example.com")!,
            sharedHeaders: ["X-Api-Key": stagingKey])
        let media = FilesApi(transport: transport, baseURL: URL(string: "https://media.example.com")!)
        _ = try await files.file(.init(id: 1))
        _ = try await media.file(.init(id: 2))

        // Calls started from now on go to production with its key; calls already running finish where they started.
        files.setConfiguration(baseURL: URL(string: "https://api.example.com")!, sharedHeaders: ["X-Api-Key": productionKey])
        _ = try await files.file(.init(id: 3))
    }
}

// The README's maps example (Parameters section).
struct SearchRequest {
    @Query var page: Int = 1
    @QueryMap var filters: [String: String?] = [:]
    @HeaderMap var extraHeaders: [String: String] = [:]
}

// @unchecked Sendable: as the README says, the subclass adds only endpoint wrappers.
final class SearchApi: Domain, @unchecked Sendable {
    @Get("/search") var search: (SearchRequest) async throws -> Empty
}

extension ReadmeUsage {
    static func search(_ api: SearchApi) async throws {
        _ = try await api.search(SearchRequest(page: 2, filters: ["q": "a&b", "sort": "name", "tag": nil]))
        // GET /search?page=2&q=a%26b&sort=name
    }
}

// The README's @Url example (Parameters section); the declarations are in ReadmeDeclarations.swift.
extension ReadmeUsage {
    static func feed(_ feed: FeedApi) async throws {
        // With the base URL https://api.example.com/v2:
        _ = try await feed.page(FetchPageRequest(url: "feeds/42?cursor=abc", limit: 20))
        // GET https://api.example.com/v2/feeds/42?cursor=abc&limit=20
        _ = try await feed.page(FetchPageRequest(url: "https://api.example.com/feeds/42?cursor=def"))
        // GET https://api.example.com/feeds/42?cursor=def (a full URL is requested as it is)
        _ = try await feed.avatar(AvatarRequest(url: URL(string: "https://avatars.example-cdn.com/u/7.png")!))
        // GET https://avatars.example-cdn.com/u/7.png, without the shared headers or the interceptors' Authorization
    }
}

// The README's curl example (Interceptors section).
struct CurlPrinter: Interceptor {
    func intercept(_ request: HttpRequestParams, next: InterceptorNext) async throws -> HttpOperationResult {
        print(request.curlCommand())  // the full URL and every header field, as the transport will send them
        // curl -X 'POST' 'https://api.example.com/notes?api_key=<redacted>' -H 'Authorization: <redacted>' ...
        return try await next(request)
    }
}

// The README's shared query items example (Interceptors section).
enum ReadmeSharedQueryItems {
    static func install(on api: Domain, flickrKey: String) {
        api.interceptors = [SharedQueryItemsInterceptor(["api_key": flickrKey, "format": "json"])]
        // GET /services/rest?method=flickr.photos.search&api_key=...&format=json
    }
}

#if SwiftLog
    import Logging
    import RetroSwiftLogging

    // The README's swift-log example (Interceptors section).
    enum ReadmeSwiftLog {
        static func install(on api: Domain) {
            api.interceptors = [SwiftLogInterceptor(logger: Logger(label: "app.api"), redacting: ["X-Api-Key"])]
        }
    }
#endif

#if Tracing
    import RetroSwiftTracing

    // The README's tracing example (Interceptors section).
    enum ReadmeTracing {
        static func install(on api: Domain) {
            api.interceptors = [RetryInterceptor(), TracingInterceptor()]
        }
    }
#endif
