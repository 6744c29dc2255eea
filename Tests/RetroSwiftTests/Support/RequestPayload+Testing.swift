import Foundation

@testable import RetroSwift

// The unit tests check how RetroSwift built a body — its media type and, for a form, its parts — on the declared
// payload itself, which a transport sees only as ``HTTPRequestBody``.
extension RequestPayload {
    /// The whole body in memory, read as a transport would send it.
    func data() throws -> Data {
        switch content {
        case .data(let data): return data
        case .multipart(let form): return try form.data()
        case .file(let url): return try Data(contentsOf: url)
        case .stream: throw CocoaError(.featureUnsupported)
        }
    }

    /// The body's size, without reading a file.
    func contentLength() throws -> Int64? {
        try wireBody.length()
    }
}
