import Foundation
import RetroSwift

extension HttpOperationResult {
    /// A JSON response with `application/json`.
    public static func json(_ body: String, status: Int = 200, headers: [String: String] = [:]) -> HttpOperationResult {
        HttpOperationResult(
            statusCode: status, headers: headers.merging(["Content-Type": "application/json"]) { own, _ in own },
            body: Data(body.utf8)
        )
    }

    /// A `text/plain` response.
    public static func text(_ body: String, status: Int, headers: [String: String] = [:]) -> HttpOperationResult {
        HttpOperationResult(
            statusCode: status, headers: headers.merging(["Content-Type": "text/plain; charset=utf-8"]) { own, _ in own },
            body: Data(body.utf8)
        )
    }
}
