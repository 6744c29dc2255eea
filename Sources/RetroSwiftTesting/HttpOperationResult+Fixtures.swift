import Foundation
import RetroSwift

extension HttpOperationResult {
    /// A JSON response with `application/json`.
    public static func json(_ body: String, status: Int = 200, headers: [String: String] = [:]) -> HttpOperationResult {
        HttpOperationResult(
            statusCode: status, headers: HTTPHeaderFields(headers.merging(["Content-Type": "application/json"]) { own, _ in own }),
            body: Data(body.utf8)
        )
    }

    /// A `text/plain` response.
    public static func text(_ body: String, status: Int, headers: [String: String] = [:]) -> HttpOperationResult {
        HttpOperationResult(
            statusCode: status, headers: HTTPHeaderFields(headers.merging(["Content-Type": "text/plain; charset=utf-8"]) { own, _ in own }),
            body: Data(body.utf8)
        )
    }
}

extension HttpOperationResult {
    /// A redirect to `location` (absolute, or relative to the request's URL) with no body.
    ///
    /// - Parameters:
    ///   - location: The `Location` header.
    ///   - status: A `3xx` status; `302 Found` by default.
    /// - Returns: The response.
    public static func redirect(to location: String, status: Int = 302) -> HttpOperationResult {
        HttpOperationResult(statusCode: status, headers: ["Location": location])
    }
}
