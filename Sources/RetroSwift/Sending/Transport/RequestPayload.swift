import Foundation

/// A request's body as the request declared it, with its media type: what ``HttpRequestParams/body`` resolves for a
/// transport, kept apart so that a multipart form is still a form for `curlCommand` and the log.
struct RequestPayload: Sendable {
    enum Content: Sendable {
        /// JSON, form-urlencoded, and `@RawBody` data or text.
        case data(Data)
        /// A multipart form, whose file parts are read from disk as it is sent.
        case multipart(MultipartFormBody)
        /// A `@RawBody` file.
        case file(URL)
        /// A `@RawBody` stream.
        case stream(HTTPRequestBodyStream)
    }

    /// The value of the `Content-Type` header, for example `application/json`.
    let contentType: String
    let content: Content

    /// The body as a transport sends it: a form serialized into a stream of known length.
    var wireBody: HTTPRequestBody {
        switch content {
        case .data(let data): .bytes(data)
        case .multipart(let form): .stream(form.stream)
        case .file(let url): .file(url)
        case .stream(let stream): .stream(stream)
        }
    }
}
