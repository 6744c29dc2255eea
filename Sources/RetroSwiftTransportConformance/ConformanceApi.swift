#if TransportConformance
    import Foundation
    import RetroSwift

    /// The endpoints the conformance cases call.
    // @unchecked Sendable: only endpoint wrappers, set up in init and never reassigned (Domain's own state is locked).
    final class ConformanceApi: Domain, @unchecked Sendable {
        struct Item: Decodable, Sendable {
            var id: Int
        }

        /// Eight fields in no alphabetical order: a transport that loses their order sends them in that order by
        /// chance only once in 40,320 calls.
        struct Ordered {
            @Header("X-Third") var third = "3"
            @Header("X-First") var first = "1"
            @Header("X-Second") var second = "2"
            @Header("X-Eighth") var eighth = "8"
            @Header("X-Fifth") var fifth = "5"
            @Header("X-Seventh") var seventh = "7"
            @Header("X-Fourth") var fourth = "4"
            @Header("X-Sixth") var sixth = "6"
        }

        struct Target {
            @Path var name = ""
            @Query("q") var query = ""
            @Query("plus") var plus = ""
        }

        struct Upload {
            @RawBody var body = Data()
        }

        /// A body of unknown length, read as it goes out: chunked on the wire.
        struct StreamUpload {
            @RawBody var body = HTTPRequestBodyStream(length: nil) { AsyncStream<Data> { $0.finish() } }
        }

        struct FileUpload {
            @RawBody var file = URL(fileURLWithPath: "/")
        }

        /// A problem document, the error side of ``teapot``.
        struct Problem: Decodable, Sendable {
            var title: String
        }

        struct EmptyField {
            @Header("X-Empty") var empty = ""
        }

        struct Form {
            @FormParam("title") var title = ""
            @FormFile("file") var file = .empty
        }

        struct Expecting {
            @Header("Expect") var expect = "100-continue"
            @RawBody var body = Data()
        }

        /// A full URL, for a call to the base URL's origin spelled another way.
        struct Located {
            @Url var url: String = ""
        }

        @Get("/item") var item: () async throws -> HTTPResponse<Item>
        @Get() var located: (Located) async throws -> HTTPResponse<Item>
        @Get("/data") var data: () async throws -> HTTPResponse<Data>
        @Head("/data") var head: () async throws -> HTTPResponse<Empty>
        @Get("/data") var noContent: () async throws -> HTTPResponse<Empty>
        @Get("/file") var file: () async throws -> DownloadedFile
        @Get("/stream", timeout: .infinity) var stream: () async throws -> HTTPBodyStream
        @Get("/ordered") var ordered: (Ordered) async throws -> Empty
        @Get("/items/{name}") var target: (Target) async throws -> Empty
        @Post("/upload") var upload: (Upload) async throws -> HTTPResponse<Data>
        @Put("/upload") var uploadFile: (FileUpload) async throws -> HTTPResponse<Data>
        @Post("/upload") var uploadStream: (StreamUpload) async throws -> HTTPResponse<Data>
        @Get("/items/{name}") var search: (Target) async throws -> HTTPResponse<Data>
        @Post("/submit") var submit: (Upload) async throws -> HTTPResponse<Data>
        @Get("/redirect", redirects: .never) var unfollowed: () async throws -> HTTPResponse<Data>
        @Get("/slow", timeout: 1) var slow: () async throws -> HTTPResponse<Data>
        @Post("/upload", timeout: 2) var uploadWithin2s: (Upload) async throws -> HTTPResponse<Data>
        @Get("/data", timeout: 2) var dataWithin2s: () async throws -> HTTPResponse<Data>
        @Get("/slow", timeout: 6) var slowWithin6s: () async throws -> HTTPResponse<Data>
        @Get("/slow", timeout: .infinity) var slowWithoutTimeout: () async throws -> HTTPResponse<Data>
        @Get("/slow", timeout: 0.5) var slowWithinHalfSecond: () async throws -> HTTPResponse<Data>
        @Get("/slow", timeout: 1.5) var slowWithin1point5s: () async throws -> HTTPResponse<Data>
        @Get("/teapot") var teapot: () async throws -> HTTPResponse<Either<Item, Problem>>
        @Delete("/upload") var delete: (Upload) async throws -> HTTPResponse<Data>
        @Patch("/upload") var patch: (Upload) async throws -> HTTPResponse<Data>
        @Options("/data") var options: () async throws -> HTTPResponse<Empty>
        @Get("/ordered") var emptyField: (EmptyField) async throws -> Empty
        @Post("/form") var form: (Form) async throws -> HTTPResponse<Data>
        @Post("/expect") var expecting: (Expecting) async throws -> HTTPResponse<Data>
        @Get("/events") var events: () async throws -> ServerSentEvents<ServerSentEvent>
        @Get("/lines") var jsonLines: () async throws -> JSONLines<Item>
        @Get("/text") var textLines: () async throws -> TextLines
    }
#endif
