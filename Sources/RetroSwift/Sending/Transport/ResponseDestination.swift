/// Where a transport should put a successful response body.
public enum ResponseDestination: Sendable, Hashable {
    /// Keep the body in memory, in ``HttpOperationResult/body``.
    case memory
    /// Stream the body of a 2xx response to a temporary file and report it in
    /// ``HttpOperationResult/Body/file(_:)``; error bodies stay in memory.
    case file
    /// Return as soon as the head of a 2xx response arrives, with the body to be read from
    /// ``HttpOperationResult/Body/stream(_:)`` while it arrives; error bodies stay in memory. A transport that cannot
    /// stream may keep the body in memory instead: the streamed response types read it from there.
    case stream
}
