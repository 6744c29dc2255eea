import Foundation

extension Domain {
    /// Calls the server once without declaring an endpoint (Echo's and Kilo's `invoke`), through the same pipeline as
    /// declared endpoints: the same encoding rules and checks, the domain's interceptors, redirect policy, base URL
    /// and shared headers, the same errors, and the same transport (so `RecordingTransport` sees it in tests).
    ///
    /// ```swift
    /// // GET /test/fibonacci?count=8
    /// let numbers: [Int] = try await api.invoke(.get, path: "test/fibonacci", arguments: ["count": 8])
    /// ```
    ///
    /// - Parameters:
    ///   - method: The method, such as `.get`, or one of your own.
    ///   - path: The path relative to the base URL, with or without its leading `/`. A `{name}` placeholder is
    ///     filled from the argument of that name, as a `@Path` field would be.
    ///   - arguments: The query arguments, sent in name order by the rules of `@Query`: `nil` left out, an array
    ///     repeats the name, a `Date` is epoch milliseconds.
    ///   - body: A body sent as it is (``RawBodyContent``: bytes, text or a file streamed from disk), or `nil`.
    ///   - responseType: What to decode the response into, as for a declared endpoint (`Empty`, `Data`, `String`,
    ///     any `Decodable`, `Either`, `HTTPResponse`, `DownloadedFile`); usually inferred.
    /// - Returns: The decoded response.
    /// - Throws: ``DeclarationError`` for a malformed path, an unfilled placeholder or a body on `GET`;
    ///   ``RequestError`` for a value that cannot be sent; ``HTTPError`` for a status outside 2xx; and what the
    ///   interceptors and the transport throw.
    @discardableResult
    nonisolated(nonsending) public func invoke<Response>(
        _ method: HTTPMethod, path: String, arguments: [String: Any] = [:], body: RawBodyContent? = nil,
        returning responseType: Response.Type = Response.self
    ) async throws -> Response {
        try await AdHocCall.perform(self, method, path, arguments, .raw(body))
    }

    /// Calls the server once with a JSON body, without declaring an endpoint (Echo's `invoke(_:path:arguments:body:)`).
    ///
    /// ```swift
    /// let created: Note = try await api.invoke(.post, path: "notes", json: Note(text: "hi"))
    /// ```
    ///
    /// - Parameters:
    ///   - method: The method, such as `.post`.
    ///   - path: The path relative to the base URL; `{name}` placeholders are filled from `arguments`.
    ///   - arguments: The query arguments, by the rules of `@Query`.
    ///   - json: The body, encoded with the domain's ``jsonEncoder`` as `application/json`.
    ///   - responseType: What to decode the response into; usually inferred.
    /// - Returns: The decoded response.
    /// - Throws: As ``invoke(_:path:arguments:body:returning:)``, and ``RequestError`` of kind
    ///   ``RequestError/Kind/unencodableBody`` when the body does not encode.
    @discardableResult
    nonisolated(nonsending) public func invoke<Body: Encodable, Response>(
        _ method: HTTPMethod, path: String, arguments: [String: Any] = [:], json: Body,
        returning responseType: Response.Type = Response.self
    ) async throws -> Response {
        try await AdHocCall.perform(self, method, path, arguments, .json(json))
    }
}
