#if TransportConformance
    import Foundation
    import RetroSwift

    /// `{"id":1}`, the body most cases answer with.
    let itemJSON = Data(#"{"id":1}"#.utf8)

    /// A raw `200` answer with `fields` and the item body, its `Content-Length` right.
    func itemResponse(_ fields: [String]) -> RawResponse {
        .head(["HTTP/1.1 200 OK", "Content-Type: application/json"] + fields + ["Content-Length: \(itemJSON.count)"], body: itemJSON)
    }

    extension TransportConformance {
        /// How response header fields reach the caller (RFC 9110 §5).
        static let responseFieldCases: [TransportConformanceCase] = [
            TransportConformanceCase(
                "response-fields/repeats-combined", "a field sent twice reads as both values joined by \", \", in order"
            ) { context in
                try await context.withRawServer({ _ in itemResponse(["X-Foo: a", "X-Foo: b"]) }) { api, _ in
                    let response = try await api.item()
                    try context.expect(
                        response.headers["X-Foo"] == "a, b", "headers[\"X-Foo\"] is \(String(describing: response.headers["X-Foo"]))")
                }
            },
            TransportConformanceCase(
                "response-fields/repeats-kept-apart", "values(for:) gives each field of a repeated name separately, in order"
            ) { context in
                try await context.withRawServer({ _ in itemResponse(["X-Foo: a", "X-Foo: b"]) }) { api, _ in
                    let values = try await api.item().headers.values(for: "x-foo")
                    try context.expect(values == ["a", "b"], "values(for: \"x-foo\") is \(values)")
                }
            },
            TransportConformanceCase(
                "response-fields/names-differing-in-case", "names that differ only in case are one field, its values in order"
            ) { context in
                // Eight spellings, so that a transport that loses their order keeps it by chance once in 40,320 calls.
                let spellings = ["x-foo", "X-FOO", "X-Foo", "x-FOO", "X-foo", "x-Foo", "X-fOO", "x-fOo"]
                let fields = spellings.enumerated().map { "\($1): \($0)" }
                try await context.withRawServer({ _ in itemResponse(fields) }) { api, _ in
                    let response = try await api.item()
                    let value = response.headers["X-Foo"]
                    try context.expect(value == "0, 1, 2, 3, 4, 5, 6, 7", "headers[\"X-Foo\"] is \(String(describing: value))")
                }
            },
            TransportConformanceCase(
                "response-fields/set-cookie-never-combined", "each Set-Cookie field stays a cookie of its own"
            ) { context in
                try await context.withRawServer({ _ in
                    itemResponse(["Set-Cookie: a=1; Expires=Wed, 21 Oct 2037 07:28:00 GMT", "Set-Cookie: b=2; Path=/"])
                }) { api, _ in
                    let response = try await api.item()
                    let cookies = response.headers.values(for: "Set-Cookie")
                    try context.expect(
                        cookies == ["a=1; Expires=Wed, 21 Oct 2037 07:28:00 GMT", "b=2; Path=/"],
                        "values(for: \"Set-Cookie\") is \(cookies)")
                    try context.expect(
                        response.headers["Set-Cookie"] == cookies.first,
                        "headers[\"Set-Cookie\"] is \(String(describing: response.headers["Set-Cookie"])), not the first cookie")
                }
            },
            TransportConformanceCase(
                "response-fields/wire-order", "fields keep the order they arrived in"
            ) { context in
                // Eight names in no alphabetical order, so that a transport that loses their order keeps it by chance
                // once in 40,320 calls.
                let names = ["x-c", "x-a", "x-h", "x-e", "x-b", "x-g", "x-d", "x-f"]
                try await context.withRawServer({ _ in itemResponse(names.map { "\($0): 1" }) }) { api, _ in
                    let arrived = try await api.item().headers.map { $0.name.lowercased() }.filter { $0.hasPrefix("x-") }
                    try context.expect(arrived == names, "the X- fields arrived as \(arrived)")
                }
            },
            TransportConformanceCase(
                "response-fields/whitespace-trimmed", "spaces and tabs around a field value are not part of it"
            ) { context in
                try await context.withRawServer({ _ in itemResponse(["X-Padded: \t value with inner space \t"]) }) { api, _ in
                    let value = try await api.item().headers["X-Padded"]
                    try context.expect(value == "value with inner space", "headers[\"X-Padded\"] is \(String(describing: value))")
                }
            },
            TransportConformanceCase(
                "response-fields/status-and-url", "the status and the URL requested come back with the response"
            ) { context in
                try await context.withRawServer({ _ in .head(["HTTP/1.1 203 Whatever", "Content-Length: 8"], body: itemJSON) }) {
                    api, server in
                    let response = try await api.item()
                    try context.expect(response.statusCode == 203, "the status is \(response.statusCode)")
                    let expected = server.baseURL.appendingPathComponent("item").absoluteString
                    try context.expect(
                        response.url?.absoluteString == expected, "the URL is \(String(describing: response.url)), not \(expected)")
                }
            },
            TransportConformanceCase(
                "response-fields/url-keeps-query", "the URL that comes back with the response keeps the query requested"
            ) { context in
                try await context.withServer({ _ in ScriptedResponse(status: 200) }) { api, server in
                    let response = try await api.search(.init(name: "books", query: "swift", plus: "two"))
                    let expected = server.baseURL.absoluteString + "/items/books?q=swift&plus=two"
                    try context.expect(
                        server.requests.first?.target == "/items/books?q=swift&plus=two",
                        "the request target was \(String(describing: server.requests.first?.target))")
                    try context.expect(
                        response.url?.absoluteString == expected, "the URL is \(String(describing: response.url)), not \(expected)")
                }
            },
        ]
    }
#endif
