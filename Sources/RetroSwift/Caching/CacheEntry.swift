import Foundation

/// One stored response (RFC 9111 §3) with what its freshness and its selection need, computed when it is stored.
struct CacheEntry: Sendable {
    let statusCode: Int
    private(set) var headers: HTTPHeaderFields
    /// The body; empty in the index of a disk store, which reads it from its file when the entry answers.
    private(set) var body: Data
    let url: URL?
    /// The request's values of the fields the response's `Vary` names, lowercased names in order; a later request
    /// is answered by this entry only with the same values (§4.1).
    let varied: [VariedField]
    /// The SHA-256 of the request's `Authorization`, unless the response is `public`: an entry answers only requests
    /// with the same credentials, so one user's stored answer never reaches another; a digest, so that a disk store
    /// never writes a credential down.
    let credential: String?
    private(set) var control: CacheControl
    /// How long the response stays fresh from its generation, in seconds (§4.2.1).
    private(set) var freshnessLifetime: TimeInterval
    /// Its age when it arrived (§4.2.3's `corrected_initial_age`).
    private(set) var initialAge: TimeInterval
    /// When it arrived.
    private(set) var responseTime: Date
    /// Its size, counted against the cache's limit: the body and the fields.
    private(set) var byteCount: Int
    /// The body's size, also when the body itself is in a file.
    let bodyCount: Int

    struct VariedField: Sendable, Equatable {
        let name: String
        let value: String?
    }

    /// Why a response may not be stored, or `nil` when it may (§3): the cache's own reasons, so a test can say which.
    enum Refusal: Equatable {
        case status, noStore, varyAll, nothingToReuse, tooLarge
    }

    init(
        _ response: HttpOperationResult, for requester: CacheStore.Requester, requestTime: Date, responseTime: Date,
        heuristics: Bool
    ) {
        statusCode = response.statusCode
        headers = HTTPHeaderFields(response.headers.fields.filter { !Self.unstoredFields.contains(HeaderName.key($0.name)) })
        body = response.data
        url = response.url
        control = CacheControl(response.header("Cache-Control"))
        varied = Self.varyNames(of: response.headers).map { name in
            VariedField(name: name, value: Self.value(of: name, in: requester.fields))
        }
        credential = control.isPublic ? nil : requester.credential
        freshnessLifetime = 0
        initialAge = 0
        self.responseTime = responseTime
        bodyCount = body.count
        byteCount = body.count + Self.overhead(of: headers)
        settle(requestTime: requestTime, responseTime: responseTime, heuristics: heuristics)
    }

    /// Why `response` to `request` cannot be stored, or `nil`.
    static func refusal(
        of response: HttpOperationResult, to request: HttpRequestParams, requestControl: CacheControl, heuristics: Bool,
        maxEntryBytes: Int
    ) -> Refusal? {
        // A final status the cache understands (§3): not 1xx, not a partial 206, not a 304 (which only updates).
        guard (200..<600).contains(response.statusCode), response.statusCode != 206, response.statusCode != 304,
            response.bodyStream == nil, response.downloadedFileURL == nil
        else { return .status }
        let control = CacheControl(response.header("Cache-Control"))
        if requestControl.noStore || control.noStore { return .noStore }
        if varyNames(of: response.headers).contains("*") { return .varyAll }
        // Stored without a way to tell it fresh or to revalidate it, it could never answer a call.
        let explicit = control.maxAge != nil || response.header("Expires") != nil
        let validator = response.header("ETag") != nil || response.header("Last-Modified") != nil
        let heuristic = heuristics && heuristicStatuses.contains(response.statusCode) && response.header("Last-Modified") != nil
        guard explicit || validator || heuristic else { return .nothingToReuse }
        if response.data.count > maxEntryBytes { return .tooLarge }
        return nil
    }

    /// Whether this entry answers a request with `requestFields` whose credential digest is `requestCredential`
    /// (§4.1): same credentials, same values of the varied fields.
    func matches(_ requestFields: [HTTPHeader], credential requestCredential: String?) -> Bool {
        if !control.isPublic, credential != requestCredential { return false }
        return varied.allSatisfy { $0.value == Self.value(of: $0.name, in: requestFields) }
    }

    /// The SHA-256 of a request's `Authorization`, `nil` when it has none.
    static func credential(in requestFields: [HTTPHeader]) -> String? {
        value(of: "authorization", in: requestFields).map(SHA256.hex)
    }

    /// This entry without its body, for the index of a disk store; ``byteCount`` still counts the body.
    func withoutBody() -> CacheEntry {
        var copy = self
        copy.body = Data()
        return copy
    }

    /// This entry with `body`, read back from its file.
    func with(body: Data) -> CacheEntry {
        var copy = self
        copy.body = body
        return copy
    }

    /// Its current age at `now` (§4.2.3), in seconds.
    func age(at now: Date) -> TimeInterval {
        initialAge + max(0, now.timeIntervalSince(responseTime))
    }

    /// Whether it has a validator to revalidate it with.
    var validators: (etag: String?, lastModified: String?) {
        (headers["ETag"], headers["Last-Modified"])
    }

    /// The stored response as a call's answer, with an `Age` field of its current age (§5.1).
    func response(age: TimeInterval, source: ResponseSource) -> HttpOperationResult {
        var fields = headers.fields.filter { !HeaderName.matches($0.name, "Age") }
        fields.append(HTTPHeader(name: "Age", value: String(Int(min(age, Double(CacheControl.deltaSecondsCap))))))
        var result = HttpOperationResult(statusCode: statusCode, headers: HTTPHeaderFields(fields), body: body, url: url)
        result.source = source
        return result
    }

    /// Takes the fields of `notModified`, a `304` answering its revalidation (§3.2, §4.3.4), and its times.
    mutating func freshen(with notModified: HttpOperationResult, requestTime: Date, responseTime: Date, heuristics: Bool) {
        let incoming = notModified.headers.fields.filter {
            let key = HeaderName.key($0.name)
            return !Self.unstoredFields.contains(key) && !Self.keptOnUpdate.contains(key)
        }
        let replaced = Set(incoming.map { HeaderName.key($0.name) })
        headers = HTTPHeaderFields(headers.fields.filter { !replaced.contains(HeaderName.key($0.name)) } + incoming)
        control = CacheControl(headers["Cache-Control"])
        byteCount = bodyCount + Self.overhead(of: headers)
        settle(requestTime: requestTime, responseTime: responseTime, heuristics: heuristics)
    }

    /// Whether a `304` with these fields answers this entry's revalidation (§4.3.4): a strong `ETag` in it must be
    /// this entry's; one without an `ETag` is taken for the entry the conditional request named.
    func isFreshened(by notModified: HttpOperationResult) -> Bool {
        guard let etag = notModified.header("ETag") else { return true }
        guard let own = headers["ETag"] else { return false }
        return Self.weakComparable(etag) == Self.weakComparable(own)
    }

    /// What a disk store writes for this entry besides its body.
    func head(key: String) -> CacheEntryHead {
        CacheEntryHead(
            version: CacheEntryHead.currentVersion, key: key, statusCode: statusCode,
            fields: headers.map { [$0.name, $0.value] }, url: url?.absoluteString,
            varied: varied.map { CacheEntryHead.Varied(name: $0.name, value: $0.value) }, credential: credential,
            freshnessLifetime: freshnessLifetime, initialAge: initialAge, responseTime: responseTime, bodyCount: bodyCount)
    }

    /// An entry read back from a disk store's head, without its body; `nil` when the head does not make sense.
    init?(restoring head: CacheEntryHead) {
        guard head.version == CacheEntryHead.currentVersion, (200..<600).contains(head.statusCode), head.bodyCount >= 0,
            head.fields.allSatisfy({ $0.count == 2 }), head.freshnessLifetime.isFinite, head.initialAge.isFinite
        else { return nil }
        statusCode = head.statusCode
        headers = HTTPHeaderFields(head.fields.map { HTTPHeader(name: $0[0], value: $0[1]) })
        body = Data()
        url = head.url.flatMap(URL.init(string:))
        varied = head.varied.map { VariedField(name: $0.name, value: $0.value) }
        credential = head.credential
        control = CacheControl(headers["Cache-Control"])
        freshnessLifetime = head.freshnessLifetime
        initialAge = head.initialAge
        responseTime = head.responseTime
        bodyCount = head.bodyCount
        byteCount = head.bodyCount + Self.overhead(of: headers)
    }

    /// What an entry costs beyond its body: its fields and a fixed allowance for the rest.
    private static func overhead(of headers: HTTPHeaderFields) -> Int {
        headers.reduce(0) { $0 + $1.name.utf8.count + $1.value.utf8.count + 4 } + 256
    }

    /// Freshness lifetime and initial age from the fields (§4.2.1, §4.2.3).
    private mutating func settle(requestTime: Date, responseTime: Date, heuristics: Bool) {
        self.responseTime = responseTime
        let date = headers["Date"].flatMap { HTTPDate.parse($0, now: responseTime) }
        if let maxAge = control.maxAge {
            freshnessLifetime = TimeInterval(maxAge)
        } else if let expiresField = headers["Expires"] {
            // An Expires that does not parse ("0", "-1") means already expired.
            let expires = HTTPDate.parse(expiresField, now: responseTime)
            freshnessLifetime = expires.map { max(0, $0.timeIntervalSince(date ?? responseTime)) } ?? 0
        } else if heuristics, Self.heuristicStatuses.contains(statusCode),
            let lastModified = headers["Last-Modified"].flatMap({ HTTPDate.parse($0, now: responseTime) })
        {
            // §4.2.2: a tenth of the time since it last changed, as browsers do, at most a day.
            freshnessLifetime = min(86_400, max(0, (date ?? responseTime).timeIntervalSince(lastModified) / 10))
        } else {
            freshnessLifetime = 0
        }
        let ageValue = headers["Age"].flatMap { Int($0.trimmingCharacters(in: .whitespaces)) }.map { max(0, $0) } ?? 0
        let apparentAge = date.map { max(0, responseTime.timeIntervalSince($0)) } ?? 0
        let responseDelay = max(0, responseTime.timeIntervalSince(requestTime))
        initialAge = max(apparentAge, TimeInterval(ageValue) + responseDelay)
    }

    /// The lowercased field names a response's `Vary` lists.
    private static func varyNames(of headers: HTTPHeaderFields) -> [String] {
        headers.values(for: "Vary").flatMap { $0.split(separator: ",") }
            .map { $0.trimmingCharacters(in: .whitespaces).lowercased() }.filter { !$0.isEmpty }
    }

    /// A request field's value for comparison: repeats joined with `,`, whitespace around each element dropped.
    private static func value(of name: String, in fields: [HTTPHeader]) -> String? {
        let values = fields.filter { HeaderName.matches($0.name, name) }.map { $0.value }
        guard !values.isEmpty else { return nil }
        return values.joined(separator: ",").split(separator: ",")
            .map { $0.trimmingCharacters(in: .whitespaces) }.joined(separator: ",")
    }

    /// An entity tag without its weakness marker, for the weak comparison §4.3.4 allows.
    private static func weakComparable(_ etag: String) -> Substring {
        let trimmed = Substring(etag.trimmingCharacters(in: .whitespaces))
        return trimmed.hasPrefix("W/") ? trimmed.dropFirst(2) : trimmed
    }

    /// Hop-by-hop fields (RFC 9110 §7.6.1), which describe one connection, not the response.
    private static let unstoredFields: Set<String> = [
        "connection", "keep-alive", "proxy-connection", "te", "transfer-encoding", "upgrade",
    ]

    /// Fields of a `304` that do not replace the stored ones: they describe the 304's own (empty) content.
    private static let keptOnUpdate: Set<String> = ["content-length", "content-encoding", "content-range", "content-type"]

    /// Statuses heuristically cacheable by default (RFC 9110 §15.1).
    private static let heuristicStatuses: Set<Int> = [200, 203, 204, 206, 300, 301, 308, 404, 405, 410, 414, 501]
}
