/// An HTTP request method.
public enum HttpMethod: String, Sendable, Hashable, CaseIterable {
    /// `GET`: read a resource.
    case get = "GET"
    /// `POST`: create or act on a resource.
    case post = "POST"
    /// `PUT`: replace a resource.
    case put = "PUT"
    /// `PATCH`: change part of a resource.
    case patch = "PATCH"
    /// `DELETE`: remove a resource.
    case delete = "DELETE"
    /// `HEAD`: like `GET`, without a response body.
    case head = "HEAD"

    /// Whether the method may carry a request body. `GET` and `HEAD` bodies are ignored or rejected by many servers.
    var allowsBody: Bool {
        self != .get && self != .head
    }
}
