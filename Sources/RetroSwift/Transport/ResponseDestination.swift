/// Where a transport should put a successful response body.
public enum ResponseDestination: Sendable, Hashable {
    /// Keep the body in memory, in ``HttpOperationResult/body``.
    case memory
    /// Stream the body of a 2xx response to a temporary file and report it in
    /// ``HttpOperationResult/downloadedFileURL``; error bodies stay in memory.
    case file
}
