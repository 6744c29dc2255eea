import Foundation

/// What the test server answers, and how.
public struct ScriptedResponse: Sendable {
    /// How the answer is delivered.
    public enum Behavior: Sendable {
        /// Answer at once.
        case normal
        /// Answer after a delay in seconds.
        case delayed(TimeInterval)
        /// Send the head and part of the body, then close the connection.
        case closeMidResponse
        /// Never answer (the client must time out or be cancelled).
        case silent
    }

    /// The status code.
    public var status: Int
    /// Header fields; `Content-Length` is added.
    public var headers: [(name: String, value: String)]
    /// The body.
    public var body: Data
    /// How to deliver it.
    public var behavior: Behavior

    /// Creates a response.
    public init(status: Int = 200, headers: [(name: String, value: String)] = [], body: Data = Data(), behavior: Behavior = .normal) {
        self.status = status
        self.headers = headers
        self.body = body
        self.behavior = behavior
    }

    /// A JSON response.
    public static func json(_ text: String, status: Int = 200) -> ScriptedResponse {
        ScriptedResponse(status: status, headers: [("Content-Type", "application/json")], body: Data(text.utf8))
    }

    /// A `text/plain` response.
    public static func text(_ text: String, status: Int) -> ScriptedResponse {
        ScriptedResponse(status: status, headers: [("Content-Type", "text/plain; charset=utf-8")], body: Data(text.utf8))
    }
}
