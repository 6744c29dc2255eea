import Foundation

/// The rules every response meets before anyone sees it, whatever the transport: a head within the call's
/// ``ResponseLimits``, field values without CR, LF or NUL (RFC 9110 §5.5), one valid `Content-Length`
/// (RFC 9112 §6.3), a body that agrees with it, and no body where the status or method allows none.
///
/// Transports run the head rules as soon as a head arrives (through ``ResponseBodyBudget``), so a response is refused
/// before its body is read; ``RedirectFollower`` runs all of them again on what the transport returns, so a
/// transport that forgets cannot let a broken response through.
enum ResponseChecks {
    /// `result` as the caller may see it: field values without the spaces and tabs around them, and the body of a
    /// status or method that has none dropped.
    ///
    /// - Throws: ``RequestError`` of kind ``RequestError/Kind/malformedResponse`` or
    ///   ``RequestError/Kind/responseTooLarge``.
    static func checked(_ result: consuming HttpOperationResult, for request: HttpRequestParams) throws -> HttpOperationResult {
        var budget = try ResponseBodyBudget(for: request, statusCode: result.statusCode, headers: result.headers)
        // RFC 9110 §5.5: the whitespace around a value is not part of it; parsers disagree on trailing tabs.
        if result.headers.fields.contains(where: { isPadded($0.value) }) {
            result.headers = HTTPHeaderFields(result.headers.fields.map { HTTPHeader(name: $0.name, value: trimmed($0.value)) })
        }
        guard !result.data.isEmpty else { return result }
        if !hasContent(statusCode: result.statusCode, method: request.method) {
            // RFC 9112 §6.3: such a response ends with its head; bytes after it are not its body.
            result.data = Data()
            return result
        }
        try budget.add(result.data.count)
        if let length = budget.contentLength, !budget.isEncoded, Int64(result.data.count) != length {
            throw malformed(request, "the body has \(result.data.count) bytes, but its Content-Length says \(length)", result)
        }
        return result
    }

    /// Checks the head of a response; returns its `Content-Length`, if it has one.
    static func checkHead(statusCode: Int, headers: HTTPHeaderFields, for request: HttpRequestParams) throws -> Int64? {
        guard (100...999).contains(statusCode) else {
            throw malformed(request, "the status code \(statusCode) is not a three-digit number", nil)
        }
        let limits = request.responseLimits
        if headers.count > limits.maxHeaderFields {
            throw tooLarge(
                request.endpoint,
                "the head has \(headers.count) fields, more than the \(limits.maxHeaderFields) allowed "
                    + "(ResponseLimits.maxHeaderFields)")
        }
        var bytes = 0
        var length: Int64?
        for field in headers.fields {
            bytes += field.name.utf8.count + field.value.utf8.count + 4
            if let problem = problem(inName: field.name) ?? problem(inValue: field.value) {
                throw malformed(request, "the field '\(printable(field.name))' \(problem)", nil)
            }
            if HeaderName.matches(field.name, "Content-Length") {
                length = try contentLength(field.value, after: length, request)
            } else if HeaderName.matches(field.name, "Transfer-Encoding") {
                try checkTransferCodings(field.value, request)
            }
        }
        if bytes > limits.maxHeaderBytes {
            throw tooLarge(
                request.endpoint,
                "the head's fields have \(bytes) bytes, more than the \(limits.maxHeaderBytes) allowed "
                    + "(ResponseLimits.maxHeaderBytes)")
        }
        return length
    }

    private static func isWhitespace(_ byte: UInt8) -> Bool {
        byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t")
    }

    private static func isPadded(_ value: String) -> Bool {
        value.utf8.first.map(isWhitespace) == true || value.utf8.last.map(isWhitespace) == true
    }

    /// `value` without the spaces and tabs at either end.
    private static func trimmed(_ value: String) -> String {
        let utf8 = value.utf8
        guard let start = utf8.firstIndex(where: { !isWhitespace($0) }), let last = utf8.lastIndex(where: { !isWhitespace($0) }) else {
            return ""
        }
        return String(value[start...last])
    }

    /// RFC 9112 §6.1 and §6.3: a body in a transfer coding other than `chunked` is read to the connection's close and
    /// would reach the caller still coded, bytes the server never meant as the content; such a response is refused.
    /// (`identity`, which some clients report for a body they decoded, codes nothing.)
    private static func checkTransferCodings(_ value: String, _ request: HttpRequestParams) throws {
        for coding in value.split(separator: ",") {
            let name = trimmed(String(coding)).lowercased()
            guard name != "chunked", name != "identity" else { continue }
            throw malformed(
                request,
                "the field 'Transfer-Encoding' names the transfer coding '\(printable(name))', which RetroSwift does not decode "
                    + "(RFC 9112 §6.1), so its body cannot be read",
                nil)
        }
    }

    /// Whether a response to `method` with `statusCode` can have a body at all (RFC 9110 §6.4.1).
    static func hasContent(statusCode: Int, method: HTTPMethod) -> Bool {
        method != .head && statusCode >= 200 && statusCode != 204 && statusCode != 304
    }

    /// RFC 9112 §6.3: a `Content-Length` that is not one decimal number, or whose repeats (as fields or as a list)
    /// disagree, makes the framing unknowable; the message is an error, never a guess.
    private static func contentLength(_ value: String, after earlier: Int64?, _ request: HttpRequestParams) throws -> Int64 {
        // Nearly every response: one plain number, read without splitting the value into a list.
        if !value.isEmpty, value.utf8.count <= 18,
            UTF8Bytes.first(in: value, where: { $0 < UInt8(ascii: "0") || $0 > UInt8(ascii: "9") }) == nil,
            let number = Int64(value)
        {
            if let earlier, earlier != number {
                throw malformed(request, "two Content-Length values disagree (\(earlier) and \(number)); the framing is unknowable", nil)
            }
            return number
        }
        var length = earlier
        for element in value.split(separator: ",", omittingEmptySubsequences: false) {
            // RFC 9110 §5.6.1: list elements are separated by optional whitespace, spaces and tabs only.
            let text = trimmed(String(element))
            guard !text.isEmpty, text.utf8.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }) else {
                throw malformed(request, "the Content-Length '\(printable(value))' is not a decimal number", nil)
            }
            guard let number = Int64(text) else {
                throw malformed(request, "the Content-Length \(text) is too large to be a length", nil)
            }
            if let length, length != number {
                throw malformed(request, "two Content-Length values disagree (\(length) and \(number)); the framing is unknowable", nil)
            }
            length = number
        }
        // Reached only with at least one element: `split` never returns an empty array.
        return length ?? 0
    }

    /// Why `name` is not a field name (an RFC 9110 token), or `nil`.
    private static func problem(inName name: String) -> String? {
        if name.isEmpty { return "has an empty name" }
        guard let byte = UTF8Bytes.first(in: name, where: { !HeaderRules.isTokenCharacter($0) }) else { return nil }
        return "has \(HeaderRules.describe(byte)) in its name, which a field name cannot contain"
    }

    /// RFC 9110 §5.5: a recipient of CR, LF or NUL in a field value must reject the message or replace them; they are
    /// how one field smuggles in another, so the message is rejected.
    private static func problem(inValue value: String) -> String? {
        guard let byte = UTF8Bytes.first(in: value, where: { $0 == 0x0D || $0 == 0x0A || $0 == 0x00 }) else { return nil }
        return "has \(HeaderRules.describe(byte)) in its value, which RFC 9110 forbids (it can smuggle in another field)"
    }

    /// `text` with control characters shown as `\u{…}` and cut to 100 characters, for an error message.
    private static func printable(_ text: String) -> String {
        let shown = text.unicodeScalars.prefix(100).map {
            $0.value < 0x20 || $0.value == 0x7F ? "\\u{\(String($0.value, radix: 16))}" : String($0)
        }
        return shown.joined() + (text.unicodeScalars.count > 100 ? "…" : "")
    }

    static func malformed(_ request: HttpRequestParams, _ reason: String, _ response: HttpOperationResult?) -> RequestError {
        RequestError(.malformedResponse, endpoint: request.endpoint, reason: "the response is refused: " + reason, response: response)
    }

    static func tooLarge(_ endpoint: EndpointIdentity, _ reason: String) -> RequestError {
        RequestError(.responseTooLarge, endpoint: endpoint, reason: "the response is refused: " + reason)
    }
}
