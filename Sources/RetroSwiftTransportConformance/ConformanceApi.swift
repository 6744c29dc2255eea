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

        struct FileUpload {
            @RawBody var file = URL(fileURLWithPath: "/")
        }

        @Get("/item") var item: () async throws -> HttpResponse<Item>
        @Get("/data") var data: () async throws -> HttpResponse<Data>
        @Head("/data") var head: () async throws -> HttpResponse<Empty>
        @Get("/data") var noContent: () async throws -> HttpResponse<Empty>
        @Get("/file") var file: () async throws -> DownloadedFile
        @Get("/stream", timeout: .infinity) var stream: () async throws -> HttpBodyStream
        @Get("/ordered") var ordered: (Ordered) async throws -> Empty
        @Get("/items/{name}") var target: (Target) async throws -> Empty
        @Post("/upload") var upload: (Upload) async throws -> HttpResponse<Data>
        @Put("/upload") var uploadFile: (FileUpload) async throws -> HttpResponse<Data>
        @Post("/submit") var submit: (Upload) async throws -> HttpResponse<Data>
        @Get("/redirect", redirects: .never) var unfollowed: () async throws -> HttpResponse<Data>
        @Get("/slow", timeout: 1) var slow: () async throws -> HttpResponse<Data>
    }
#endif
