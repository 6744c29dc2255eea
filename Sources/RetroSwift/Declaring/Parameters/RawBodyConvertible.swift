import Foundation

/// A value a `@RawBody` can send: `Data`, `String`, a file `URL`, a ``RawBodyContent``, or an optional of one.
public protocol RawBodyConvertible: Sendable {
    /// The body this value sends, or `nil` for none.
    var rawBodyContent: RawBodyContent? { get }
}

extension RawBodyContent: RawBodyConvertible {
    /// The value itself.
    public var rawBodyContent: RawBodyContent? { self }
}

extension Data: RawBodyConvertible {
    /// The bytes, as `application/octet-stream` unless declared otherwise.
    public var rawBodyContent: RawBodyContent? { RawBodyContent(data: self) }
}

extension String: RawBodyConvertible {
    /// The text as UTF-8, as `text/plain; charset=utf-8` unless declared otherwise.
    public var rawBodyContent: RawBodyContent? { RawBodyContent(text: self) }
}

extension URL: RawBodyConvertible {
    /// The file at this URL, streamed from disk, typed by its extension unless declared otherwise.
    public var rawBodyContent: RawBodyContent? { RawBodyContent(fileURL: self) }
}

extension Optional: RawBodyConvertible where Wrapped: RawBodyConvertible {
    /// The wrapped value's body, or none for `nil`.
    public var rawBodyContent: RawBodyContent? { self?.rawBodyContent }
}

extension HTTPRequestBodyStream: RawBodyConvertible {
    /// The chunks, read while the request is sent, as `application/octet-stream` unless declared otherwise.
    public var rawBodyContent: RawBodyContent? { RawBodyContent(stream: self) }
}
