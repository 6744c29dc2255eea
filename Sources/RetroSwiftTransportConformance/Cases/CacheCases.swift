#if TransportConformance
    import Foundation
    import RetroSwift

    extension TransportConformance {
        /// What a transport owes RetroSwift's `HTTPCache`: the conditional request as it was built, the `304` as it
        /// came, and no answer from a cache of its own (`HttpRequestParams.isCachedByRetroSwift`).
        static let cacheCases: [TransportConformanceCase] = [
            TransportConformanceCase(
                "cache/not-modified-reaches-retroswift",
                "a revalidation sends If-None-Match and its 304 reaches RetroSwift, which answers with the stored body"
            ) { context in
                try await context.withServer({ request in
                    if request.header("If-None-Match") == "\"v1\"" { return ScriptedResponse(status: 304, headers: [("ETag", "\"v1\"")]) }
                    return ScriptedResponse(
                        status: 200,
                        headers: [("Content-Type", "application/json"), ("ETag", "\"v1\""), ("Cache-Control", "max-age=0")],
                        body: itemJSON)
                }) { api, server in
                    api.httpCache = HTTPCache()
                    let first = try await api.item()
                    let second = try await api.item()
                    let sent = server.requests.map { $0.header("If-None-Match") }
                    try context.expect(sent == [nil, "\"v1\""], "the server saw If-None-Match \(sent)")
                    try context.expect(
                        first.source == .network && second.source == .revalidatedCache && second.body.id == 1,
                        "the calls came from \(first.source) and \(second.source), the second with \(second.statusCode)")
                }
            },
            TransportConformanceCase(
                "cache/transport-cache-unused",
                "with RetroSwift's cache on, a response the server says is fresh still reaches the server once the cache is emptied"
            ) { context in
                try await context.withServer({ _ in
                    ScriptedResponse(
                        status: 200, headers: [("Content-Type", "application/json"), ("Cache-Control", "public, max-age=600")],
                        body: itemJSON)
                }) { api, server in
                    let cache = HTTPCache()
                    api.httpCache = cache
                    _ = try await api.item()
                    let hit = try await api.item()
                    cache.removeAll()
                    let again = try await api.item()
                    try context.expect(hit.source == .cache, "the second call came from \(hit.source)")
                    try context.expect(
                        server.requests.count == 2 && again.source == .network,
                        "after removeAll() the server saw \(server.requests.count) requests in all; the call came from \(again.source)")
                }
            },
        ]
    }
#endif
