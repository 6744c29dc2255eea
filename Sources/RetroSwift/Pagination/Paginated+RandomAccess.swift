extension Paginated {
    /// The item at `index`, counting from 0 at the first request's first item (Ethel's subscript).
    ///
    /// With ``Pagination/pageNumber(_:pageSize:items:)`` and ``Pagination/offset(_:limit:items:)`` only the page that
    /// holds it is fetched; other strategies walk the pages before it.
    ///
    /// - Parameters:
    ///   - index: The position of the item; a negative one is `nil` without a request.
    ///   - actor: The caller's actor, where the pages are fetched from; passed for you.
    /// - Returns: The item, or `nil` when the list is shorter.
    /// - Throws: ``PaginationError`` for the page that failed.
    public func item(at index: Int, isolation actor: isolated (any Actor)? = #isolation) async throws -> Item? {
        // The item at `Int.max` would end past every range; there is none.
        guard index < Int.max else { return nil }
        return try await items(in: index..<(index + 1), isolation: actor).first
    }

    /// The items in `range`, counting from 0 at the first request's first item (Ethel's range subscript).
    ///
    /// With ``Pagination/pageNumber(_:pageSize:items:)`` and ``Pagination/offset(_:limit:items:)`` only the pages
    /// that hold them are fetched, in order, stopping at a short page; other strategies walk the pages before them.
    ///
    /// - Parameters:
    ///   - range: The positions; negative positions are left out.
    ///   - actor: The caller's actor, where the pages are fetched from; passed for you.
    /// - Returns: The items, fewer than `range.count` when the list ends inside it.
    /// - Throws: ``PaginationError`` for the page that failed.
    public func items(in range: Range<Int>, isolation actor: isolated (any Actor)? = #isolation) async throws -> [Item] {
        let range = Swift.max(0, range.lowerBound)..<Swift.max(0, range.upperBound)
        guard !range.isEmpty else { return [] }
        guard let jump = pagination.randomAccess, case let size = jump.pageSize(first), size > 0 else {
            var found: [Item] = []
            var iterator = makeAsyncIterator()
            var position = 0
            while position < range.upperBound, let item = try await iterator.next(isolation: actor) {
                if position >= range.lowerBound { found.append(item) }
                position += 1
            }
            return found
        }
        var found: [Item] = []
        for page in (range.lowerBound / size)...((range.upperBound - 1) / size) {
            guard let request = jump.request(first, page) else { break }
            let pageItems = try await fetchPage(request, at: page, isolation: actor).items
            // `page * size` is at most `range.upperBound - 1`; an item past `Int.max` is past the range.
            for (offset, item) in pageItems.enumerated() where range.contains((page * size).addingReportingOverflow(offset).partialValue) {
                found.append(item)
            }
            if pageItems.count < size { break }
        }
        return found
    }
}
