/// Type-level questions the planner asks about a declared response type.
enum ResponseDecoding {
    static func supports(_ type: Any.Type) -> Bool {
        type is any HTTPResponseDecodable.Type || type is any Decodable.Type
    }

    /// ``DownloadedFile`` asks for the body on disk and the streamed types for a stream, directly or as the body of
    /// `Either`'s success type or of `HTTPResponse`; everything else reads it from memory.
    static func destination(for type: Any.Type) -> ResponseDestination {
        (type as? any UnbufferedResponse.Type)?.bodyDestination ?? .memory
    }
}

/// Response types whose success body is not held in memory.
protocol UnbufferedResponse {
    static var bodyDestination: ResponseDestination { get }
}
