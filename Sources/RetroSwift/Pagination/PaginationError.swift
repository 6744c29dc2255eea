import Foundation

/// A page of a ``Paginated`` walk that could not be fetched or read; the walk ends with it.
public struct PaginationError: Error, CustomStringConvertible, LocalizedError {
    /// The zero-based position of the page: `0` for the first request.
    public let page: Int
    /// What went wrong: an ``HTTPError``, a ``RequestError`` (a next link to another origin), a transport's error.
    public let underlyingError: any Error

    /// Creates the error.
    ///
    /// - Parameters:
    ///   - page: The zero-based position of the page.
    ///   - underlyingError: What went wrong.
    init(page: Int, underlyingError: any Error) {
        self.page = page
        self.underlyingError = underlyingError
    }

    /// `page 3 (counting from 0): HTTP 500 ...`.
    public var description: String {
        "page \(page) (counting from 0): \(underlyingError)"
    }

    /// ``description``, so that `localizedDescription` names the page and what went wrong.
    public var errorDescription: String? { description }
}
