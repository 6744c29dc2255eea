import Foundation

/// Counts a response body while a transport receives it, and stops it at the call's ``ResponseLimits``; for
/// transport authors.
///
/// Make one when the head arrives: that checks the head by RetroSwift's rules (``ResponseLimits``, field values,
/// `Content-Length`) and refuses a body whose `Content-Length` is already over the limit. Then pass the size of every
/// piece of the body, after decompression, to ``add(_:)``, and stop reading and throw its error when it throws.
///
/// ```swift
/// var budget = try ResponseBodyBudget(for: params, statusCode: status, headers: headers)
/// for try await piece in body {
///     try budget.add(piece.count)
///     data.append(piece)
/// }
/// ```
public struct ResponseBodyBudget: Sendable {
    /// The most bytes the body may have, after decompression; `Int.max` when it is not limited.
    public let maxBytes: Int
    /// The bytes counted so far.
    public private(set) var count = 0
    /// The response's `Content-Length`, when it has one.
    let contentLength: Int64?
    /// Whether the body has a `Content-Encoding`, so that its `Content-Length` counts compressed bytes.
    let isEncoded: Bool
    /// The endpoint its errors name: the request itself is not kept, so that a budget copies no request.
    private let endpoint: EndpointIdentity
    private let limitName: String

    /// Checks the head of a response and sets the budget of its body.
    ///
    /// - Parameters:
    ///   - request: The request the response answers; its ``HttpRequestParams/responseLimits`` and
    ///     ``HttpRequestParams/responseDestination`` decide the budget.
    ///   - statusCode: The response's status code.
    ///   - headers: The response's header fields, every one, in the order received.
    /// - Throws: ``RequestError`` of kind ``RequestError/Kind/malformedResponse`` for a head that breaks HTTP's rules,
    ///   or ``RequestError/Kind/responseTooLarge`` for one over the limits or announcing a body over them.
    public init(for request: borrowing HttpRequestParams, statusCode: Int, headers: HTTPHeaderFields) throws {
        self.endpoint = request.endpoint
        let limits = request.responseLimits
        let length = try ResponseChecks.checkHead(statusCode: statusCode, headers: headers, for: request)
        // Error bodies stay in memory whatever the destination; 2xx bodies only when the call asked for them there.
        let buffered = request.responseDestination == .memory || !(200..<300).contains(statusCode)
        let coding = headers["Content-Encoding"]?.trimmingCharacters(in: .whitespaces).lowercased() ?? ""
        let encoded = !coding.isEmpty && coding != "identity"
        var maxBytes = buffered ? limits.maxBodyBytes : Int.max
        var limitName = "ResponseLimits.maxBodyBytes"
        if encoded, let length {
            let (product, overflow) = Int(clamping: length).multipliedReportingOverflow(by: max(limits.maxDecompressionRatio, 1))
            let byRatio = overflow ? Int.max : max(product, ResponseLimits.ratioFloorBytes)
            if byRatio < maxBytes {
                maxBytes = byRatio
                limitName = "ResponseLimits.maxDecompressionRatio: \(limits.maxDecompressionRatio) times its \(length) compressed bytes"
            }
        } else if let length, length > maxBytes, ResponseChecks.hasContent(statusCode: statusCode, method: request.method) {
            throw ResponseChecks.tooLarge(
                request.endpoint, "its Content-Length is \(length) bytes, more than the \(maxBytes) allowed in memory (\(limitName))")
        }
        self.maxBytes = maxBytes
        self.limitName = limitName
        self.contentLength = length
        self.isEncoded = encoded
    }

    /// Counts `byteCount` more bytes of the body, after decompression.
    ///
    /// - Parameter byteCount: The size of the piece just received.
    /// - Throws: ``RequestError`` of kind ``RequestError/Kind/responseTooLarge`` once the body is over its budget.
    public mutating func add(_ byteCount: Int) throws {
        count = count.addingReportingOverflow(byteCount).overflow ? Int.max : count + byteCount
        guard count > maxBytes else { return }
        throw ResponseChecks.tooLarge(endpoint, "the body passed \(maxBytes) bytes (\(limitName))")
    }
}
