/// An HTTP request method: one of the standard ones (`.get`, `.post`, ...), or any other RFC 9110 token, such as
/// WebDAV's `PROPFIND` or the `QUERY` method, made with ``init(_:allowsBody:isIdempotent:)``.
///
/// Methods are compared by name, which is case-sensitive (RFC 9110 §9.1): `"get"` is not `GET`.
public struct HTTPMethod: RawRepresentable, Sendable, Hashable, CustomStringConvertible {
    /// The method's name as sent in the request line.
    public let rawValue: String
    /// Whether a request of this method may carry a body. `GET` and `HEAD` may not: many servers ignore or reject
    /// such bodies, so RetroSwift reports a body on them as a declaration mistake.
    public let allowsBody: Bool
    /// Whether repeating the request has the same effect as sending it once (RFC 9110 §9.2.2), so that
    /// `RetryInterceptor` may retry it without being told to.
    public let isIdempotent: Bool

    /// A method of your own.
    ///
    /// - Parameters:
    ///   - name: The method's name, an RFC 9110 token such as `PROPFIND`; a name that is not a token is reported as a
    ///     declaration mistake of every endpoint that uses it.
    ///   - allowsBody: Whether its requests may carry a body.
    ///   - isIdempotent: Whether it may be retried without opting in (`false` unless the method's specification says
    ///     so; `QUERY` is, `PROPFIND` is too, `LOCK` is not).
    public init(_ name: String, allowsBody: Bool, isIdempotent: Bool = false) {
        rawValue = name
        self.allowsBody = allowsBody
        self.isIdempotent = isIdempotent
    }

    /// The standard method named `rawValue`, or a method of that name that allows a body and is not idempotent.
    ///
    /// - Parameter rawValue: The method's name.
    public init?(rawValue: String) {
        self = Self.standard.first { $0.rawValue == rawValue } ?? HTTPMethod(rawValue, allowsBody: true)
    }

    /// `GET`: read a resource.
    public static let get = HTTPMethod("GET", allowsBody: false, isIdempotent: true)
    /// `POST`: create or act on a resource.
    public static let post = HTTPMethod("POST", allowsBody: true)
    /// `PUT`: replace a resource.
    public static let put = HTTPMethod("PUT", allowsBody: true, isIdempotent: true)
    /// `PATCH`: change part of a resource.
    public static let patch = HTTPMethod("PATCH", allowsBody: true)
    /// `DELETE`: remove a resource.
    public static let delete = HTTPMethod("DELETE", allowsBody: true, isIdempotent: true)
    /// `HEAD`: like `GET`, without a response body.
    public static let head = HTTPMethod("HEAD", allowsBody: false, isIdempotent: true)
    /// `OPTIONS`: ask what the server or a resource allows (and answer a CORS preflight).
    public static let options = HTTPMethod("OPTIONS", allowsBody: true, isIdempotent: true)

    /// The standard methods RetroSwift declares: `GET`, `POST`, `PUT`, `PATCH`, `DELETE`, `HEAD` and `OPTIONS`.
    static let standard: [HTTPMethod] = [.get, .post, .put, .patch, .delete, .head, .options]

    /// The method's name.
    public var description: String { rawValue }

    /// Methods are equal when their names are.
    ///
    /// - Parameters:
    ///   - lhs: A method.
    ///   - rhs: Another method.
    /// - Returns: Whether both have the same name.
    public static func == (lhs: HTTPMethod, rhs: HTTPMethod) -> Bool {
        lhs.rawValue == rhs.rawValue
    }

    /// Hashes the name.
    ///
    /// - Parameter hasher: The hasher to feed.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(rawValue)
    }
}
