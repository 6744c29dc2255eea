// Target for the core's checks of every response (`ResponseChecks` and `ResponseBodyBudget`,
// Sources/RetroSwift/Receiving/): the head and body a transport hands over, as a hostile server could shape them.
//
// Input: two bytes of status (100 + n % 900), one byte choosing the method (GET or HEAD) and destination, then header
// lines split at LF (so CR and NUL can sit inside values), each `Name: value` split at the first ':', up to an empty
// line; the rest is the body.
//
// Invariants, for any input:
// - the checks end, and fail only with RequestError of kind malformedResponse or responseTooLarge;
// - the same input gives the same outcome twice;
// - a response they pass has no CR, LF or NUL in a field value, names that are tokens, a head within the limits, no
//   body where its status or method allows none, and, when uncompressed with a Content-Length, a body of that length.

import Foundation

enum FuzzResponseChecks {
    /// Small limits, so that the fuzzer reaches every one of them with small inputs.
    static let limits = ResponseLimits(maxHeaderFields: 16, maxHeaderBytes: 512, maxBodyBytes: 256, maxDecompressionRatio: 4)

    static func run(_ bytes: [UInt8]) {
        guard bytes.count >= 3 else { return }
        let status = 100 + (Int(bytes[0]) << 8 | Int(bytes[1])) % 900
        let method: HTTPMethod = bytes[2] & 1 == 0 ? .get : .head
        let destination: ResponseDestination = bytes[2] & 2 == 0 ? .memory : .file
        var headers = HTTPHeaderFields()
        var rest = bytes[3...]
        while let newline = rest.firstIndex(of: 0x0A) {
            let line = rest[..<newline]
            rest = rest[(newline + 1)...]
            if line.isEmpty { break }
            let colon = line.firstIndex(of: UInt8(ascii: ":")) ?? line.endIndex
            let value = line[min(colon + 1, line.endIndex)...].drop { $0 == 0x20 }
            headers.append(name: String(decoding: line[..<colon], as: UTF8.self), value: String(decoding: value, as: UTF8.self))
        }
        let result = HttpOperationResult(statusCode: status, headers: headers, body: Data(rest))
        let request = HttpRequestParams(
            method: method, encodedPath: "/fuzz", encodedQuery: nil, queryItems: [], headers: [], payload: nil, timeout: nil,
            responseDestination: destination,
            endpoint: EndpointIdentity(domain: "Fuzz", name: "responses", method: method, template: "/fuzz"),
            responseLimits: limits)

        let first = outcome(result, request)
        let second = outcome(result, request)
        fuzzCheck(first.description == second.description, "response-checks: two outcomes for one input: \(first) and \(second)")
        guard case .success(let passed) = first else { return }

        fuzzCheck(passed.headers.count <= limits.maxHeaderFields, "response-checks: \(passed.headers.count) fields passed")
        for field in passed.headers.fields {
            fuzzCheck(
                !field.value.utf8.contains { $0 == 0x0D || $0 == 0x0A || $0 == 0x00 },
                "response-checks: the value of '\(field.name)' passed with CR, LF or NUL: \(fuzzShow(Array(field.value.utf8)))")
            fuzzCheck(
                !field.name.isEmpty && field.name.utf8.allSatisfy(HeaderRules.isTokenCharacter),
                "response-checks: the name \(fuzzShow(Array(field.name.utf8))) passed")
        }
        if !ResponseChecks.hasContent(statusCode: status, method: method) {
            fuzzCheck(passed.data.isEmpty, "response-checks: a \(status) to \(method.rawValue) passed with a body")
        }
        if passed.headers["Content-Encoding"] == nil, !passed.data.isEmpty, let length = passed.headers["Content-Length"] {
            // Every value, leading zeros and all, must be the body's length (every field, not just the first).
            let values = Set(
                passed.headers.values(for: "Content-Length").flatMap { $0.split(separator: ",") }.map {
                    Int64($0.trimmingCharacters(in: .whitespaces))
                })
            fuzzCheck(
                values == [Int64(passed.data.count)],
                "response-checks: a \(passed.data.count)-byte body passed with Content-Length \(length)")
        }
        if destination == .memory || !(200..<300).contains(status) {
            fuzzCheck(passed.data.count <= limits.maxBodyBytes, "response-checks: a \(passed.data.count)-byte body passed into memory")
        }
    }

    private static func outcome(_ result: HttpOperationResult, _ request: HttpRequestParams) -> Result<HttpOperationResult, RequestError> {
        do {
            return .success(try ResponseChecks.checked(result, for: request))
        } catch let error as RequestError {
            fuzzCheck(
                error.kind == .malformedResponse || error.kind == .responseTooLarge,
                "response-checks: refused with kind \(error.kind): \(error)")
            return .failure(error)
        } catch {
            fuzzFail("response-checks: threw \(type(of: error)): \(error)")
        }
    }
}

extension Result<HttpOperationResult, RequestError> {
    /// The outcome as text, to compare two runs: the status, fields and body passed, or the error's description.
    fileprivate var description: String {
        switch self {
        case .success(let result): "\(result.statusCode) \(result.headers.fields) \(result.data.count)"
        case .failure(let error): error.description
        }
    }
}
