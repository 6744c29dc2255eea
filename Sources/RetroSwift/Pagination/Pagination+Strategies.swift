import Foundation

extension Pagination {
    /// Page number and page size, as Ethel's and GitHub's `page`/`per_page`: each request asks for the next page
    /// number; a page with fewer items than the page size (or none) is the last.
    ///
    /// ```swift
    /// .pageNumber(\.page, pageSize: \.perPage, items: \.self)
    /// ```
    ///
    /// - Parameters:
    ///   - page: The request's page number field, incremented for each page.
    ///   - pageSize: The request's page size field, which the server honours.
    ///   - items: The items of a page.
    /// - Returns: The strategy.
    public static func pageNumber(
        _ page: WritableKeyPath<Request, Int>, pageSize: KeyPath<Request, Int>,
        items: KeyPath<Response, [Item]>
    ) -> Pagination {
        sizedPages(items: items, size: pageSize, advance: { request, _ in advancing(&request[keyPath: page], by: 1) }) {
            request, pagesAfter in
            advancing(&request[keyPath: page], by: pagesAfter)
        }
    }

    /// Offset and limit: each request starts where the items so far end; a page with fewer items than the limit (or
    /// none) is the last.
    ///
    /// ```swift
    /// .offset(\.offset, limit: \.limit, items: \.results)
    /// ```
    ///
    /// - Parameters:
    ///   - offset: The request's offset field, advanced by each page's item count.
    ///   - limit: The request's limit field, which the server honours.
    ///   - items: The items of a page.
    /// - Returns: The strategy.
    public static func offset(
        _ offset: WritableKeyPath<Request, Int>, limit: KeyPath<Request, Int>,
        items: KeyPath<Response, [Item]>
    ) -> Pagination {
        sizedPages(items: items, size: limit, advance: { request, count in advancing(&request[keyPath: offset], by: count) }) {
            request, pagesAfter in
            let (distance, overflow) = pagesAfter.multipliedReportingOverflow(by: request[keyPath: limit])
            return !overflow && advancing(&request[keyPath: offset], by: distance)
        }
    }

    /// Pages of the size the request asks for, where a short or empty page is the last, and any page can be named
    /// up front: what page numbers and offsets share.
    ///
    /// - Parameters:
    ///   - items: The items of a page.
    ///   - size: The request's page size field.
    ///   - advance: Moves a request on past a page of that many items.
    ///   - jump: Moves the first request on by that many pages.
    /// Adds `distance` to `value` unless that overflows `Int`: a page number or offset past `Int.max` has no request, so
    /// the walk ends there instead of trapping.
    ///
    /// - Returns: Whether `value` was advanced.
    private static func advancing(_ value: inout Int, by distance: Int) -> Bool {
        let (sum, overflow) = value.addingReportingOverflow(distance)
        if !overflow { value = sum }
        return !overflow
    }

    private static func sizedPages(
        items: KeyPath<Response, [Item]>, size: KeyPath<Request, Int>,
        advance: @escaping (inout Request, _ itemCount: Int) -> Bool,
        jump: @escaping (inout Request, _ pagesAfter: Int) -> Bool
    ) -> Pagination {
        Pagination(
            items: { $0[keyPath: items] },
            next: { request, _, items in
                guard !items.isEmpty, items.count >= request[keyPath: size] else { return nil }
                var next = request
                return advance(&next, items.count) ? next : nil
            },
            randomAccess: RandomAccess(pageSize: { $0[keyPath: size] }) { first, pagesAfter in
                var request = first
                return jump(&request, pagesAfter) ? request : nil
            }
        )
    }

    /// A cursor that each page hands out for the next one (`next_cursor`, or `has_more` with an id): the walk ends
    /// when there is none, or when it is empty.
    ///
    /// ```swift
    /// .cursor(\.cursor, next: { $0.hasMore ? $0.nextCursor : nil }, items: \.items)
    /// ```
    ///
    /// - Parameters:
    ///   - cursor: The request's cursor field, `nil` for the first page.
    ///   - next: The cursor for the page after this one, or `nil` on the last page.
    ///   - items: The items of a page.
    /// - Returns: The strategy.
    public static func cursor(
        _ cursor: WritableKeyPath<Request, String?>, next: @escaping (Response) -> String?,
        items: KeyPath<Response, [Item]>
    ) -> Pagination {
        Pagination(items: { $0[keyPath: items] }) { request, response, _ in
            guard let value = next(response), !value.isEmpty, value != request[keyPath: cursor] else { return nil }
            var following = request
            following[keyPath: cursor] = value
            return following
        }
    }
}

extension Pagination {
    /// The RFC 8288 `Link` header's `rel="next"` URL, as GitHub sends it: the endpoint takes a `@Url` field, the
    /// first request names the first page, and each next link is followed as given — on the origin (scheme, host and
    /// port) of the page that sent it only. A next link to another origin ends the walk with ``PaginationError``
    /// (holding a ``RequestError`` that names the link), and nothing is requested there.
    ///
    /// ```swift
    /// struct IssuesPage { @Url var url: String = "/repos/apple/swift/issues?per_page=100" }
    /// @Get() var issues: (IssuesPage) async throws -> HTTPResponse<[Issue]>
    /// // .linkHeader(\.url, items: \.body)
    /// ```
    ///
    /// - Parameters:
    ///   - url: The request's `@Url` field.
    ///   - items: The items of a page.
    /// - Returns: The strategy.
    public static func linkHeader<Body>(
        _ url: WritableKeyPath<Request, String>, items: KeyPath<Body, [Item]>
    ) -> Pagination where Response == HTTPResponse<Body> {
        Pagination(items: { $0.body[keyPath: items] }) { request, response, _ in
            guard let header = response.header("Link"), let link = LinkHeader.target(of: header, relation: "next") else {
                return nil
            }
            guard let base = response.url, let target = URL(string: link, relativeTo: base)?.absoluteURL else {
                throw RequestError(
                    .invalidValue, endpoint: nil,
                    reason: "the next page's link '\(link)' is not a URL"
                        + (response.url == nil ? " relative to the page (the transport did not report the page's URL)" : "")
                )
            }
            guard let origin = Origin(target), Origin(base) == origin else {
                throw RequestError(
                    .invalidValue, endpoint: nil,
                    reason: "the next page's link '\(target.absoluteString)' leads to another origin than the page "
                        + "(\(base.absoluteString)); it was not followed"
                )
            }
            var next = request
            next[keyPath: url] = target.absoluteString
            return next
        }
    }
}
