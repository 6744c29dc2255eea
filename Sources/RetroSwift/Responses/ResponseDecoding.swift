/// Type-level questions the planner asks about a declared response type.
enum ResponseDecoding {
    static func supports(_ type: Any.Type) -> Bool {
        type is any HttpResponseDecodable.Type || type is any Decodable.Type
    }

    /// Only ``DownloadedFile``, directly or as `Either`'s success type, asks for the body on disk.
    static func destination(for type: Any.Type) -> ResponseDestination {
        type is any FileResponse.Type ? .file : .memory
    }
}

/// Response types whose success body is written to disk.
protocol FileResponse {}
