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
// Not Sendable: key paths into request types of a main-actor-default module are not, and a walk runs its strategy
// on the caller's actor anyway.
public struct Pagination<Request, Response, Item> {
    let items: (Response) throws -> [Item]
    let next: (_ request: Request, _ response: Response, _ items: [Item]) throws -> Request?
    /// For strategies that can name any page up front (page numbers, offsets): the page size the first request asks
    /// for, and the request for the page `n` pages after the first.
    let randomAccess: RandomAccess?

    struct RandomAccess {
        let pageSize: (_ first: Request) -> Int
        /// The request for the page `pagesAfter` pages after `first`, or `nil` when its number or offset is past `Int`.
        let request: (_ first: Request, _ pagesAfter: Int) -> Request?
    }

    /// A strategy of your own.
    ///
    /// - Parameters:
    ///   - items: The items of one page, in order.
    ///   - next: The request for the page after `response`, the answer to `request` holding `items`; `nil` when
    ///     `response` is the last page. A thrown error ends the walk with that error.
    public init(
        items: @escaping (_ response: Response) throws -> [Item],
        next: @escaping (_ request: Request, _ response: Response, _ items: [Item]) throws -> Request?
    ) {
        self.items = items
        self.next = next
        self.randomAccess = nil
    }

    init(
        items: @escaping (Response) throws -> [Item],
        next: @escaping (Request, Response, [Item]) throws -> Request?, randomAccess: RandomAccess
    ) {
        self.items = items
        self.next = next
        self.randomAccess = randomAccess
    }
}
