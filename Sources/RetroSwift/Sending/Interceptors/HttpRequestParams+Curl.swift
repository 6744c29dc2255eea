import Foundation

extension HttpRequestParams {
    /// A `curl` command line that sends this request, for logs and bug reports.
    ///
    /// Every word is single-quoted for a POSIX shell. Unless `redactingSecrets` is `false`, the values of
    /// `Authorization`, `Proxy-Authorization`, `Cookie` and `redactedHeaders`, and of the secret query parameters
    /// of `queryRedaction`, read `<redacted>`. Bodies: JSON and form-urlencoded ones go as `--data-binary` text;
    /// multipart ones as `--form-string` fields and `-F name=@path` files, so curl picks its own boundary; a body
    /// that is not UTF-8 text, or a file part held in memory, is named by its size and cannot be replayed.
    ///
    /// In an interceptor the request is already resolved: the command has its full ``url`` and every field of
    /// ``headerFields`` (shared headers included), so it reproduces the call as it is about to be sent.
    ///
    /// ```swift
    /// print(request.curlCommand())
    /// // curl -X 'POST' 'https://api.example.com/notes?api_key=<redacted>' -H 'Authorization: <redacted>' ...
    /// ```
    ///
    /// - Parameters:
    ///   - redactingSecrets: Whether secret header and query values are hidden; `true` by default.
    ///   - redactedHeaders: More header names whose values are hidden, in any case.
    ///   - queryRedaction: The query parameters whose values are hidden.
    /// - Returns: The command line.
    public func curlCommand(
        redactingSecrets: Bool = true, redactedHeaders: Set<String> = [], queryRedaction: QueryRedaction = QueryRedaction()
    ) -> String {
        var words = ["curl"]
        switch method {
        case .get: break
        case .head: words.append("--head")
        default: words += ["-X", Self.quoted(method.rawValue)]
        }
        let url = urlString
        words.append(Self.quoted(redactingSecrets ? queryRedaction.redact(url) : url))
        let secret = RedirectPolicy.standardCredentialHeaders.union(redactedHeaders.map(HeaderName.key))
        var multipart: MultipartFormBody?
        if case .multipart(let form)? = payload?.content { multipart = form }
        for field in headerFields {
            // curl writes a multipart Content-Type with its own boundary.
            if multipart != nil, HeaderName.matches(field.name, "Content-Type") { continue }
            let value = redactingSecrets && secret.contains(HeaderName.key(field.name)) ? "<redacted>" : field.value
            words += ["-H", Self.quoted("\(field.name): \(value)")]
        }
        switch payload?.content {
        case nil:
            break
        case .data(let data)?:
            words += [
                "--data-binary", Self.quoted(String(data: data, encoding: .utf8) ?? "@<\(data.count) bytes that are not UTF-8 text>"),
            ]
        case .multipart(let form)?:
            for part in form.parts {
                words += Self.curlWords(for: part)
            }
        case .file(let url)?:
            words += ["--data-binary", Self.quoted("@" + url.path)]
        case .stream(let stream)?:
            // Chunks made while the request is sent have no command line of their own.
            words += ["--data-binary", Self.quoted("@<a stream of \(stream.length.map { "\($0) bytes" } ?? "unknown length")>")]
        }
        return words.joined(separator: " ")
    }

    private static func curlWords(for part: MultipartFormBody.Part) -> [String] {
        switch part.content {
        case .text(let text):
            return ["--form-string", quoted("\(part.name)=\(text)")]
        case .data(let data) where part.fileName == nil:
            return ["--form-string", quoted("\(part.name)=\(String(decoding: data, as: UTF8.self))")]
        case .data(let data):
            return ["-F", quoted("\(part.name)=@<\(data.count) bytes in memory>" + fileAttributes(part))]
        case .file(let url):
            return ["-F", quoted("\(part.name)=@\(url.path)" + fileAttributes(part))]
        }
    }

    /// curl's `;filename="…";type=…` suffix of a file part, with the name's quotes and backslashes escaped.
    private static func fileAttributes(_ part: MultipartFormBody.Part) -> String {
        var text = ""
        if let fileName = part.fileName {
            text +=
                ";filename=\"" + fileName.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"") + "\""
        }
        if let mimeType = part.mimeType { text += ";type=\(mimeType)" }
        return text
    }

    /// `text` in single quotes for a POSIX shell; a quote inside becomes `'\''`.
    private static func quoted(_ text: String) -> String {
        "'" + text.replacingOccurrences(of: "'", with: "'\\''") + "'"
    }
}
