/// How to walk a paginated endpoint: where a page's items are, and which request fetches the page after it.
///
/// Use one of the built-in strategies — ``pageNumber(_:pageSize:items:)``, ``offset(_:limit:items:)``,
/// ``cursor(_:next:items:)`` and ``linkHeader(_:items:)`` — or write your own in a few lines:
///
/// ```swift
/// // A `has_more` flag and the last item's id, as Stripe's lists do.
/// let afterLastItem = Pagination<ChargesRequest, ChargeList, Charge>(items: { $0.data }) { request, page, items in
///     guard page.hasMore, let last = items.last else { return nil }
///     var next = request
///     next.startingAfter = last.id
///     return next
/// }
/// ```
public struct Pagination<Request, Response, Item>: Sendable {
    let items: @Sendable (Response) throws -> [Item]
    let next: @Sendable (_ request: Request, _ response: Response, _ items: [Item]) throws -> Request?
    /// For strategies that can name any page up front (page numbers, offsets): the page size the first request asks
    /// for, and the request for the page `n` pages after the first.
    let randomAccess: RandomAccess?

    struct RandomAccess: Sendable {
        let pageSize: @Sendable (_ first: Request) -> Int
        let request: @Sendable (_ first: Request, _ pagesAfter: Int) -> Request
    }

    /// A strategy of your own.
    ///
    /// - Parameters:
    ///   - items: The items of one page, in order.
    ///   - next: The request for the page after `response`, the answer to `request` holding `items`; `nil` when
    ///     `response` is the last page. A thrown error ends the walk with that error.
    public init(
        items: @escaping @Sendable (_ response: Response) throws -> [Item],
        next: @escaping @Sendable (_ request: Request, _ response: Response, _ items: [Item]) throws -> Request?
    ) {
        self.items = items
        self.next = next
        self.randomAccess = nil
    }

    init(
        items: @escaping @Sendable (Response) throws -> [Item],
        next: @escaping @Sendable (Request, Response, [Item]) throws -> Request?, randomAccess: RandomAccess
    ) {
        self.items = items
        self.next = next
        self.randomAccess = randomAccess
    }
}
